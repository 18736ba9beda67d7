/*
 * Shim: core-mm's generic hugetlb helpers that arm64's header leaves to
 * it, each under the test core-mm uses.
 */
#ifndef PTESPEC_SHIM_ASM_GENERIC_HUGETLB_H
#define PTESPEC_SHIM_ASM_GENERIC_HUGETLB_H

#ifndef __HAVE_ARCH_HUGE_PTEP_GET
static inline pte_t huge_ptep_get(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	return ptep_get(ptep);
}
#endif
static inline int huge_pte_write(pte_t pte) { return pte_write(pte); }
static inline int huge_pte_dirty(pte_t pte) { return pte_dirty(pte); }
static inline pte_t huge_pte_mkwrite(pte_t pte) { return pte_mkwrite_novma(pte); }
static inline pte_t huge_pte_wrprotect(pte_t pte) { return pte_wrprotect(pte); }
static inline pte_t huge_pte_mkdirty(pte_t pte) { return pte_mkdirty(pte); }
static inline int huge_pte_none(pte_t pte) { return pte_none(pte); }

#endif
