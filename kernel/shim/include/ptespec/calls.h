/*
 * The arch calls ptespec knows, in one list: the model's call kinds
 * (model/call.h), the strategies' dispatch (impl/adapter.h), the kernel
 * module's table of the tree's functions (host.h, adapter.c) and the
 * host's side of it (kernel/module.cpp) are all made from it.  Plain C,
 * read by the module (C, or C++ in the symbolic build) and by ptespec.
 *
 * PTESPEC_CALLS(X) gives X(name, result, args) once per call, in the
 * order of the call kinds; name is the kernel function's.
 *
 * result: what the call returns
 *   pte      a pte_t
 *   young    whether an entry it cleared was young
 *   changed  whether it changed the entry (ptep_set_access_flags)
 *   none     nothing
 *
 * args: what the call takes besides the mm or vma and the address, in the
 * kernel's order
 *   entry              the one entry i
 *   entry_full         the one entry i and full
 *   entry_value_dirty  the one entry i, the value whose access it grants, and dirty
 *   batch              nr present entries from i mapping consecutive pages of one folio
 *   batch_full         a batch and full (the caller will clear every entry)
 *   batch_flags        a batch and CYDP_* flags
 *   range              nr entries from i, whatever they hold
 *   range_value        nr entries from i and the value written into them, the pfn advancing
 *   huge               the hugepage whose first entry is i, and its size in pages (the kernel's sz)
 *   huge_value         a hugepage and the value written into it
 *   huge_value_dirty   a hugepage, the value whose access it grants, and dirty
 *   huge_range         nr entries from i, and the size in pages of the hugepages they hold
 *
 * The young calls come one entry at a time, for the callers that test one
 * page, and over a folio batch, as core-mm's reclaim makes them since the
 * batch API.  mprotect's transaction over a folio batch: start takes the
 * entries out and returns the first with the OR of their young and dirty;
 * the caller applies the new protection to that value and commit writes it
 * back into the nr entries.  (The kernel's commit also takes the old value,
 * which arm64 and core-mm's generic commit ignore: the call carries the new
 * value only.)
 *
 * The hugetlb calls (arch/arm64/mm/hugetlbpage.c) take a whole hugepage:
 * for a CONT_PTE hugepage, the run of CONT_PTES entries from i (the kernel
 * passes its size, and arm64 finds the entries from it).
 * flush_hugetlb_tlb_range (asm/hugetlb.h) invalidates the translations of
 * a range of hugepages, as hugetlb's mprotect does at its end.
 */
#ifndef PTESPEC_CALLS_H
#define PTESPEC_CALLS_H

#define PTESPEC_CALLS(X)                                         \
	X(set_ptes, none, range_value)                           \
	X(ptep_get, pte, entry)                                  \
	X(ptep_get_lockless, pte, entry)                         \
	X(ptep_get_and_clear, pte, entry)                        \
	X(ptep_get_and_clear_full, pte, entry_full)              \
	X(get_and_clear_full_ptes, pte, batch_full)              \
	X(clear_full_ptes, none, batch_full)                     \
	X(clear_non_present_ptes, none, range)                   \
	X(ptep_test_and_clear_young, young, entry)               \
	X(ptep_clear_flush_young, young, entry)                  \
	X(wrprotect_ptes, none, batch)                           \
	X(clear_young_dirty_ptes, none, batch_flags)             \
	X(ptep_set_access_flags, changed, entry_value_dirty)     \
	X(contpte_try_fold, none, entry)                         \
	X(contpte_try_unfold, none, entry)                       \
	X(test_and_clear_young_ptes, young, batch)               \
	X(clear_flush_young_ptes, young, batch)                  \
	X(modify_prot_start_ptes, pte, batch)                    \
	X(modify_prot_commit_ptes, none, range_value)            \
	X(huge_ptep_get, pte, entry)                             \
	X(huge_ptep_get_and_clear, pte, huge)                    \
	X(huge_ptep_clear_flush, pte, huge)                      \
	X(set_huge_pte_at, none, huge_value)                     \
	X(huge_pte_clear, none, huge)                            \
	X(huge_ptep_set_access_flags, changed, huge_value_dirty) \
	X(huge_ptep_set_wrprotect, none, huge)                   \
	X(huge_ptep_modify_prot_start, pte, huge)                \
	X(huge_ptep_modify_prot_commit, none, huge_value)        \
	X(flush_hugetlb_tlb_range, none, huge_range)

#endif /* PTESPEC_CALLS_H */
