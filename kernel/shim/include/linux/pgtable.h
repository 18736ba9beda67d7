/*
 * Shim: the architecture's page table header, then core-mm's generic
 * definitions of what it leaves out (each under the test core-mm uses).
 */
#ifndef PTESPEC_SHIM_LINUX_PGTABLE_H
#define PTESPEC_SHIM_LINUX_PGTABLE_H

#include <asm/pgtable.h>

#ifndef pte_advance_pfn
static inline pte_t pte_advance_pfn(pte_t pte, unsigned long nr)
{
	return __pte(pte_val(pte) + (nr << PAGE_SHIFT));
}
#endif

#ifndef ptep_get
static inline pte_t ptep_get(pte_t *ptep)
{
	return READ_ONCE(*ptep);
}
#endif

#ifndef __HAVE_ARCH_PTE_SAME
static inline int pte_same(pte_t a, pte_t b)
{
	return pte_val(a) == pte_val(b);
}
#endif

#endif
