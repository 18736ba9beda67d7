/* Shim: permission overlays (POE) absent: every key allows everything. */
#ifndef PTESPEC_SHIM_ASM_POR_H
#define PTESPEC_SHIM_ASM_POR_H
#include <asm/sysreg.h>
#define por_elx_allows_read(por, key) ((void)(por), true)
#define por_elx_allows_write(por, key) ((void)(por), true)
#define por_elx_allows_exec(por, key) ((void)(por), true)
#endif
