/* Shim: the fixmap slots exist by name; mapping one is not modelled (a fatal verdict naming the line). */
#ifndef PTESPEC_SHIM_ASM_FIXMAP_H
#define PTESPEC_SHIM_ASM_FIXMAP_H
#include <asm/memory.h>
enum fixed_addresses { FIX_HOLE, FIX_PTE, FIX_PMD, FIX_PUD, FIX_P4D, FIX_PGD, __end_of_fixed_addresses };
#define set_fixmap_offset(idx, phys) ptespec_unmodelled(__FILE__, __LINE__, "set_fixmap_offset (the fixmap is not modelled)")
#define clear_fixmap(idx) ((void)ptespec_unmodelled(__FILE__, __LINE__, "clear_fixmap (the fixmap is not modelled)"))
#endif
