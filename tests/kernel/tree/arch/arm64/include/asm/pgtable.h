/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Level-3 page table entries for the ptespec test tree: the helpers on a
 * pte value, the unfolded __ptep_* primitives, and (under
 * CONFIG_ARM64_CONTPTE) the public API core-mm calls, which hides the
 * contiguous bit from it.  Written for ptespec's tests from the semantics
 * of its builtin mainline strategy; shaped like the kernel's header so that
 * ptespec's shims take it the way they take a real tree's.
 */
#ifndef __ASM_PGTABLE_H
#define __ASM_PGTABLE_H

#include <asm/bug.h>
#include <asm/proc-fns.h>

#include <asm/memory.h>
#include <asm/mte.h>
#include <asm/pgtable-hwdef.h>
#include <asm/pgtable-prot.h>
#include <asm/tlbflush.h>

#ifndef __ASSEMBLY__

#include <asm/cmpxchg.h>
#include <linux/mmdebug.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/page_table_check.h>

/* --- a pte value --- */

#define __pte_to_phys(pte)	(pte_val(pte) & PTE_ADDR_LOW)
#define __phys_to_pte_val(phys)	(phys)

#define pte_pfn(pte)		(__pte_to_phys(pte) >> PAGE_SHIFT)
#define pfn_pte(pfn, prot)	\
	__pte(__phys_to_pte_val((phys_addr_t)(pfn) << PAGE_SHIFT) | pgprot_val(prot))

#define pte_none(pte)		(!pte_val(pte))
#define pte_page(pte)		(pfn_to_page(pte_pfn(pte)))

#define pte_valid(pte)		(!!(pte_val(pte) & PTE_VALID))
#define pte_present_invalid(pte) \
	((pte_val(pte) & (PTE_VALID | PTE_PRESENT_INVALID)) == PTE_PRESENT_INVALID)
#define pte_present(pte)	(pte_valid(pte) || pte_present_invalid(pte))
#define pte_young(pte)		(!!(pte_val(pte) & PTE_AF))
#define pte_special(pte)	(!!(pte_val(pte) & PTE_SPECIAL))
#define pte_write(pte)		(!!(pte_val(pte) & PTE_WRITE))
#define pte_rdonly(pte)		(!!(pte_val(pte) & PTE_RDONLY))
#define pte_cont(pte)		(!!(pte_val(pte) & PTE_CONT))
#define pte_valid_cont(pte)	(pte_valid(pte) && pte_cont(pte))

/* Writable and not read-only: the walker has written through it. */
#define pte_hw_dirty(pte)	(pte_write(pte) && !pte_rdonly(pte))
#define pte_sw_dirty(pte)	(!!(pte_val(pte) & PTE_DIRTY))
#define pte_dirty(pte)		(pte_sw_dirty(pte) || pte_hw_dirty(pte))

static inline pte_t clear_pte_bit(pte_t pte, pgprot_t prot)
{
	pte_val(pte) &= ~pgprot_val(prot);
	return pte;
}

static inline pte_t set_pte_bit(pte_t pte, pgprot_t prot)
{
	pte_val(pte) |= pgprot_val(prot);
	return pte;
}

static inline pte_t pte_mkwrite_novma(pte_t pte)
{
	pte = set_pte_bit(pte, __pgprot(PTE_WRITE));
	if (pte_sw_dirty(pte))
		pte = clear_pte_bit(pte, __pgprot(PTE_RDONLY));
	return pte;
}

/* Clean: read-only to the walker, so its next write faults or sets DBM's dirty. */
static inline pte_t pte_mkclean(pte_t pte)
{
	pte = clear_pte_bit(pte, __pgprot(PTE_DIRTY));
	pte = set_pte_bit(pte, __pgprot(PTE_RDONLY));
	return pte;
}

static inline pte_t pte_mkdirty(pte_t pte)
{
	pte = set_pte_bit(pte, __pgprot(PTE_DIRTY));
	if (pte_write(pte))
		pte = clear_pte_bit(pte, __pgprot(PTE_RDONLY));
	return pte;
}

/* Hardware dirty moves to the software bit before write permission goes. */
static inline pte_t pte_wrprotect(pte_t pte)
{
	if (pte_hw_dirty(pte))
		pte = set_pte_bit(pte, __pgprot(PTE_DIRTY));
	pte = clear_pte_bit(pte, __pgprot(PTE_WRITE));
	pte = set_pte_bit(pte, __pgprot(PTE_RDONLY));
	return pte;
}

static inline pte_t pte_mkold(pte_t pte)
{
	return clear_pte_bit(pte, __pgprot(PTE_AF));
}

static inline pte_t pte_mkyoung(pte_t pte)
{
	return set_pte_bit(pte, __pgprot(PTE_AF));
}

static inline pte_t pte_mkcont(pte_t pte)
{
	return set_pte_bit(pte, __pgprot(PTE_CONT));
}

static inline pte_t pte_mknoncont(pte_t pte)
{
	return clear_pte_bit(pte, __pgprot(PTE_CONT));
}

/* Everything but the output address. */
static inline pgprot_t pte_pgprot(pte_t pte)
{
	return __pgprot(pte_val(pte) & ~PTE_ADDR_LOW);
}

#define pte_advance_pfn pte_advance_pfn
static inline pte_t pte_advance_pfn(pte_t pte, unsigned long nr)
{
	return pfn_pte(pte_pfn(pte) + nr, pte_pgprot(pte));
}

/*
 * No pte_same of arm64's own: the generic one compares whole values.  An
 * entry that differs from what a fault asks only in RDONLY is still
 * read-only to the walker, so calling it "the same" would leave the fault
 * to repeat forever.
 */

/* The end of the block holding addr, or end if that comes first. */
#define pte_cont_addr_end(addr, end)						\
({	unsigned long __boundary = ((addr) + CONT_PTE_SIZE) & CONT_PTE_MASK;	\
	(__boundary - 1 < (end) - 1) ? __boundary : (end);			\
})

/* --- the unfolded primitives: one entry each, nothing of runs --- */

static inline pte_t __ptep_get(pte_t *ptep)
{
	return READ_ONCE(*ptep);
}

static inline void __set_pte(pte_t *ptep, pte_t pte)
{
	WRITE_ONCE(*ptep, pte);
}

static inline void __set_ptes(struct mm_struct *mm, unsigned long addr,
			      pte_t *ptep, pte_t pte, unsigned int nr)
{
	page_table_check_ptes_set(mm, ptep, pte, nr);
	for (;;) {
		__set_pte(ptep, pte);
		if (--nr == 0)
			break;
		ptep++;
		pte = pte_advance_pfn(pte, 1);
	}
}

static inline void __pte_clear(struct mm_struct *mm, unsigned long addr,
			       pte_t *ptep)
{
	__set_pte(ptep, __pte(0));
}

static inline pte_t __ptep_get_and_clear(struct mm_struct *mm,
					 unsigned long address, pte_t *ptep)
{
	pte_t pte = __pte(xchg_relaxed(&pte_val(*ptep), 0));

	page_table_check_pte_clear(mm, pte);
	return pte;
}

static inline void __clear_full_ptes(struct mm_struct *mm, unsigned long addr,
				     pte_t *ptep, unsigned int nr, int full)
{
	for (;;) {
		__ptep_get_and_clear(mm, addr, ptep);
		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

static inline pte_t __get_and_clear_full_ptes(struct mm_struct *mm,
					      unsigned long addr, pte_t *ptep,
					      unsigned int nr, int full)
{
	pte_t pte, tmp_pte;

	pte = __ptep_get_and_clear(mm, addr, ptep);
	while (--nr) {
		ptep++;
		addr += PAGE_SIZE;
		tmp_pte = __ptep_get_and_clear(mm, addr, ptep);
		if (pte_dirty(tmp_pte))
			pte = pte_mkdirty(pte);
		if (pte_young(tmp_pte))
			pte = pte_mkyoung(pte);
	}
	return pte;
}

/* A CMPXCHG loop: a racing walker's update is never undone. */
static inline int __ptep_test_and_clear_young(struct vm_area_struct *vma,
					      unsigned long address, pte_t *ptep)
{
	pte_t old_pte, pte;

	pte = __ptep_get(ptep);
	do {
		old_pte = pte;
		pte = pte_mkold(pte);
		pte_val(pte) = cmpxchg_relaxed(&pte_val(*ptep),
					       pte_val(old_pte), pte_val(pte));
	} while (pte_val(pte) != pte_val(old_pte));

	return pte_young(pte);
}

/*
 * A CPU may go on using the stale young entry until its next context
 * switch, which reclaim tolerates: only a young entry is worth the flush.
 */
static inline int __ptep_clear_flush_young(struct vm_area_struct *vma,
					   unsigned long address, pte_t *ptep)
{
	int young = __ptep_test_and_clear_young(vma, address, ptep);

	if (young)
		flush_tlb_page_nosync(vma, address);

	return young;
}

/*
 * A fault through another CPU's stale, less permissive translation finds
 * the entry already as asked: that CPU drops its own entry and retries,
 * so whoever raises permissions need only flush its own TLB.
 */
#define flush_tlb_fix_spurious_fault(vma, address, ptep) \
	local_flush_tlb_page_nonotify(vma, address)
#define flush_tlb_fix_spurious_fault_pmd(vma, address, pmdp) \
	local_flush_tlb_page_nonotify(vma, address)

static inline void __ptep_set_wrprotect(struct mm_struct *mm,
					unsigned long address, pte_t *ptep)
{
	pte_t old_pte, pte;

	pte = __ptep_get(ptep);
	do {
		old_pte = pte;
		pte = pte_wrprotect(pte);
		pte_val(pte) = cmpxchg_relaxed(&pte_val(*ptep),
					       pte_val(old_pte), pte_val(pte));
	} while (pte_val(pte) != pte_val(old_pte));
}

static inline void __wrprotect_ptes(struct mm_struct *mm, unsigned long address,
				    pte_t *ptep, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++, address += PAGE_SIZE, ptep++)
		__ptep_set_wrprotect(mm, address, ptep);
}

static inline void __clear_young_dirty_pte(struct vm_area_struct *vma,
					   unsigned long addr, pte_t *ptep,
					   pte_t pte, cydp_t flags)
{
	pte_t old_pte;

	do {
		old_pte = pte;

		if (flags & CYDP_CLEAR_YOUNG)
			pte = pte_mkold(pte);
		if (flags & CYDP_CLEAR_DIRTY)
			pte = pte_mkclean(pte);

		pte_val(pte) = cmpxchg_relaxed(&pte_val(*ptep),
					       pte_val(old_pte), pte_val(pte));
	} while (pte_val(pte) != pte_val(old_pte));
}

static inline void __clear_young_dirty_ptes(struct vm_area_struct *vma,
					    unsigned long addr, pte_t *ptep,
					    unsigned int nr, cydp_t flags)
{
	pte_t pte;

	for (;;) {
		pte = __ptep_get(ptep);

		/*
		 * Both flags consumed: a walker's update racing the read is
		 * ordered before this call, so a plain store loses nothing.
		 */
		if (flags == (CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY))
			__set_pte(ptep, pte_mkclean(pte_mkold(pte)));
		else
			__clear_young_dirty_pte(vma, addr, ptep, pte, flags);

		if (--nr == 0)
			break;
		ptep++;
		addr += PAGE_SIZE;
	}
}

/*
 * Grants AF, DIRTY and WRITE as entry does, and read-only only if both
 * were (arch/arm64/mm/fault.c, which ptespec provides).
 */
extern int __ptep_set_access_flags(struct vm_area_struct *vma,
				   unsigned long address, pte_t *ptep,
				   pte_t entry, int dirty);

#ifdef CONFIG_ARM64_CONTPTE

/*
 * The contpte API: core-mm never sees PTE_CONT.  The helpers are in
 * arch/arm64/mm/contpte.c.
 */
extern void __contpte_try_fold(struct mm_struct *mm, unsigned long addr,
			       pte_t *ptep, pte_t pte);
extern void __contpte_try_unfold(struct mm_struct *mm, unsigned long addr,
				 pte_t *ptep, pte_t pte);
extern pte_t contpte_ptep_get(pte_t *ptep, pte_t orig_pte);
extern pte_t contpte_ptep_get_lockless(pte_t *orig_ptep);
extern void contpte_set_ptes(struct mm_struct *mm, unsigned long addr,
			     pte_t *ptep, pte_t pte, unsigned int nr);
extern void contpte_clear_full_ptes(struct mm_struct *mm, unsigned long addr,
				    pte_t *ptep, unsigned int nr, int full);
extern pte_t contpte_get_and_clear_full_ptes(struct mm_struct *mm,
					     unsigned long addr, pte_t *ptep,
					     unsigned int nr, int full);
extern bool contpte_test_and_clear_young_ptes(struct vm_area_struct *vma,
					      unsigned long addr, pte_t *ptep,
					      unsigned int nr);
extern bool contpte_clear_flush_young_ptes(struct vm_area_struct *vma,
					   unsigned long addr, pte_t *ptep,
					   unsigned int nr);
extern void contpte_wrprotect_ptes(struct mm_struct *mm, unsigned long addr,
				   pte_t *ptep, unsigned int nr);
extern void contpte_clear_young_dirty_ptes(struct vm_area_struct *vma,
					   unsigned long addr, pte_t *ptep,
					   unsigned int nr, cydp_t flags);
extern int contpte_ptep_set_access_flags(struct vm_area_struct *vma,
					 unsigned long addr, pte_t *ptep,
					 pte_t entry, int dirty);

/*
 * Only the last entry of a run tries to fold: core-mm maps low to high, so
 * that is when the run is likely complete.  The virtual and the physical
 * address must both sit at the end of a block.
 */
static __always_inline void contpte_try_fold(struct mm_struct *mm,
					     unsigned long addr, pte_t *ptep,
					     pte_t pte)
{
	const unsigned long contmask = CONT_PTES - 1;
	bool valign = ((addr >> PAGE_SHIFT) & contmask) == contmask;

	if (unlikely(valign)) {
		bool palign = (pte_pfn(pte) & contmask) == contmask;

		/* Special mappings have no folio to prove the run is one. */
		if (unlikely(palign && pte_valid(pte) && !pte_cont(pte) &&
			     !pte_special(pte)))
			__contpte_try_fold(mm, addr, ptep, pte);
	}
}

static __always_inline void contpte_try_unfold(struct mm_struct *mm,
					       unsigned long addr, pte_t *ptep,
					       pte_t pte)
{
	if (unlikely(pte_valid_cont(pte)))
		__contpte_try_unfold(mm, addr, ptep, pte);
}

/*
 * A valid CONT entry speaks for the rest of its run: those entries map the
 * following pages alike, so core-mm's batching need not read them.  The
 * page table is aligned, so the pointer's low bits give the place in the
 * run.
 */
#define pte_batch_hint pte_batch_hint
static inline unsigned int pte_batch_hint(pte_t *ptep, pte_t pte)
{
	unsigned long slot = ((unsigned long)ptep / sizeof(pte_t)) % CONT_PTES;

	return pte_valid_cont(pte) ? CONT_PTES - slot : 1;
}

#define ptep_get ptep_get
static inline pte_t ptep_get(pte_t *ptep)
{
	pte_t pte = __ptep_get(ptep);

	if (likely(!pte_valid_cont(pte)))
		return pte;

	return contpte_ptep_get(ptep, pte);
}

#define ptep_get_lockless ptep_get_lockless
static inline pte_t ptep_get_lockless(pte_t *ptep)
{
	pte_t pte = __ptep_get(ptep);

	if (likely(!pte_valid_cont(pte)))
		return pte;

	return contpte_ptep_get_lockless(ptep);
}

/*
 * nr > 1 maps pages of one folio over entries that are not present, so
 * nothing needs unfolding first; nr == 1 may land on a folded run.
 */
#define set_ptes set_ptes
static __always_inline void set_ptes(struct mm_struct *mm, unsigned long addr,
				     pte_t *ptep, pte_t pte, unsigned int nr)
{
	pte = pte_mknoncont(pte);

	if (likely(nr == 1)) {
		contpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));
		__set_ptes(mm, addr, ptep, pte, 1);
		contpte_try_fold(mm, addr, ptep, pte);
	} else {
		contpte_set_ptes(mm, addr, ptep, pte, nr);
	}
}

/*
 * A valid CONT entry is unfolded before it is cleared, as for every
 * one-entry setter.  Core-mm passes entries no run holds (swap entries,
 * markers), for which the unfold does nothing.
 */
static inline void pte_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	contpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));
	__pte_clear(mm, addr, ptep);
}

#define __HAVE_ARCH_PTEP_GET_AND_CLEAR
static inline pte_t ptep_get_and_clear(struct mm_struct *mm,
				       unsigned long addr, pte_t *ptep)
{
	contpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));
	return __ptep_get_and_clear(mm, addr, ptep);
}

#define get_and_clear_full_ptes get_and_clear_full_ptes
static inline pte_t get_and_clear_full_ptes(struct mm_struct *mm,
					    unsigned long addr, pte_t *ptep,
					    unsigned int nr, int full)
{
	pte_t pte;

	if (likely(nr == 1)) {
		contpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));
		pte = __get_and_clear_full_ptes(mm, addr, ptep, nr, full);
	} else {
		pte = contpte_get_and_clear_full_ptes(mm, addr, ptep, nr, full);
	}

	return pte;
}

#define clear_full_ptes clear_full_ptes
static inline void clear_full_ptes(struct mm_struct *mm, unsigned long addr,
				   pte_t *ptep, unsigned int nr, int full)
{
	if (likely(nr == 1)) {
		contpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));
		__clear_full_ptes(mm, addr, ptep, nr, full);
	} else {
		contpte_clear_full_ptes(mm, addr, ptep, nr, full);
	}
}

/*
 * The batch's entries are present (core-mm found them as a folio batch), so
 * PTE_CONT alone says whether a run is involved.
 */
#define test_and_clear_young_ptes test_and_clear_young_ptes
static inline bool test_and_clear_young_ptes(struct vm_area_struct *vma,
					     unsigned long addr, pte_t *ptep,
					     unsigned int nr)
{
	if (likely(nr == 1 && !pte_cont(__ptep_get(ptep))))
		return __ptep_test_and_clear_young(vma, addr, ptep);

	return contpte_test_and_clear_young_ptes(vma, addr, ptep, nr);
}

#define __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG
static inline bool ptep_test_and_clear_young(struct vm_area_struct *vma,
					     unsigned long addr, pte_t *ptep)
{
	return test_and_clear_young_ptes(vma, addr, ptep, 1);
}

#define __HAVE_ARCH_PTEP_CLEAR_YOUNG_FLUSH
static inline bool ptep_clear_flush_young(struct vm_area_struct *vma,
					  unsigned long addr, pte_t *ptep)
{
	pte_t orig_pte = __ptep_get(ptep);

	if (likely(!pte_valid_cont(orig_pte)))
		return __ptep_clear_flush_young(vma, addr, ptep);

	return contpte_clear_flush_young_ptes(vma, addr, ptep, 1);
}

#define clear_flush_young_ptes clear_flush_young_ptes
static inline bool clear_flush_young_ptes(struct vm_area_struct *vma,
					  unsigned long addr, pte_t *ptep,
					  unsigned int nr)
{
	if (likely(nr == 1 && !pte_cont(__ptep_get(ptep))))
		return __ptep_clear_flush_young(vma, addr, ptep);

	return contpte_clear_flush_young_ptes(vma, addr, ptep, nr);
}

#define wrprotect_ptes wrprotect_ptes
static __always_inline void wrprotect_ptes(struct mm_struct *mm,
					   unsigned long addr, pte_t *ptep,
					   unsigned int nr)
{
	if (likely(nr == 1)) {
		/*
		 * Fork's order-0 path: only present entries are wrprotected,
		 * so CONT alone says whether the run must be unfolded.
		 */
		pte_t orig_pte = __ptep_get(ptep);

		if (pte_cont(orig_pte))
			__contpte_try_unfold(mm, addr, ptep, orig_pte);
		__ptep_set_wrprotect(mm, addr, ptep);
	} else {
		contpte_wrprotect_ptes(mm, addr, ptep, nr);
	}
}

#define __HAVE_ARCH_PTEP_SET_WRPROTECT
static inline void ptep_set_wrprotect(struct mm_struct *mm,
				      unsigned long addr, pte_t *ptep)
{
	wrprotect_ptes(mm, addr, ptep, 1);
}

#define clear_young_dirty_ptes clear_young_dirty_ptes
static inline void clear_young_dirty_ptes(struct vm_area_struct *vma,
					  unsigned long addr, pte_t *ptep,
					  unsigned int nr, cydp_t flags)
{
	if (likely(nr == 1 && !pte_cont(__ptep_get(ptep))))
		__clear_young_dirty_ptes(vma, addr, ptep, nr, flags);
	else
		contpte_clear_young_dirty_ptes(vma, addr, ptep, nr, flags);
}

#define __HAVE_ARCH_PTEP_SET_ACCESS_FLAGS
static inline int ptep_set_access_flags(struct vm_area_struct *vma,
					unsigned long addr, pte_t *ptep,
					pte_t entry, int dirty)
{
	pte_t orig_pte = __ptep_get(ptep);

	entry = pte_mknoncont(entry);

	if (likely(!pte_valid_cont(orig_pte)))
		return __ptep_set_access_flags(vma, addr, ptep, entry, dirty);

	return contpte_ptep_set_access_flags(vma, addr, ptep, entry, dirty);
}

#endif /* CONFIG_ARM64_CONTPTE */

/*
 * mprotect's transaction over a folio batch, left to mm/mmu.c: start takes
 * the batch out and returns the first entry with the batch's access and
 * dirty; commit writes the new entry over the batch.
 */
#define modify_prot_start_ptes modify_prot_start_ptes
extern pte_t modify_prot_start_ptes(struct vm_area_struct *vma,
				    unsigned long addr, pte_t *ptep,
				    unsigned int nr);
extern void modify_prot_commit_ptes(struct vm_area_struct *vma,
				    unsigned long addr, pte_t *ptep,
				    pte_t old_pte, pte_t pte, unsigned int nr);

#endif /* !__ASSEMBLY__ */

#endif /* __ASM_PGTABLE_H */
