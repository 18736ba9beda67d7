/* Shim: permission overlays (POE) absent: every key allows everything. */
#ifndef PTESPEC_SHIM_ASM_POR_H
#define PTESPEC_SHIM_ASM_POR_H
#include <asm/sysreg.h>
#define por_elx_allows_read(por, key) true
#define por_elx_allows_write(por, key) true
#define por_elx_allows_exec(por, key) true
#endif
