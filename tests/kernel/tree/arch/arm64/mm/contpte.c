// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contpte helpers of the ptespec test tree: what the public API of
 * asm/pgtable.h calls once it meets a run with PTE_CONT set, or a batch
 * that covers runs.  Written for ptespec's tests from the semantics of its
 * builtin mainline strategy.
 */

#include <linux/mm.h>
#include <linux/efi.h>
#include <linux/export.h>
#include <asm/tlbflush.h>
#include <asm/cpufeature.h>

/* Kernel mappings may not take the faults a fold or unfold causes. */
static inline bool mm_is_user(struct mm_struct *mm)
{
	if (unlikely(mm_is_efi(mm)))
		return false;
	return mm != &init_mm;
}

static inline pte_t *contpte_align_down(pte_t *ptep)
{
	return PTR_ALIGN_DOWN(ptep, sizeof(*ptep) * CONT_PTES);
}

/*
 * Widens [*start, *end) to the runs its first and last entries lie in, when
 * those carry PTE_CONT; returns the pte of the widened start.  The caller's
 * nr entries map consecutive pages of one folio, and a run lies in one
 * folio, so whatever the widening takes in is that folio's too.
 */
static inline pte_t *contpte_align_addr_ptep(unsigned long *start,
					     unsigned long *end, pte_t *ptep,
					     unsigned int nr)
{
	if (pte_cont(__ptep_get(ptep + nr - 1)))
		*end = ALIGN(*end, CONT_PTE_SIZE);

	if (pte_cont(__ptep_get(ptep))) {
		*start = ALIGN_DOWN(*start, CONT_PTE_SIZE);
		ptep = contpte_align_down(ptep);
	}

	return ptep;
}

/* A run the range covers only partly must be unfolded; a whole one may stay. */
static void contpte_try_unfold_partial(struct mm_struct *mm, unsigned long addr,
				       pte_t *ptep, unsigned int nr)
{
	if (ptep != contpte_align_down(ptep) || nr < CONT_PTES)
		contpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));

	if (ptep + nr != contpte_align_down(ptep + nr)) {
		unsigned long last_addr = addr + PAGE_SIZE * (nr - 1);
		pte_t *last_ptep = ptep + nr - 1;

		contpte_try_unfold(mm, last_addr, last_ptep,
				   __ptep_get(last_ptep));
	}
}

/*
 * Break-before-make over the whole run: every entry is taken out
 * atomically, so no access or dirty update of the walker is lost and none
 * lands after; the TLB is invalidated; then every entry is written back
 * with the OR of what the run recorded.
 */
static void contpte_convert(struct mm_struct *mm, unsigned long addr,
			    pte_t *ptep, pte_t pte)
{
	struct vm_area_struct vma = TLB_FLUSH_VMA(mm, 0);
	unsigned long start_addr;
	pte_t *start_ptep;
	int i;

	start_ptep = ptep = contpte_align_down(ptep);
	start_addr = addr = ALIGN_DOWN(addr, CONT_PTE_SIZE);
	pte = pfn_pte(ALIGN_DOWN(pte_pfn(pte), CONT_PTES), pte_pgprot(pte));

	for (i = 0; i < CONT_PTES; i++, ptep++, addr += PAGE_SIZE) {
		pte_t ptent = __ptep_get_and_clear(mm, addr, ptep);

		if (pte_young(ptent))
			pte = pte_mkyoung(pte);
		if (pte_dirty(ptent))
			pte = pte_mkdirty(pte);
	}

	/*
	 * The repaint changes CONT and the flags only, so each new entry
	 * translates as the one it replaces.  A CPU with BBML2 and no TLB
	 * conflict aborts may hold both at once and answers with one of them,
	 * never a mix: the invalidation in between is not needed there.
	 */
	if (!system_supports_bbml2_noabort())
		__flush_tlb_range(&vma, start_addr, addr, PAGE_SIZE, 3, TLBF_NOWALKCACHE);

	__set_ptes(mm, start_addr, start_ptep, pte, CONT_PTES);
}

/*
 * The caller checked the alignment and that the entry is valid, not CONT
 * and not special.  What is left: one folio covers the whole run, and every
 * entry maps the next pfn with the same attributes, whatever its access and
 * dirty state (the fold ORs those).
 */
void __contpte_try_fold(struct mm_struct *mm, unsigned long addr,
			pte_t *ptep, pte_t pte)
{
	unsigned long folio_start, folio_end;
	unsigned long cont_start, cont_end;
	pte_t expected_pte, subpte;
	struct folio *folio;
	struct page *page;
	unsigned long pfn;
	pte_t *orig_ptep;
	pgprot_t prot;
	int i;

	if (!mm_is_user(mm))
		return;

	page = pte_page(pte);
	folio = page_folio(page);
	folio_start = addr - (page - &folio->page) * PAGE_SIZE;
	folio_end = folio_start + folio_nr_pages(folio) * PAGE_SIZE;
	cont_start = ALIGN_DOWN(addr, CONT_PTE_SIZE);
	cont_end = cont_start + CONT_PTE_SIZE;

	if (folio_start > cont_start || folio_end < cont_end)
		return;

	pfn = ALIGN_DOWN(pte_pfn(pte), CONT_PTES);
	prot = pte_pgprot(pte_mkold(pte_mkclean(pte)));
	expected_pte = pfn_pte(pfn, prot);
	orig_ptep = ptep;
	ptep = contpte_align_down(ptep);

	for (i = 0; i < CONT_PTES; i++) {
		subpte = pte_mkold(pte_mkclean(__ptep_get(ptep)));
		if (!pte_same(subpte, expected_pte))
			return;
		expected_pte = pte_advance_pfn(expected_pte, 1);
		ptep++;
	}

	pte = pte_mkcont(pte);
	contpte_convert(mm, addr, orig_ptep, pte);
}
EXPORT_SYMBOL_GPL(__contpte_try_fold);

void __contpte_try_unfold(struct mm_struct *mm, unsigned long addr,
			  pte_t *ptep, pte_t pte)
{
	if (!mm_is_user(mm))
		return;

	pte = pte_mknoncont(pte);
	contpte_convert(mm, addr, ptep, pte);
}
EXPORT_SYMBOL_GPL(__contpte_try_unfold);

/*
 * Under the PTL only the walker changes the run, and it only adds flags:
 * the OR read entry by entry is the run's state.  Stops once both flags
 * are known.
 */
pte_t contpte_ptep_get(pte_t *ptep, pte_t orig_pte)
{
	bool young = false, dirty = false;
	pte_t pte;
	int i;

	ptep = contpte_align_down(ptep);

	for (i = 0; i < CONT_PTES; i++, ptep++) {
		pte = __ptep_get(ptep);

		young |= pte_young(pte);
		dirty |= pte_dirty(pte);
		if (young && dirty)
			break;
	}

	if (young)
		orig_pte = pte_mkyoung(orig_pte);
	if (dirty)
		orig_pte = pte_mkdirty(orig_pte);
	return orig_pte;
}
EXPORT_SYMBOL_GPL(contpte_ptep_get);

static inline bool contpte_is_consistent(pte_t pte, unsigned long pfn,
					 pgprot_t orig_prot)
{
	pgprot_t prot = pte_pgprot(pte_mkold(pte_mkclean(pte)));

	return pte_valid_cont(pte) && pte_pfn(pte) == pfn &&
	       pgprot_val(prot) == pgprot_val(orig_prot);
}

/*
 * Without the PTL a fold or unfold may run under the reader: a pass counts
 * only if every entry it read belongs to one folded run (valid, CONT, the
 * next pfn, the same attributes).  Otherwise it starts again.
 */
pte_t contpte_ptep_get_lockless(pte_t *orig_ptep)
{
	bool young, dirty;
	pgprot_t orig_prot;
	unsigned long pfn;
	pte_t orig_pte;
	pte_t *ptep;
	pte_t pte;
	int i;

retry:
	orig_pte = __ptep_get(orig_ptep);

	if (!pte_valid_cont(orig_pte))
		return orig_pte;

	orig_prot = pte_pgprot(pte_mkold(pte_mkclean(orig_pte)));
	ptep = contpte_align_down(orig_ptep);
	pfn = pte_pfn(orig_pte) - (orig_ptep - ptep);
	young = dirty = false;

	for (i = 0; i < CONT_PTES; i++, ptep++, pfn++) {
		pte = __ptep_get(ptep);

		if (!contpte_is_consistent(pte, pfn, orig_prot))
			goto retry;

		young |= pte_young(pte);
		dirty |= pte_dirty(pte);
		if (young && dirty)
			break;
	}

	if (young)
		orig_pte = pte_mkyoung(orig_pte);
	if (dirty)
		orig_pte = pte_mkdirty(orig_pte);
	return orig_pte;
}
EXPORT_SYMBOL_GPL(contpte_ptep_get_lockless);

/*
 * The entries are not present (set_ptes' rule for nr > 1), so no run needs
 * break-before-make: CONT goes on every chunk that is a whole block with
 * its virtual and physical address aligned.
 */
void contpte_set_ptes(struct mm_struct *mm, unsigned long addr,
		      pte_t *ptep, pte_t pte, unsigned int nr)
{
	unsigned long next;
	unsigned long end;
	unsigned long pfn;
	pgprot_t prot;

	VM_WARN_ON(nr == 1);

	if (!mm_is_user(mm))
		return __set_ptes(mm, addr, ptep, pte, nr);

	end = addr + ((unsigned long)nr << PAGE_SHIFT);
	pfn = pte_pfn(pte);
	prot = pte_pgprot(pte);

	do {
		next = pte_cont_addr_end(addr, end);
		nr = (next - addr) >> PAGE_SHIFT;
		pte = pfn_pte(pfn, prot);

		if (((addr | next | (pfn << PAGE_SHIFT)) & ~CONT_PTE_MASK) == 0)
			pte = pte_mkcont(pte);
		else
			pte = pte_mknoncont(pte);

		__set_ptes(mm, addr, ptep, pte, nr);

		addr = next;
		ptep += nr;
		pfn += nr;
	} while (addr != end);
}
EXPORT_SYMBOL_GPL(contpte_set_ptes);

/*
 * A whole run may be cleared entry by entry without an unfold: each entry
 * is valid CONT or clear, and the caller flushes the TLB after the batch.
 */
void contpte_clear_full_ptes(struct mm_struct *mm, unsigned long addr,
			     pte_t *ptep, unsigned int nr, int full)
{
	contpte_try_unfold_partial(mm, addr, ptep, nr);
	__clear_full_ptes(mm, addr, ptep, nr, full);
}
EXPORT_SYMBOL_GPL(contpte_clear_full_ptes);

pte_t contpte_get_and_clear_full_ptes(struct mm_struct *mm,
				      unsigned long addr, pte_t *ptep,
				      unsigned int nr, int full)
{
	contpte_try_unfold_partial(mm, addr, ptep, nr);
	return __get_and_clear_full_ptes(mm, addr, ptep, nr, full);
}
EXPORT_SYMBOL_GPL(contpte_get_and_clear_full_ptes);

/*
 * Core-mm tracks access per folio and a run lies in one folio: clearing
 * young over the whole runs the batch touches answers for its pages
 * without an unfold.  Every entry is tested, so the answer is the OR over
 * all of them.
 */
bool contpte_test_and_clear_young_ptes(struct vm_area_struct *vma,
				       unsigned long addr, pte_t *ptep,
				       unsigned int nr)
{
	unsigned long end = addr + nr * PAGE_SIZE;
	bool young = false;

	ptep = contpte_align_addr_ptep(&addr, &end, ptep, nr);
	while (addr != end) {
		young |= __ptep_test_and_clear_young(vma, addr, ptep);
		addr += PAGE_SIZE;
		ptep++;
	}

	return young;
}
EXPORT_SYMBOL_GPL(contpte_test_and_clear_young_ptes);

/* Only a young answer is worth a flush, over the range the clear covered. */
bool contpte_clear_flush_young_ptes(struct vm_area_struct *vma,
				    unsigned long addr, pte_t *ptep,
				    unsigned int nr)
{
	bool young = contpte_test_and_clear_young_ptes(vma, addr, ptep, nr);

	if (young) {
		unsigned long end = addr + nr * PAGE_SIZE;

		contpte_align_addr_ptep(&addr, &end, ptep, nr);
		__flush_tlb_range(vma, addr, end, PAGE_SIZE, 3, TLBF_NOWALKCACHE | TLBF_NOSYNC);
	}

	return young;
}
EXPORT_SYMBOL_GPL(contpte_clear_flush_young_ptes);

/*
 * A whole run is wrprotected in place (the caller's flush makes it take
 * effect); a partly covered run must be unfolded, or its entries would
 * disagree on permissions under one CONT translation.
 */
void contpte_wrprotect_ptes(struct mm_struct *mm, unsigned long addr,
			    pte_t *ptep, unsigned int nr)
{
	contpte_try_unfold_partial(mm, addr, ptep, nr);
	__wrprotect_ptes(mm, addr, ptep, nr);
}
EXPORT_SYMBOL_GPL(contpte_wrprotect_ptes);

/*
 * No unfold is needed to clear access and dirty, and widening a partly
 * covered run to the whole of it is fine: core-mm tracks both per folio.
 */
void contpte_clear_young_dirty_ptes(struct vm_area_struct *vma,
				    unsigned long addr, pte_t *ptep,
				    unsigned int nr, cydp_t flags)
{
	unsigned long start = addr;
	unsigned long end = start + nr * PAGE_SIZE;

	ptep = contpte_align_addr_ptep(&start, &end, ptep, nr);
	__clear_young_dirty_ptes(vma, start, ptep, (end - start) / PAGE_SIZE, flags);
}
EXPORT_SYMBOL_GPL(contpte_clear_young_dirty_ptes);

/*
 * Nothing to do only if every entry of the run grants the access already:
 * a walker reads one entry, so one that lacks it would fault for ever.
 */
static bool contpte_all_subptes_match_access_flags(pte_t *ptep, pte_t entry)
{
	pte_t *cont_ptep = contpte_align_down(ptep);
	const pteval_t mask = PTE_RDONLY | PTE_AF | PTE_WRITE | PTE_DIRTY;
	pteval_t entry_access = pte_val(entry) & mask;
	int i;

	for (i = 0; i < CONT_PTES; i++) {
		pteval_t pte_access = pte_val(__ptep_get(cont_ptep + i)) & mask;

		if (pte_access != entry_access)
			return false;
	}

	return true;
}

/*
 * Access and dirty can be fixed in place on every entry; a change of write
 * permission needs an unfold.
 */
int contpte_ptep_set_access_flags(struct vm_area_struct *vma,
				  unsigned long addr, pte_t *ptep,
				  pte_t entry, int dirty)
{
	unsigned long start_addr;
	pte_t orig_pte;
	int i;

	if (contpte_all_subptes_match_access_flags(ptep, entry))
		return 0;

	orig_pte = pte_mknoncont(__ptep_get(ptep));

	if (pte_write(orig_pte) == pte_write(entry)) {
		ptep = contpte_align_down(ptep);
		start_addr = addr = ALIGN_DOWN(addr, CONT_PTE_SIZE);

		for (i = 0; i < CONT_PTES; i++, ptep++, addr += PAGE_SIZE)
			__ptep_set_access_flags(vma, addr, ptep, entry, 0);

		/* Only this CPU's stale translation would fault again. */
		if (dirty)
			local_flush_tlb_contpte(vma, start_addr);
	} else {
		__contpte_try_unfold(vma->vm_mm, addr, ptep, orig_pte);
		__ptep_set_access_flags(vma, addr, ptep, entry, dirty);
	}

	return 1;
}
EXPORT_SYMBOL_GPL(contpte_ptep_set_access_flags);
