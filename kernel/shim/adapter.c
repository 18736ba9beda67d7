/*
 * ptespec's side of a kernel tree's module: compiled with the tree's
 * contpte.c, against the same shims, once per granule.  It turns a model
 * call (an entry index, the call's arguments) into the tree's own public
 * function -- or, where the tree leaves a call to core-mm's generic
 * definition, into that definition -- and implements what the shims
 * declare on top of ptespec/host.h.
 */
#include <string.h>

#include <linux/mm.h>
#ifdef PTESPEC_TREE_HUGETLB
#include <linux/hugetlb.h>
#endif

_Thread_local const struct ptespec_binding *ptespec_cur;

#define host (ptespec_cur->host)

/* The kernel's own mm and the user mm every call runs in (shared by the model's threads). */
struct mm_struct init_mm = { 0 };
static struct mm_struct user_mm = { .ptespec_id = 1, .mm_users = { 2 }, .context = { .id = { PTESPEC_USER_ASID } } };
_Thread_local struct task_struct ptespec_task = { .mm = &user_mm, .active_mm = &user_mm };
static struct vm_area_struct user_vma = {
	.vm_mm = &user_mm,
	.vm_start = PTESPEC_VA_BASE,
	.vm_end = ~0UL,
};

static pte_t *ptep_of(size_t i)
{
	return (pte_t *)ptespec_cur->shadow + i;
}

/* Entry i maps 2^entry_shift bytes from PTESPEC_VA_BASE (a page in a pte table, a PMD block in a pmd table). */
static unsigned long addr_of(size_t i)
{
	return PTESPEC_VA_BASE + ((unsigned long)i << ptespec_cur->entry_shift);
}

static size_t index_of_addr(unsigned long addr)
{
	return (size_t)((long)(addr - PTESPEC_VA_BASE) >> ptespec_cur->entry_shift);
}

/* --- what the shims declare --- */

void ptespec_load(const volatile void *p, void *to, size_t size)
{
	if (ptespec_near_table(p, size)) {
		const u64 v = host->load(host->ctx, ptespec_index(p));

		memcpy(to, &v, sizeof(v));
		return;
	}
	memcpy(to, (const void *)p, size);
}

void ptespec_store(volatile void *p, const void *from, size_t size)
{
	if (ptespec_near_table(p, size)) {
		u64 v;

		memcpy(&v, from, sizeof(v));
		host->store(host->ctx, ptespec_index(p), v);
		return;
	}
	memcpy((void *)p, from, size);
}

u64 ptespec_xchg(volatile void *p, u64 v, size_t size)
{
	u64 old = 0;

	if (ptespec_near_table(p, size))
		return host->exchange(host->ctx, ptespec_index(p), v);
	memcpy(&old, (const void *)p, size);
	memcpy((void *)p, &v, size);
	return old;
}

u64 ptespec_cmpxchg(volatile void *p, u64 expected, u64 v, size_t size)
{
	u64 old = 0;

	if (ptespec_near_table(p, size))
		return host->compare_exchange(host->ctx, ptespec_index(p), expected, v);
	memcpy(&old, (const void *)p, size);
	if (old == expected)
		memcpy((void *)p, &v, size);
	return old;
}

void ptespec_flush_range(unsigned long start, unsigned long end, unsigned int flags)
{
	const unsigned long mask = (1UL << ptespec_cur->entry_shift) - 1;

	/* The entries the range touches any byte of. */
	host->flush(host->ctx, PTESPEC_FLUSH_RANGE, index_of_addr(start),
		    end > start ? index_of_addr(end + mask) - index_of_addr(start) : 0, flags);
}

void ptespec_flush_page(unsigned long addr, unsigned int flags)
{
	host->flush(host->ctx, PTESPEC_FLUSH_PAGE, index_of_addr(addr), 1, flags);
}

void ptespec_tlbi(const char *op, unsigned long long operand)
{
	host->tlbi(host->ctx, op, operand);
}

void ptespec_dsb(int option)
{
	(host->dsb)(host->ctx, option);	/* not the dsb() macro */
}

void ptespec_flush_all(unsigned int flags)
{
	host->flush(host->ctx, PTESPEC_FLUSH_ALL, 0, ptespec_cur->nr_entries, flags);
}

struct folio *ptespec_page_folio(const struct page *page)
{
	u64 first, nr;

	if (host->folio_of(host->ctx, page_to_pfn(page), &first, &nr))
		return (struct folio *)pfn_to_page(first);
	/* No folio holds it: a page on its own, as a folio of one. */
	return (struct folio *)page;
}

long ptespec_folio_nr_pages(const struct folio *folio)
{
	u64 first, nr;

	if (host->folio_of(host->ctx, page_to_pfn(&folio->page), &first, &nr) &&
	    first == page_to_pfn(&folio->page))
		return (long)nr;
	return 1;
}

void ptespec_warn(const char *file, int line, const char *condition, int fatal)
{
	host->warn(host->ctx, file, line, condition, fatal);
}

#ifdef PTESPEC_SYMBOLIC
/* The symbolic build's words (ptespec/word.h): every operation is the host's. */
uint64_t ptespec_word_lit(uint64_t value)
{
	return host->word_lit(host->ctx, value);
}

uint64_t ptespec_word_op(int op, uint64_t a, uint64_t b)
{
	return host->word_op(host->ctx, op, a, b);
}

int ptespec_word_decide(uint64_t truth)
{
	return host->word_decide(host->ctx, truth);
}

uint64_t ptespec_word_value(uint64_t word)
{
	return host->word_value(host->ctx, word);
}

void ptespec_word_pure(int enter)
{
	host->word_pure(host->ctx, enter);
}

int ptespec_word_rmw(int step, uint64_t truth)
{
	return host->word_rmw(host->ctx, step, truth);
}

uint64_t ptespec_word_ite(uint64_t cond, uint64_t a, uint64_t b)
{
	return host->word_ite(host->ctx, cond, a, b);
}
#endif

/*
 * --- what the rest of arch/arm64/mm gives the tree ---
 *
 * A tree's pgtable.h declares these and leaves them to fault.c, mmu.c and
 * flush.c, which ptespec does not take: ptespec's own definitions, from
 * the semantics.
 */

/* fault.c: raise AF, DIRTY and write permission as entry does, atomically.
 * A tree whose pgtable.h wraps it around the sized form gets that form; the
 * model's entries are pages, and any other pgsize fails loudly. */
#ifdef PTESPEC_TREE_SET_ACCESS_FLAGS_ANYSZ
int __ptep_set_access_flags_anysz(struct vm_area_struct *vma, unsigned long address, pte_t *ptep, pte_t entry,
				  int dirty, unsigned long pgsize)
#else
int __ptep_set_access_flags(struct vm_area_struct *vma, unsigned long address, pte_t *ptep, pte_t entry, int dirty)
#endif
{
	const pteval_t grant = PTE_RDONLY | PTE_AF | PTE_WRITE | PTE_DIRTY;
	pteval_t old, val, want;

#ifdef PTESPEC_TREE_SET_ACCESS_FLAGS_ANYSZ
	/* A block entry's size would need a flush ptespec does not model: say so. */
	BUG_ON(pgsize != PAGE_SIZE);
#endif

	old = pte_val(__ptep_get(ptep));
	/* Nothing to do when the entry already is what was asked (the tree's pte_same). */
	if (pte_same(__pte(old), entry))
		return 0;
	want = pte_val(entry) & grant;
	for (;;) {
		/* RDONLY stays only where both have it; the others are ORed in. */
		val = (old | (want & ~PTE_RDONLY)) & ~(PTE_RDONLY & ~(old & want));
		const pteval_t seen = cmpxchg_relaxed(&pte_val(*ptep), old, val);
		if (seen == old)
			break;
		old = seen;
	}
	if (dirty) {
#ifdef flush_tlb_fix_spurious_fault_pmd
		/* Since the tree fixes spurious faults locally, the writer invalidates only its own TLB. */
		ptespec_flush_page(address, PTESPEC_FLUSH_LOCAL | PTESPEC_FLUSH_LAST_LEVEL);
#else
		flush_tlb_page(vma, address);
#endif
	}
	return 1;
}

/* mmu.c: whether a live entry may change from old to new without break-before-make. */
bool pgattr_change_is_safe(pteval_t old, pteval_t to)
{
	pteval_t may_change = PTE_PXN | PTE_RDONLY | PTE_WRITE | PTE_NG;

	if (!(old & PTE_VALID) || !(to & PTE_VALID))
		return true;	/* making or removing a mapping */
	if (pte_pfn(__pte(old)) != pte_pfn(__pte(to)))
		return false;
	if ((old | to) & PTE_CONT)
		return false;
	if (old & ~to & PTE_NG)
		return false;	/* non-global to global */
#ifdef PTE_ATTRINDX_MASK
	{
		const pteval_t a = old & PTE_ATTRINDX_MASK, b = to & PTE_ATTRINDX_MASK;

		if ((a == PTE_ATTRINDX(MT_NORMAL) || a == PTE_ATTRINDX(MT_NORMAL_TAGGED)) &&
		    (b == PTE_ATTRINDX(MT_NORMAL) || b == PTE_ATTRINDX(MT_NORMAL_TAGGED)))
			may_change |= PTE_ATTRINDX_MASK;	/* tagged is a permission, not a type */
	}
#endif
	return ((old ^ to) & ~may_change) == 0;
}

/* flush.c: instruction-cache maintenance, nothing in the model. */
void __sync_icache_dcache(pte_t pte)
{
}

/*
 * --- the calls ---
 *
 * k_NAME runs the model's call NAME (ptespec/calls.h) with the parameters
 * its shapes give it (ptespec/host.h): the tree's own NAME where the tree
 * has one, else core-mm's generic definition.  The module's table of calls,
 * made from the list, takes every k_NAME: one that takes other parameters
 * does not compile.
 *
 * PTESPEC_TREE_CALL makes k_NAME the tree's own NAME(owner, address, pte
 * pointer, the call's arguments): owner is the mm or the vma the kernel
 * function takes first; a pte goes in and comes back as the tree's pte_t.
 */
#define PTESPEC_TREE_ARGS_entry
#define PTESPEC_TREE_ARGS_entry_full , full
#define PTESPEC_TREE_ARGS_entry_value_dirty , __pte(ptespec_from_host(entry)), dirty
#define PTESPEC_TREE_ARGS_batch , nr
#define PTESPEC_TREE_ARGS_batch_full , nr, full
#define PTESPEC_TREE_ARGS_batch_flags , nr, (cydp_t)flags
#define PTESPEC_TREE_ARGS_range , nr
#define PTESPEC_TREE_ARGS_range_value , __pte(ptespec_from_host(pte)), nr
#define PTESPEC_TREE_ANSWER_pte(call) return ptespec_to_host(pte_val(call))
#define PTESPEC_TREE_ANSWER_young(call) return call
#define PTESPEC_TREE_ANSWER_changed(call) return call
#define PTESPEC_TREE_ANSWER_none(call) call
#define PTESPEC_TREE_CALL(name, result, args, owner)                                                      \
	static PTESPEC_CALL_RESULT_##result k_##name PTESPEC_CALL_PARAMS_##args                           \
	{                                                                                                 \
		PTESPEC_TREE_ANSWER_##result(name(owner, addr_of(i), ptep_of(i) PTESPEC_TREE_ARGS_##args)); \
	}

PTESPEC_TREE_CALL(set_ptes, none, range_value, &user_mm)

static u64 k_ptep_get(size_t i)
{
	return ptespec_to_host(pte_val(ptep_get(ptep_of(i))));
}

#ifdef ptep_get_lockless
static u64 k_ptep_get_lockless(size_t i)
{
	return ptespec_to_host(pte_val(ptep_get_lockless(ptep_of(i))));
}
#define PTESPEC_LOCKLESS_ORIGIN "tree"
#else
/* Core-mm's generic definition: one READ_ONCE. */
static u64 k_ptep_get_lockless(size_t i)
{
	return ptespec_to_host(pte_val(ptep_get(ptep_of(i))));
}
#define PTESPEC_LOCKLESS_ORIGIN "ptespec"
#endif

PTESPEC_TREE_CALL(ptep_get_and_clear, pte, entry, &user_mm)

#ifdef __HAVE_ARCH_PTEP_GET_AND_CLEAR_FULL
PTESPEC_TREE_CALL(ptep_get_and_clear_full, pte, entry_full, &user_mm)
#define PTESPEC_GET_AND_CLEAR_FULL_ORIGIN "tree"
#else
/* Core-mm's generic definition: `full` is only a hint. */
static u64 k_ptep_get_and_clear_full(size_t i, int full)
{
	return k_ptep_get_and_clear(i);
}
#define PTESPEC_GET_AND_CLEAR_FULL_ORIGIN "ptespec"
#endif

#ifdef get_and_clear_full_ptes
PTESPEC_TREE_CALL(get_and_clear_full_ptes, pte, batch_full, &user_mm)
#define PTESPEC_GET_AND_CLEAR_FULL_PTES_ORIGIN "tree"
#else
/*
 * Core-mm's generic definition (before the tree had one, zap cleared
 * entry by entry): the first entry's value with every entry's flags.
 */
static u64 k_get_and_clear_full_ptes(size_t i, unsigned int nr, int full)
{
	pte_t pte = __pte(ptespec_from_host(k_ptep_get_and_clear_full(i, full))), tmp;
	unsigned int k;

	for (k = 1; k < nr; k++) {
		tmp = __pte(ptespec_from_host(k_ptep_get_and_clear_full(i + k, full)));
		if (pte_young(tmp))
			pte = pte_mkyoung(pte);
		if (pte_dirty(tmp))
			pte = pte_mkdirty(pte);
	}
	return ptespec_to_host(pte_val(pte));
}
#define PTESPEC_GET_AND_CLEAR_FULL_PTES_ORIGIN "ptespec"
#endif

#ifdef clear_full_ptes
PTESPEC_TREE_CALL(clear_full_ptes, none, batch_full, &user_mm)
#define PTESPEC_CLEAR_FULL_PTES_ORIGIN "tree"
#else
/* Core-mm's generic definition: one ptep_get_and_clear_full per entry. */
static void k_clear_full_ptes(size_t i, unsigned int nr, int full)
{
	unsigned int k;

	for (k = 0; k < nr; k++)
		k_ptep_get_and_clear_full(i + k, full);
}
#define PTESPEC_CLEAR_FULL_PTES_ORIGIN "ptespec"
#endif

#ifdef clear_non_present_ptes
PTESPEC_TREE_CALL(clear_non_present_ptes, none, range, &user_mm)
#define PTESPEC_CLEAR_NON_PRESENT_ORIGIN "tree"
#else
/* Core-mm's generic definition: one pte_clear per entry. */
static void k_clear_non_present_ptes(size_t i, unsigned int nr)
{
	unsigned int k;

	for (k = 0; k < nr; k++)
		pte_clear(&user_mm, addr_of(i + k), ptep_of(i + k));
}
#define PTESPEC_CLEAR_NON_PRESENT_ORIGIN "ptespec"
#endif

/* The one-entry young calls; a tree that keeps only the batched form (with an nr) gets nr = 1. */
#if defined(test_and_clear_young_ptes) && !defined(__HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG)
#define ptespec_test_young(vma, addr, ptep) test_and_clear_young_ptes(vma, addr, ptep, 1)
#else
#define ptespec_test_young(vma, addr, ptep) ptep_test_and_clear_young(vma, addr, ptep)
#endif
#if defined(clear_flush_young_ptes) && !defined(__HAVE_ARCH_PTEP_CLEAR_YOUNG_FLUSH)
#define ptespec_flush_young(vma, addr, ptep) clear_flush_young_ptes(vma, addr, ptep, 1)
#else
#define ptespec_flush_young(vma, addr, ptep) ptep_clear_flush_young(vma, addr, ptep)
#endif

static int k_ptep_test_and_clear_young(size_t i)
{
	return ptespec_test_young(&user_vma, addr_of(i), ptep_of(i));
}

static int k_ptep_clear_flush_young(size_t i)
{
	return ptespec_flush_young(&user_vma, addr_of(i), ptep_of(i));
}

/*
 * The batched young calls: the tree's own where it has them, else core-mm's
 * generic definition -- the one-entry call on every entry of the batch, the
 * answers ORed (none skipped once one is young).
 */
static inline int generic_young_ptes(size_t i, unsigned int nr, int (*one)(size_t))
{
	unsigned int k;
	int young = 0;

	for (k = 0; k < nr; k++)
		young |= one(i + k) != 0;
	return young;
}

#ifdef test_and_clear_young_ptes
PTESPEC_TREE_CALL(test_and_clear_young_ptes, young, batch, &user_vma)
#define PTESPEC_TEST_YOUNG_PTES_ORIGIN "tree"
#else
static int k_test_and_clear_young_ptes(size_t i, unsigned int nr)
{
	return generic_young_ptes(i, nr, k_ptep_test_and_clear_young);
}
#define PTESPEC_TEST_YOUNG_PTES_ORIGIN "ptespec"
#endif

#ifdef clear_flush_young_ptes
PTESPEC_TREE_CALL(clear_flush_young_ptes, young, batch, &user_vma)
#define PTESPEC_FLUSH_YOUNG_PTES_ORIGIN "tree"
#else
static int k_clear_flush_young_ptes(size_t i, unsigned int nr)
{
	return generic_young_ptes(i, nr, k_ptep_clear_flush_young);
}
#define PTESPEC_FLUSH_YOUNG_PTES_ORIGIN "ptespec"
#endif

#ifdef modify_prot_start_ptes
/*
 * mmu.c: mprotect's transaction over a folio batch.  Start takes the batch
 * out as get_and_clear_ptes does (a batched get-and-clear without full: the
 * tree's own, or core-mm's loop for a tree without it) and returns the first
 * entry with the batch's young and dirty; commit writes the new value with
 * the tree's set_ptes.  The model's CPU has no Cortex-A510 erratum 2645198,
 * so start flushes nothing.
 */
pte_t modify_prot_start_ptes(struct vm_area_struct *vma, unsigned long addr, pte_t *ptep, unsigned int nr)
{
	return __pte(ptespec_from_host(k_get_and_clear_full_ptes((size_t)(ptep - ptep_of(0)), nr, 0)));
}

void modify_prot_commit_ptes(struct vm_area_struct *vma, unsigned long addr, pte_t *ptep, pte_t old_pte, pte_t pte,
			     unsigned int nr)
{
	set_ptes(vma->vm_mm, addr, ptep, pte, nr);
}

static u64 k_modify_prot_start_ptes(size_t i, unsigned int nr)
{
	return ptespec_to_host(pte_val(modify_prot_start_ptes(&user_vma, addr_of(i), ptep_of(i), nr)));
}

static void k_modify_prot_commit_ptes(size_t i, u64 pte, unsigned int nr)
{
	modify_prot_commit_ptes(&user_vma, addr_of(i), ptep_of(i), __pte(0), __pte(ptespec_from_host(pte)), nr);
}
#define PTESPEC_MODIFY_PROT_ORIGIN "ptespec (mmu.c's, over get_and_clear_full_ptes and the tree's set_ptes)"
#else
/*
 * Core-mm's generic definitions: ptep_modify_prot_start, which is
 * ptep_get_and_clear, on each entry, the flags ORed into the first value;
 * ptep_modify_prot_commit, a set_pte_at, on each entry.
 */
static u64 k_modify_prot_start_ptes(size_t i, unsigned int nr)
{
	pte_t pte = __pte(ptespec_from_host(k_ptep_get_and_clear(i))), tmp;
	unsigned int k;

	for (k = 1; k < nr; k++) {
		tmp = __pte(ptespec_from_host(k_ptep_get_and_clear(i + k)));
		if (pte_young(tmp))
			pte = pte_mkyoung(pte);
		if (pte_dirty(tmp))
			pte = pte_mkdirty(pte);
	}
	return ptespec_to_host(pte_val(pte));
}

static void k_modify_prot_commit_ptes(size_t i, u64 pte, unsigned int nr)
{
	unsigned int k;

	for (k = 0; k < nr; k++)
		k_set_ptes(i + k, ptespec_to_host(pte_val(pte_advance_pfn(__pte(ptespec_from_host(pte)), k))), 1);
}
#define PTESPEC_MODIFY_PROT_ORIGIN "ptespec"
#endif

#ifdef PTESPEC_TREE_HUGETLB
/*
 * The hugetlb calls: the tree's arch/arm64/mm/hugetlbpage.c.  A call
 * carries its hugepage's size in pages; the tree reads it from the vma's
 * hstate (hstate_vma) or from its sz argument, and finds the entries from
 * the pointer for the calls that take neither (the walk of
 * linux/hugetlb.h: in a pte table a pte, so a CONT_PTE run; in a pmd table
 * the pmd slot itself, so a CONT_PMD run).  A call's hugepage comes as its
 * entries in the table.
 */
_Thread_local struct hstate ptespec_hstate;
unsigned long ptespec_upper_slots[4];

pmd_t *ptespec_pmd_slot(unsigned long addr)
{
	if (ptespec_cur->entry_shift != PAGE_SHIFT)
		return (pmd_t *)ptep_of(index_of_addr(addr));
	return (pmd_t *)&ptespec_upper_slots[3];
}
static struct vm_area_struct huge_vma = {
	.vm_mm = &user_mm,
	.vm_start = PTESPEC_VA_BASE,
	.vm_end = ~0UL,
	.vm_flags = VM_HUGETLB,
};

static unsigned long huge_size(unsigned int entries)
{
	const unsigned long size = (unsigned long)entries << ptespec_cur->entry_shift;

	ptespec_hstate.order = (unsigned int)__builtin_ctzl(size >> PAGE_SHIFT);
	return size;
}

static u64 k_huge_ptep_get(size_t i)
{
	return ptespec_to_host(pte_val(huge_ptep_get(&user_mm, addr_of(i), ptep_of(i))));
}

static u64 k_huge_ptep_get_and_clear(size_t i, unsigned int entries)
{
	const unsigned long sz = huge_size(entries);

	return ptespec_to_host(pte_val(huge_ptep_get_and_clear(&user_mm, addr_of(i), ptep_of(i), sz)));
}

static u64 k_huge_ptep_clear_flush(size_t i, unsigned int entries)
{
	huge_size(entries);
	return ptespec_to_host(pte_val(huge_ptep_clear_flush(&huge_vma, addr_of(i), ptep_of(i))));
}

static void k_set_huge_pte_at(size_t i, u64 pte, unsigned int entries)
{
	set_huge_pte_at(&user_mm, addr_of(i), ptep_of(i), __pte(ptespec_from_host(pte)), huge_size(entries));
}

static void k_huge_pte_clear(size_t i, unsigned int entries)
{
	huge_pte_clear(&user_mm, addr_of(i), ptep_of(i), huge_size(entries));
}

static int k_huge_ptep_set_access_flags(size_t i, u64 pte, int dirty, unsigned int entries)
{
	huge_size(entries);
	return huge_ptep_set_access_flags(&huge_vma, addr_of(i), ptep_of(i), __pte(ptespec_from_host(pte)), dirty);
}

static void k_huge_ptep_set_wrprotect(size_t i, unsigned int entries)
{
	huge_size(entries);
	huge_ptep_set_wrprotect(&user_mm, addr_of(i), ptep_of(i));
}

static u64 k_huge_ptep_modify_prot_start(size_t i, unsigned int entries)
{
	huge_size(entries);
	return ptespec_to_host(pte_val(huge_ptep_modify_prot_start(&huge_vma, addr_of(i), ptep_of(i))));
}

static void k_huge_ptep_modify_prot_commit(size_t i, u64 pte, unsigned int entries)
{
	huge_size(entries);
	huge_ptep_modify_prot_commit(&huge_vma, addr_of(i), ptep_of(i), __pte(0), __pte(ptespec_from_host(pte)));
}

/* The tree's asm/hugetlb.h's, where it has one; else core-mm's generic flush_tlb_range. */
static void k_flush_hugetlb_tlb_range(size_t i, unsigned int nr, unsigned int entries)
{
	huge_size(entries);
	flush_hugetlb_tlb_range(&huge_vma, addr_of(i), addr_of(i + nr));
}
#ifdef __HAVE_ARCH_FLUSH_HUGETLB_TLB_RANGE
#define PTESPEC_FLUSH_HUGETLB_ORIGIN "tree (its asm/hugetlb.h)"
#else
#define PTESPEC_FLUSH_HUGETLB_ORIGIN "ptespec (core-mm's generic: flush_tlb_range)"
#endif
#define PTESPEC_HUGETLB_ORIGIN "tree"
#else
/*
 * The hugetlb calls: a tree without arch/arm64/mm/hugetlbpage.c, or the
 * symbolic build (the proofs do not take them), has none of them (a null
 * entry is a call the tree does not implement).
 */
#define k_huge_ptep_get NULL
#define k_huge_ptep_get_and_clear NULL
#define k_huge_ptep_clear_flush NULL
#define k_set_huge_pte_at NULL
#define k_huge_pte_clear NULL
#define k_huge_ptep_set_access_flags NULL
#define k_huge_ptep_set_wrprotect NULL
#define k_huge_ptep_modify_prot_start NULL
#define k_huge_ptep_modify_prot_commit NULL
#define k_flush_hugetlb_tlb_range NULL
#endif

/* A tree without these leaves the calls out: strategies need not have every call. */
#ifdef wrprotect_ptes
PTESPEC_TREE_CALL(wrprotect_ptes, none, batch, &user_mm)
#else
#define k_wrprotect_ptes NULL
#endif

#ifdef clear_young_dirty_ptes
PTESPEC_TREE_CALL(clear_young_dirty_ptes, none, batch_flags, &user_vma)
#else
#define k_clear_young_dirty_ptes NULL
#endif

PTESPEC_TREE_CALL(ptep_set_access_flags, changed, entry_value_dirty, &user_vma)

#if defined(PTESPEC_SYMBOLIC)
/* The hint runs between calls on concrete words: the C build's. */
#define PTESPEC_BATCH_HINT_ORIGIN "tree"
#elif defined(pte_batch_hint)
static unsigned int k_pte_batch_hint(const u64 *table, size_t i, u64 pte)
{
	return pte_batch_hint((pte_t *)table + i, __pte(pte));
}
#define PTESPEC_BATCH_HINT_ORIGIN "tree"
#else
/* Core-mm's generic pte_batch_hint: no entry vouches for another. */
static unsigned int k_pte_batch_hint(const u64 *table, size_t i, u64 pte)
{
	return 1;
}
#define PTESPEC_BATCH_HINT_ORIGIN "ptespec (core-mm's generic: 1)"
#endif

/*
 * The model's fold and unfold calls name a run by any page of it; the
 * tree folds from the run's last entry, as set_ptes does.
 */
static void k_contpte_try_fold(size_t i)
{
	const size_t last = i - i % CONT_PTES + CONT_PTES - 1;

	contpte_try_fold(&user_mm, addr_of(last), ptep_of(last), __ptep_get(ptep_of(last)));
}

static void k_contpte_try_unfold(size_t i)
{
	contpte_try_unfold(&user_mm, addr_of(i), ptep_of(i), __ptep_get(ptep_of(i)));
}

static const struct ptespec_binding *bind(const struct ptespec_binding *b)
{
	const struct ptespec_binding *prev = ptespec_cur;

	ptespec_cur = b;
	return prev;
}

static const struct ptespec_function_origin origins[] = {
	{ "set_ptes", "tree" },
	{ "ptep_get", "tree" },
	{ "ptep_get_lockless", PTESPEC_LOCKLESS_ORIGIN },
	{ "ptep_get_and_clear", "tree" },
	{ "ptep_get_and_clear_full", PTESPEC_GET_AND_CLEAR_FULL_ORIGIN },
	{ "get_and_clear_full_ptes", PTESPEC_GET_AND_CLEAR_FULL_PTES_ORIGIN },
	{ "clear_full_ptes", PTESPEC_CLEAR_FULL_PTES_ORIGIN },
	{ "clear_non_present_ptes", PTESPEC_CLEAR_NON_PRESENT_ORIGIN },
	{ "pte_clear", "tree" },
	{ "ptep_test_and_clear_young", "tree" },
	{ "ptep_clear_flush_young", "tree" },
	{ "test_and_clear_young_ptes", PTESPEC_TEST_YOUNG_PTES_ORIGIN },
	{ "clear_flush_young_ptes", PTESPEC_FLUSH_YOUNG_PTES_ORIGIN },
	{ "modify_prot_start_ptes, modify_prot_commit_ptes", PTESPEC_MODIFY_PROT_ORIGIN },
#ifdef wrprotect_ptes
	{ "wrprotect_ptes", "tree" },
#endif
#ifdef clear_young_dirty_ptes
	{ "clear_young_dirty_ptes", "tree" },
#endif
	{ "ptep_set_access_flags", "tree" },
#ifdef PTESPEC_HUGETLB_ORIGIN
	{ "huge_ptep_get, huge_ptep_get_and_clear, huge_ptep_clear_flush, set_huge_pte_at, huge_pte_clear, "
	  "huge_ptep_set_access_flags, huge_ptep_set_wrprotect, huge_ptep_modify_prot_start/commit",
	  "tree (its hugetlbpage.c)" },
	{ "flush_hugetlb_tlb_range", PTESPEC_FLUSH_HUGETLB_ORIGIN },
#endif
	{ "contpte_try_fold", "tree" },
	{ "contpte_try_unfold", "tree" },
	{ "pte_batch_hint", PTESPEC_BATCH_HINT_ORIGIN },
	{ "__ptep_get, __set_pte, __ptep_get_and_clear, the CMPXCHG loops", "tree" },
	{ "__ptep_set_access_flags, pgattr_change_is_safe", "ptespec (fault.c's and mmu.c's), where the tree leaves them to those files" },
	{ "READ_ONCE, WRITE_ONCE, xchg, cmpxchg on a pte", "ptespec (the machine's primitives)" },
#ifdef PTESPEC_TREE_TLBFLUSH
	{ "TLB invalidation (__flush_tlb_range, flush_tlb_page, ...)", "tree (its asm/tlbflush.h: each TLBI and DSB reaches the machine's TLB model)" },
#else
	{ "TLB invalidation (__flush_tlb_range, flush_tlb_page, ...)", "ptespec (the machine's TLB model)" },
#endif
	{ "pte_page, page_folio, folio_nr_pages", "ptespec (the world's folios)" },
};

#ifdef __cplusplus
extern "C"
#endif
__attribute__((visibility("default"))) const struct ptespec_kernel_module *ptespec_kernel_module(void)
{
	static const struct ptespec_kernel_module m = {
		.abi = PTESPEC_KERNEL_ABI,
#ifdef PTESPEC_SYMBOLIC
		.symbolic = 1,
#endif
		.page_shift = PAGE_SHIFT,
		.cont_ptes = CONT_PTES,
#ifndef PTESPEC_SYMBOLIC
		/* The symbolic build's words are handles, made only during a call. */
		.bits = { PTE_VALID, PTE_USER, PTE_RDONLY, PTE_SHARED, PTE_AF, PTE_NG, PTE_WRITE, PTE_CONT,
			  PTE_PXN, PTE_UXN, PTE_DIRTY, PTE_SPECIAL },
		.bit_names = { "PTE_VALID", "PTE_USER", "PTE_RDONLY", "PTE_SHARED", "PTE_AF", "PTE_NG",
			       "PTE_WRITE", "PTE_CONT", "PTE_PXN", "PTE_UXN", "PTE_DIRTY", "PTE_SPECIAL" },
		.nr_bits = 12,
#endif
		.bind = bind,
		.calls = {
#define PTESPEC_CALL_ENTRY(name, result, args) .name = k_##name,
			PTESPEC_CALLS(PTESPEC_CALL_ENTRY)
#undef PTESPEC_CALL_ENTRY
		},
#ifndef PTESPEC_SYMBOLIC
		.pte_batch_hint = k_pte_batch_hint,
#endif
		.origins = origins,
		.nr_origins = sizeof(origins) / sizeof(origins[0]),
	};
	return &m;
}
