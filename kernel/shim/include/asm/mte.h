/* Shim: no MTE (system_supports_mte() is false), so no tags to sync. */
#ifndef PTESPEC_SHIM_ASM_MTE_H
#define PTESPEC_SHIM_ASM_MTE_H
#include <asm/pgtable-types.h>
static inline void mte_sync_tags(pte_t pte, unsigned int nr_pages) { }
#endif
