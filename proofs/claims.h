// The claims of one call of a step/, seq/ or lockless/ obligation: what
// the checker judges of it, stated over symbolic tables (call_claims), and
// the rules core-mm keeps for what it passes the call (caller_rules).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <z3++.h>

#include "model/call.h"
#include "model/geometry.h"
#include "model/history.h"
#include "proofs/ledger.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// Both flags the same.
z3::expr flags_equal(const sym_flags& a, const sym_flags& b);

// Whether valid words a and b map pages of one folio, as the checker keys
// folios: a pfn in no declared folio is a folio of its own.
z3::expr same_folio(const std::vector<folio_extent>& folios, const geometry& geo, const z3::expr& a,
		    const z3::expr& b);

// The checker's ledger at a call boundary, per page: the flags a report
// must include (pending) and those it may include besides (optional).
struct ledger_state {
	std::vector<sym_flags> pending, optional;
};

// The ledger the invariant reads off table t: every flag the reference read
// shows is pending, nothing optional.
ledger_state read_off(const std::vector<z3::expr>& t, const geometry& geo);

// What core-mm guarantees about the entries it passes to call c, over the
// symbolic table t, and about the value v it passes (set_ptes, the mprotect
// commit, ptep_set_access_flags): the rules a strategy may rely on.
//   a clear of one entry, a one-entry young test: the entry is present;
//   a batch clear, fork's wrprotect, mprotect's start, reclaim's and
//     MADV_FREE's young/dirty clears: present entries mapping consecutive
//     pages of one folio with the same attributes (folio_pte_batch's rule,
//     flags aside); fork's, entries that grant write (PTE_WRITE);
//     MADV_FREE's, all of its folio (a folio it maps in part is split
//     first, or left alone);
//   clear_non_present_ptes: non-present entries, none of them none;
//   set_ptes: none entries (a fault maps over none; reclaim and migration
//     put a swap entry where they cleared one), and a value that maps the
//     range's pages -- valid, without CONT (a protection has none), write
//     only through DBM, its nr pages inside one folio when nr > 1 (one
//     page may be a page of no folio: a special mapping) -- or, for one
//     entry, a swap entry or marker;
//   modify_prot_commit_ptes: the entries its start cleared (none), and the
//     start's value under the new protection: present -- valid and
//     writable only through DBM, or PROT_NONE without PTE_WRITE (pte_modify
//     takes it from the protection, which has none) -- its nr pages inside one
//     folio; CONT as the start's gathered value had it (pte_modify keeps
//     it), so free;
//   ptep_set_access_flags: a valid entry, and the value a fault made of
//     what it read there (ptep_get: the run's OR for a CONT entry) and
//     found unchanged under the table lock -- the same page and
//     attributes, CONT as read, young; a read fault (flags 0) keeps the
//     entry's write permission and is dirty only if the read was; a write
//     fault (flags 1) asks for write and dirty (pte_mkdirty, and
//     pte_mkwrite when do_wp_page reuses the page): DBM set, RDONLY clear,
//     software dirty set; no fault takes write away;
//   a read, a fold or an unfold test: nothing;
//   a hugetlb call (the hugetlb callers, mm/hugetlb_callers.h): the table
//     is a hugetlb VMA's, every CONT_PTE hugepage of it none, one
//     non-present value in every entry, or its hugetlb folio's pages with
//     CONT (valid or PROT_NONE, one set of attributes and write
//     permission, young and dirty per entry); huge_ptep_get_and_clear takes
//     any but none (unmap, mremap), huge_ptep_clear_flush and mprotect's
//     start a present one, huge_pte_clear a non-present one, fork's
//     wrprotect a valid writable one; set_huge_pte_at writes over a
//     hugepage that is not present (none, or a migration entry it
//     replaces) a value of its folio with CONT or a non-present one;
//     mprotect's commit over none, a present such value; a fault's
//     huge_ptep_set_access_flags as ptep_set_access_flags' rule says.
z3::expr caller_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
		      const geometry& geo, const std::optional<z3::expr>& value);

// What one call of a step/ or seq/ obligation must satisfy (prove_step's
// comment, families/step.cpp), given the ledger at its begin; `invariant`
// adds the parts of the invariant no property judges (step/ only: they are
// what makes its tables every reachable one); `reportable_of_folio` asks
// (reportable) of the page's folio too (claims.cpp, claim_reportable).
// Returns the ledger at the call's end.
ledger_state call_claims(const sym_step& st, const sym_world& w, const ledger_state& at_begin, bool invariant,
			 std::vector<claim>& claims, bool reportable_of_folio = true);

} // namespace ptespec::proofs
