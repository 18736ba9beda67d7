/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The contiguous hugetlb calls of the ptespec test tree: a CONT_PTE
 * hugepage is a run of CONT_PTES entries written and taken out whole.
 * Declared in arm64's shape (the size argument where today's kernel
 * passes one); defined in mm/hugetlbpage.c, but for the range flush.
 */
#ifndef __ASM_HUGETLB_H
#define __ASM_HUGETLB_H

#include <asm/page.h>

#define __HAVE_ARCH_HUGE_SET_HUGE_PTE_AT
void set_huge_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		     pte_t pte, unsigned long sz);
#define __HAVE_ARCH_HUGE_PTEP_SET_ACCESS_FLAGS
int huge_ptep_set_access_flags(struct vm_area_struct *vma, unsigned long addr,
			       pte_t *ptep, pte_t pte, int dirty);
#define __HAVE_ARCH_HUGE_PTEP_GET_AND_CLEAR
pte_t huge_ptep_get_and_clear(struct mm_struct *mm, unsigned long addr,
			      pte_t *ptep, unsigned long sz);
#define __HAVE_ARCH_HUGE_PTEP_SET_WRPROTECT
void huge_ptep_set_wrprotect(struct mm_struct *mm, unsigned long addr,
			     pte_t *ptep);
#define __HAVE_ARCH_HUGE_PTEP_CLEAR_FLUSH
pte_t huge_ptep_clear_flush(struct vm_area_struct *vma, unsigned long addr,
			    pte_t *ptep);
#define __HAVE_ARCH_HUGE_PTE_CLEAR
void huge_pte_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		    unsigned long sz);
#define __HAVE_ARCH_HUGE_PTEP_GET
pte_t huge_ptep_get(struct mm_struct *mm, unsigned long addr, pte_t *ptep);

#define huge_ptep_modify_prot_start huge_ptep_modify_prot_start
pte_t huge_ptep_modify_prot_start(struct vm_area_struct *vma,
				  unsigned long addr, pte_t *ptep);
#define huge_ptep_modify_prot_commit huge_ptep_modify_prot_commit
void huge_ptep_modify_prot_commit(struct vm_area_struct *vma,
				  unsigned long addr, pte_t *ptep,
				  pte_t old_pte, pte_t pte);

#include <asm-generic/hugetlb.h>

/*
 * The translations of [start, end), hugepages of the vma's size: a
 * CONT_PTE hugepage's entries are ptes, invalidated one page at a time
 * with the level hint of a pte; a CONT_PMD hugepage's are blocks,
 * invalidated one block at a time at level 2; any other size without a
 * hint.
 */
#define __HAVE_ARCH_FLUSH_HUGETLB_TLB_RANGE
static inline void flush_hugetlb_tlb_range(struct vm_area_struct *vma,
					   unsigned long start,
					   unsigned long end)
{
	if (huge_page_size(hstate_vma(vma)) == CONT_PTE_SIZE)
		__flush_tlb_range(vma, start, end, PAGE_SIZE, 3, TLBF_NONE);
	else if (huge_page_size(hstate_vma(vma)) == CONT_PMD_SIZE)
		__flush_tlb_range(vma, start, end, PMD_SIZE, 2, TLBF_NONE);
	else
		__flush_tlb_range(vma, start, end, PAGE_SIZE, TLBI_TTL_UNKNOWN,
				  TLBF_NONE);
}

#endif /* __ASM_HUGETLB_H */
