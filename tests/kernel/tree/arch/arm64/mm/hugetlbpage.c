// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contiguous hugetlb calls of the ptespec test tree, written for
 * ptespec's tests from the semantics of its builtin mainline strategy.
 * Contiguous hugepages: CONT_PTES entries of a pte table, each mapping a
 * page, or CONT_PMDS blocks of a pmd table, each mapping PMD_SIZE; the pfn
 * advances by what one entry maps.  A change to a valid run breaks it
 * whole (clear every entry, invalidate) before it makes it.
 */

#include <linux/init.h>
#include <linux/mm.h>
#include <linux/hugetlb.h>
#include <asm/tlbflush.h>

/* Entries of a hugepage of size bytes, and what each maps. */
static int contig_entries(unsigned long size, unsigned long *pgsize)
{
	if (size == CONT_PTE_SIZE) {
		*pgsize = PAGE_SIZE;
		return CONT_PTES;
	}
	if (size == CONT_PMD_SIZE) {
		*pgsize = PMD_SIZE;
		return CONT_PMDS;
	}
	WARN_ON(size != PAGE_SIZE);
	*pgsize = size;
	return 1;
}

/* A pte pointer that is the walk's pmd slot is a CONT_PMD block's. */
static int entries_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		      unsigned long *pgsize)
{
	if ((pte_t *)pmd_off(mm, addr) == ptep) {
		*pgsize = PMD_SIZE;
		return CONT_PMDS;
	}
	*pgsize = PAGE_SIZE;
	return CONT_PTES;
}

static pte_t with_flags_of(pte_t pte, pte_t other)
{
	if (pte_young(other))
		pte = pte_mkyoung(pte);
	if (pte_dirty(other))
		pte = pte_mkdirty(pte);
	return pte;
}

pte_t huge_ptep_get(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	pte_t pte = __ptep_get(ptep);
	unsigned long pgsize;
	int n, k;

	if (!pte_present(pte) || !pte_cont(pte))
		return pte;
	n = entries_at(mm, addr, ptep, &pgsize);
	for (k = 1; k < n; k++)
		pte = with_flags_of(pte, __ptep_get(ptep + k));
	return pte;
}

/*
 * Takes every entry out; the others' young and dirty count only when the
 * first is present (a non-present value has no such bits).
 */
static pte_t take_out(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		      int n, unsigned long pgsize)
{
	pte_t pte = __ptep_get_and_clear(mm, addr, ptep);
	bool present = pte_present(pte);
	int k;

	for (k = 1; k < n; k++) {
		pte_t other = __ptep_get_and_clear(mm, addr + k * pgsize,
						   ptep + k);

		if (present)
			pte = with_flags_of(pte, other);
	}
	return pte;
}

/* A block's translations sit at level 2; a page's level is left unnamed. */
static void invalidate(struct mm_struct *mm, unsigned long addr, int n,
		       unsigned long pgsize)
{
	struct vm_area_struct vma = TLB_FLUSH_VMA(mm, 0);

	__flush_tlb_range(&vma, addr, addr + n * pgsize, pgsize,
			  pgsize == PMD_SIZE ? 2 : TLBI_TTL_UNKNOWN,
			  TLBF_NOWALKCACHE);
}

static pte_t take_out_flush(struct mm_struct *mm, unsigned long addr,
			    pte_t *ptep, int n, unsigned long pgsize)
{
	pte_t pte = take_out(mm, addr, ptep, n, pgsize);

	invalidate(mm, addr, n, pgsize);
	return pte;
}

static void write_run(pte_t *ptep, pte_t pte, int n, unsigned long pgsize)
{
	int k;

	for (k = 0; k < n; k++)
		__set_pte(ptep + k, pte_advance_pfn(pte, k * (pgsize >> PAGE_SHIFT)));
}

void set_huge_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		     pte_t pte, unsigned long sz)
{
	unsigned long pgsize;
	int n = contig_entries(sz, &pgsize), k;

	if (!pte_present(pte)) {
		for (k = 0; k < n; k++)
			__set_pte(ptep + k, pte);
		return;
	}
	/* Only a valid run needs the break. */
	if (pte_cont(pte) && pte_valid(__ptep_get(ptep)))
		take_out_flush(mm, addr, ptep, n, pgsize);
	write_run(ptep, pte, n, pgsize);
}

void huge_pte_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
		    unsigned long sz)
{
	unsigned long pgsize;
	int n = contig_entries(sz, &pgsize), k;

	for (k = 0; k < n; k++)
		__pte_clear(mm, addr + k * pgsize, ptep + k);
}

pte_t huge_ptep_get_and_clear(struct mm_struct *mm, unsigned long addr,
			      pte_t *ptep, unsigned long sz)
{
	unsigned long pgsize;
	int n = contig_entries(sz, &pgsize);

	return take_out(mm, addr, ptep, n, pgsize);
}

pte_t huge_ptep_clear_flush(struct vm_area_struct *vma, unsigned long addr,
			    pte_t *ptep)
{
	unsigned long pgsize;
	int n = contig_entries(huge_page_size(hstate_vma(vma)), &pgsize);

	return take_out_flush(vma->vm_mm, addr, ptep, n, pgsize);
}

/* Whether pte differs from the run in write permission, young or dirty. */
static bool access_flags_differ(pte_t *ptep, pte_t pte, int n)
{
	int k;

	if (pte_write(pte) != pte_write(__ptep_get(ptep)))
		return true;
	for (k = 0; k < n; k++) {
		pte_t old = __ptep_get(ptep + k);

		if (pte_young(pte) != pte_young(old) ||
		    pte_dirty(pte) != pte_dirty(old))
			return true;
	}
	return false;
}

int huge_ptep_set_access_flags(struct vm_area_struct *vma, unsigned long addr,
			       pte_t *ptep, pte_t pte, int dirty)
{
	unsigned long pgsize;
	int n;

	if (!pte_cont(pte))
		return __ptep_set_access_flags(vma, addr, ptep, pte, dirty);
	n = contig_entries(huge_page_size(hstate_vma(vma)), &pgsize);
	if (!access_flags_differ(ptep, pte, n))
		return 0;
	pte = with_flags_of(pte, take_out_flush(vma->vm_mm, addr, ptep, n, pgsize));
	write_run(ptep, pte, n, pgsize);
	return 1;
}

void huge_ptep_set_wrprotect(struct mm_struct *mm, unsigned long addr,
			     pte_t *ptep)
{
	unsigned long pgsize;
	pte_t pte = __ptep_get(ptep);
	int n;

	if (!pte_cont(pte)) {
		__ptep_set_wrprotect(mm, addr, ptep);
		return;
	}
	n = entries_at(mm, addr, ptep, &pgsize);
	pte = pte_wrprotect(take_out_flush(mm, addr, ptep, n, pgsize));
	write_run(ptep, pte, n, pgsize);
}

pte_t huge_ptep_modify_prot_start(struct vm_area_struct *vma,
				  unsigned long addr, pte_t *ptep)
{
	return huge_ptep_get_and_clear(vma->vm_mm, addr, ptep,
				       huge_page_size(hstate_vma(vma)));
}

void huge_ptep_modify_prot_commit(struct vm_area_struct *vma,
				  unsigned long addr, pte_t *ptep,
				  pte_t old_pte, pte_t pte)
{
	set_huge_pte_at(vma->vm_mm, addr, ptep, pte,
			huge_page_size(hstate_vma(vma)));
}
