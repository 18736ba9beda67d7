/* Shim: the page size is asm/memory.h's. */
#ifndef PTESPEC_SHIM_ASM_PAGE_H
#define PTESPEC_SHIM_ASM_PAGE_H
#include <asm/memory.h>
#endif
