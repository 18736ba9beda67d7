/*
 * The one boundary between a kernel tree's contpte code and ptespec.
 *
 * A tree's arch/arm64/mm/contpte.c and asm/pgtable.h are compiled, as they
 * are, against the shim headers beside this one, together with ptespec's
 * adapter (kernel/shim/adapter.c), into a module ptespec loads.  Every
 * access the tree makes to a pte -- READ_ONCE, WRITE_ONCE, xchg, cmpxchg --
 * and every TLB invalidation arrives here, as an index into the page table
 * of ptespec's machine; so does every question about struct page and folio,
 * every WARN and BUG, every CPU feature test.  Nothing in the tree touches
 * the machine's table directly: the pte pointers it computes with point
 * into a shadow array that is never read.
 *
 * Plain C, read by the module (C) and by ptespec (C++).  Raise
 * PTESPEC_KERNEL_ABI with any change to a struct below, but for the table
 * of calls, which follows the list of calls (calls.h): the list is part of
 * every module's cache key, so no module built with another one is loaded.
 */
#ifndef PTESPEC_HOST_H
#define PTESPEC_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "calls.h"

#define PTESPEC_KERNEL_ABI 8

/* A pte pointer, an address and a struct page pointer as the tree sees them. */
#define PTESPEC_VA_BASE 0x0000010000000000UL	/* aligned to every block size */
#define PTESPEC_VMEMMAP 0x0000200000000000UL	/* struct page array: only addresses, never read */
/* The ASID of the user mm the calls are made on (ASID(mm)); the kernel's is 0. */
#define PTESPEC_USER_ASID 0x2a

enum ptespec_flush_kind {
	PTESPEC_FLUSH_PAGE,	/* one page */
	PTESPEC_FLUSH_RANGE,	/* [first, first + nr) */
	PTESPEC_FLUSH_ALL,	/* the whole address space */
};

/*
 * A DSB's option (dsb(ish), dsb(nshst), ...).  Only a DSB of loads and
 * stores (not ST, not LD) waits for the TLB maintenance before it: one of
 * the inner or outer shareable domain or the full system for every TLBI,
 * one of the non-shareable domain for this CPU's own.
 */
enum ptespec_dsb {
	PTESPEC_DSB_sy, PTESPEC_DSB_st, PTESPEC_DSB_ld,
	PTESPEC_DSB_ish, PTESPEC_DSB_ishst, PTESPEC_DSB_ishld,
	PTESPEC_DSB_nsh, PTESPEC_DSB_nshst, PTESPEC_DSB_nshld,
	PTESPEC_DSB_osh, PTESPEC_DSB_oshst, PTESPEC_DSB_oshld,
};

/* Flags of a flush: how the tree asked for it. */
#define PTESPEC_FLUSH_NOSYNC 1u	/* no DSB after the TLBIs (the caller syncs later) */
#define PTESPEC_FLUSH_LAST_LEVEL 2u	/* leaf entries only */
#define PTESPEC_FLUSH_LOCAL 4u	/* this CPU only */
/* The hints: the TTL level named (0..3; none when absent), and log2 of the stride in pages. */
#define PTESPEC_FLUSH_LEVEL(l) ((8u | ((unsigned int)(l) & 3u)) << 4)
#define PTESPEC_FLUSH_LEVEL_OF(f) (((f) & (8u << 4)) ? (int)(((f) >> 4) & 3u) : -1)
#define PTESPEC_FLUSH_STRIDE(s) (((unsigned int)(s) & 63u) << 8)
#define PTESPEC_FLUSH_STRIDE_OF(f) (((f) >> 8) & 63u)

/*
 * The operations of the symbolic build (ptespec/word.h) on word and truth
 * handles.  The comparisons and the logical ones give a truth handle; the
 * others a word handle.  Words
 * are unsigned 64-bit, shifts logical, as pteval_t is in the kernel.
 */
enum ptespec_word_ops {
	PTESPEC_OP_AND,
	PTESPEC_OP_OR,
	PTESPEC_OP_XOR,
	PTESPEC_OP_NOT,	/* of a; b is ignored */
	PTESPEC_OP_ADD,
	PTESPEC_OP_SUB,
	PTESPEC_OP_MUL,
	PTESPEC_OP_UDIV,
	PTESPEC_OP_UREM,
	PTESPEC_OP_SHL,
	PTESPEC_OP_LSHR,
	PTESPEC_OP_EQ,
	PTESPEC_OP_NE,
	PTESPEC_OP_ULT,
	PTESPEC_OP_ULE,
	PTESPEC_OP_UGT,
	PTESPEC_OP_UGE,
	/* On truth handles: not (of a), and, or, xor -- both sides evaluated (no C operator short-circuits these). */
	PTESPEC_OP_LNOT,
	PTESPEC_OP_LAND,
	PTESPEC_OP_LOR,
	PTESPEC_OP_LXOR,
};

enum ptespec_feature {
	PTESPEC_FEATURE_BBML2_NOABORT,	/* system_supports_bbml2_noabort() */
	PTESPEC_FEATURE_HAFDBS,	/* hardware access flag and dirty state */
	PTESPEC_FEATURE_MTE,
	PTESPEC_FEATURE_GCS,
	PTESPEC_FEATURE_TLB_RANGE,	/* system_supports_tlb_range(): TLBI by range (FEAT_TLBIRANGE) */
	PTESPEC_FEATURE_TTL,	/* FEAT_TTL: a TLBI's level hint is taken */
	PTESPEC_FEATURE_NR,
};

/*
 * What ptespec provides.  `ctx` is handed back to every function.  The
 * functions may not return (an entry outside the table, a livelock, a fatal
 * BUG): the module is built with unwind tables for that.
 */
struct ptespec_host {
	void *ctx;
	uint64_t (*load)(void *ctx, size_t index);
	void (*store)(void *ctx, size_t index, uint64_t value);
	uint64_t (*exchange)(void *ctx, size_t index, uint64_t value);
	/* A cmpxchg: stores desired if the entry holds expected; returns the old value. */
	uint64_t (*compare_exchange)(void *ctx, size_t index, uint64_t expected, uint64_t desired);
	void (*flush)(void *ctx, int kind, size_t first, size_t nr, unsigned flags);
	/*
	 * A tree's own asm/tlbflush.h: a TLBI instruction, named as the tree
	 * writes it ("vale1is", "rvae1is", "aside1is", ...), with its operand
	 * (0 for those that take none), and a DSB (enum ptespec_dsb).
	 */
	void (*tlbi)(void *ctx, const char *op, uint64_t operand);
	void (*dsb)(void *ctx, int option);
	/* The folio holding pfn: 1 and its extent, or 0 when no folio does. */
	int (*folio_of)(void *ctx, uint64_t pfn, uint64_t *first_pfn, uint64_t *nr_pages);
	/* A WARN_ON or VM_WARN_ON (fatal 0) or a BUG_ON (fatal 1) that fired. */
	void (*warn)(void *ctx, const char *file, int line, const char *condition, int fatal);
	int features[PTESPEC_FEATURE_NR];
	/*
	 * The symbolic build only (a module whose `symbolic` is set): every
	 * pte word above and below -- what load returns, what store, exchange
	 * and compare_exchange take, a call's pte argument and result -- is a
	 * handle these hand out.  lit: the handle of a constant; op: of an
	 * operation (enum ptespec_word_ops); decide: the side this path takes
	 * on a truth handle; value: the value this path gives a word.  decide
	 * and value may not return (a path the host abandons).
	 */
	uint64_t (*word_lit)(void *ctx, uint64_t value);
	uint64_t (*word_op)(void *ctx, int op, uint64_t a, uint64_t b);
	int (*word_decide)(void *ctx, uint64_t truth);
	uint64_t (*word_value)(void *ctx, uint64_t word);
	/*
	 * The symbolic build computes some values on both sides of a C
	 * decision: the right side of `a && b` or `a || b` of two truths, and
	 * an if-converted assignment's value.  pure(ctx, 1) and pure(ctx, 0)
	 * bracket such a value; a primitive or a WARN inside ends the path
	 * undecided, before it happens (C might not have reached it).
	 */
	void (*word_pure)(void *ctx, int enter);
	/* cond ? a : b on a truth and two words or two truths (an if-converted statement). */
	uint64_t (*word_ite)(void *ctx, uint64_t cond, uint64_t a, uint64_t b);
	/*
	 * A read-modify-write loop the symbolic build marked (kernel/rmw_loop.h):
	 * step 0 at the top of each iteration (returns 0), step 1 with the
	 * loop's test, `truth`: whether to go round again.
	 */
	int (*word_rmw)(void *ctx, int step, uint64_t truth);
};

/* One call's view of the table: the host fills it before each call. */
struct ptespec_binding {
	const struct ptespec_host *host;
	/* Aligned to a run: the pte pointers the tree sees.  The host allocates
	 * nr_entries more before it and after it (see ptespec_near_table). */
	uint64_t *shadow;
	size_t nr_entries;
	/* log2 of the bytes an entry maps: PAGE_SHIFT in a pte table, PMD_SHIFT
	 * in a pmd table of PMD blocks (hugetlb's CONT_PMD hugepages). */
	unsigned int entry_shift;
};

/*
 * A call of PTESPEC_CALLS as the module exports it: the result's C type
 * and the parameters after the entry index, by the list's shapes (calls.h).
 * Words are uint64_t (handles in the symbolic build), truths int.
 */
#define PTESPEC_CALL_RESULT_pte uint64_t
#define PTESPEC_CALL_RESULT_young int
#define PTESPEC_CALL_RESULT_changed int
#define PTESPEC_CALL_RESULT_none void
#define PTESPEC_CALL_PARAMS_entry (size_t i)
#define PTESPEC_CALL_PARAMS_entry_full (size_t i, int full)
#define PTESPEC_CALL_PARAMS_entry_value_dirty (size_t i, uint64_t entry, int dirty)
#define PTESPEC_CALL_PARAMS_batch (size_t i, unsigned int nr)
#define PTESPEC_CALL_PARAMS_batch_full (size_t i, unsigned int nr, int full)
#define PTESPEC_CALL_PARAMS_batch_flags (size_t i, unsigned int nr, unsigned int flags)
#define PTESPEC_CALL_PARAMS_range (size_t i, unsigned int nr)
#define PTESPEC_CALL_PARAMS_range_value (size_t i, uint64_t pte, unsigned int nr)
#define PTESPEC_CALL_PARAMS_huge (size_t i, unsigned int entries)
#define PTESPEC_CALL_PARAMS_huge_value (size_t i, uint64_t pte, unsigned int entries)
#define PTESPEC_CALL_PARAMS_huge_value_dirty (size_t i, uint64_t pte, int dirty, unsigned int entries)
#define PTESPEC_CALL_PARAMS_huge_range (size_t i, unsigned int nr, unsigned int entries)

/* The calls ptespec makes, by index, in the list's order; each is the tree's own function. */
struct ptespec_kernel_calls {
#define PTESPEC_CALL_POINTER(name, result, args) PTESPEC_CALL_RESULT_##result (*name) PTESPEC_CALL_PARAMS_##args;
	PTESPEC_CALLS(PTESPEC_CALL_POINTER)
#undef PTESPEC_CALL_POINTER
};

/* Where a function the calls reach came from. */
struct ptespec_function_origin {
	const char *name;
	const char *origin;	/* "tree" or "ptespec" (a shim or core-mm's generic definition) */
};

/* What the module hands back (ptespec_kernel_module()). */
struct ptespec_kernel_module {
	int abi;	/* PTESPEC_KERNEL_ABI */
	int symbolic;	/* built with PTESPEC_SYMBOLIC: words are the host's handles */
	unsigned int page_shift;
	unsigned int cont_ptes;
	/* The tree's own bit definitions, which ptespec checks against its model (none in the symbolic build). */
	uint64_t bits[16];
	const char *bit_names[16];
	unsigned int nr_bits;
	/* Makes b the calling thread's binding; returns the one it replaces. */
	const struct ptespec_binding *(*bind)(const struct ptespec_binding *b);
	struct ptespec_kernel_calls calls;
	/*
	 * The tree's pte_batch_hint (core-mm's generic 1 when it has none) for
	 * entry i of a table at `table`, aligned to a run, holding pte.  Called
	 * between calls, with no binding: it must read no entry (arm64's reads
	 * only the pointer's bits).  Null in the symbolic build.
	 */
	unsigned int (*pte_batch_hint)(const uint64_t *table, size_t i, uint64_t pte);
	const struct ptespec_function_origin *origins;
	unsigned int nr_origins;
};

#define PTESPEC_KERNEL_ENTRY_NAME "ptespec_kernel_module"

#endif /* PTESPEC_HOST_H */
