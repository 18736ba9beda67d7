/*
 * Shim: what a tree's hugetlbpage.c takes from core-mm's hugetlb.  The
 * hugepage a call is given has the size the model's call carries
 * (ptespec_hstate, set by the adapter before each hugetlb call); every
 * vma is a hugetlb vma of that size.  The page-table walk ends at the
 * model's one table: the levels above it are slots of their own.  In a pte
 * table a pte pointer is never a pmd slot, and the tree sizes a run as
 * CONT_PTE; in a pmd table the walk's pmd is the entry itself, and the
 * tree sizes a run as CONT_PMD.
 * Allocating or sharing tables is not modelled (a fatal verdict naming
 * the line): no hugetlb call the model makes does it.
 */
#ifndef PTESPEC_SHIM_LINUX_HUGETLB_H
#define PTESPEC_SHIM_LINUX_HUGETLB_H

#include <linux/mm.h>

struct hstate {
	unsigned int order;	/* log2 of the hugepage's size in pages */
};
extern _Thread_local struct hstate ptespec_hstate;
#define HUGE_MAX_HSTATE 4
static inline struct hstate *hstate_vma(struct vm_area_struct *vma)
{
	return &ptespec_hstate;
}
static inline unsigned long huge_page_size(const struct hstate *h)
{
	return PAGE_SIZE << h->order;
}
static inline unsigned int huge_page_order(const struct hstate *h)
{
	return h->order;
}
#define hugetlb_add_hstate(order) ((void)(order))
#define VM_HUGETLB 0x00400000UL

/* The walk: every upper level a slot outside the pte table. */
extern unsigned long ptespec_upper_slots[4];
#undef pgd_offset
#undef p4d_offset
#undef pud_offset
#undef pmd_offset
#define pgd_offset(mm, addr) ((pgd_t *)&ptespec_upper_slots[0])
#define p4d_offset(pgdp, addr) ((p4d_t *)&ptespec_upper_slots[1])
#define pud_offset(p4dp, addr) ((pud_t *)&ptespec_upper_slots[2])
pmd_t *ptespec_pmd_slot(unsigned long addr);
#define pmd_offset(pudp, addr) ptespec_pmd_slot(addr)
#undef pmd_off
#define pmd_off(mm, addr) ptespec_pmd_slot(addr)
#define ptespec_no_tables(what) ptespec_unmodelled(__FILE__, __LINE__, what " (page-table allocation is not modelled)")
#define p4d_alloc(mm, pgdp, addr) ((p4d_t *)ptespec_no_tables("p4d_alloc"))
#define pud_alloc(mm, p4dp, addr) ((pud_t *)ptespec_no_tables("pud_alloc"))
#define pmd_alloc(mm, pudp, addr) ((pmd_t *)ptespec_no_tables("pmd_alloc"))
#define pte_alloc_huge(mm, pmdp, addr) ((pte_t *)ptespec_no_tables("pte_alloc_huge"))
#define pte_offset_huge(pmdp, addr) ((pte_t *)ptespec_no_tables("pte_offset_huge"))
#define huge_pmd_share(mm, vma, addr, pudp) ((pte_t *)ptespec_no_tables("huge_pmd_share"))
#define want_pmd_share(vma, addr) false
#ifndef p4d_present
#define p4d_present(p4d) 1
#endif
#ifndef pmdp_get
#define pmdp_get(pmdp) READ_ONCE(*(pmdp))
#endif

/* A page's size: its folio's (a hugetlb folio is one compound page). */
#define page_size(page) ((unsigned long)folio_nr_pages(page_folio(page)) << PAGE_SHIFT)

#include <asm/tlbflush.h>
#include <asm/hugetlb.h>

#ifndef __HAVE_ARCH_FLUSH_HUGETLB_TLB_RANGE
#define flush_hugetlb_tlb_range(vma, addr, end) flush_tlb_range(vma, addr, end)
#endif

#ifndef pte_accessible
/* Core-mm's generic answer: any entry may be cached. */
#define pte_accessible(mm, pte) ((void)(pte), 1)
#endif

#ifndef __HAVE_ARCH_PTEP_CLEAR_FLUSH
/* Core-mm's generic ptep_clear_flush: the entry taken out, its page
 * invalidated when some TLB may hold it. */
static inline pte_t ptep_clear_flush(struct vm_area_struct *vma, unsigned long address, pte_t *ptep)
{
	pte_t pte = ptep_get_and_clear(vma->vm_mm, address, ptep);

	if (pte_accessible(vma->vm_mm, pte))
		flush_tlb_page(vma, address);
	return pte;
}
#endif

#endif
