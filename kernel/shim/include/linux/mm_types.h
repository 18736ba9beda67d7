/*
 * Shim: the structs the contpte code is handed.  A page and a folio are
 * addresses in the PTESPEC_VMEMMAP array (a folio overlays its first page,
 * as in the kernel); mm and vma carry nothing the tree reads but vm_mm
 * and the mm's user count and ASID.
 */
#ifndef PTESPEC_SHIM_MM_TYPES_H
#define PTESPEC_SHIM_MM_TYPES_H

#include <linux/atomic.h>
#include <asm/mmu.h>

struct page {
	unsigned long flags;
	unsigned long ptespec_unused[7];
};

struct folio {
	union {
		struct {
			unsigned long flags;
		};
		struct page page;
	};
};

struct mm_struct {
	unsigned long ptespec_id;	/* 1: the user mm ptespec's calls use */
	atomic_t mm_users;	/* more than one: the model's threads share it */
	mm_context_t context;	/* its ASID, for a tree's own TLB maintenance */
};

struct vm_fault;
typedef unsigned long vm_flags_t;

struct vm_area_struct {
	struct mm_struct *vm_mm;
	unsigned long vm_start;
	unsigned long vm_end;
	vm_flags_t vm_flags;
};

extern struct mm_struct init_mm;

/* No call of the model runs while its mm has a batched TLB flush pending
 * (pte_accessible asks): the callers that defer theirs flush before the
 * next call. */
static inline bool mm_tlb_flush_pending(struct mm_struct *mm)
{
	return false;
}

/* What clear_young_dirty_ptes is asked to clear. */
typedef unsigned int cydp_t;
#define CYDP_CLEAR_YOUNG ((cydp_t)BIT(0))
#define CYDP_CLEAR_DIRTY ((cydp_t)BIT(1))

#endif
