// The invariant of reachable tables: what every table the callers can
// reach satisfies between two calls, stated once over symbolic words.  The
// step/ obligations start from any table that satisfies it and prove that
// a call leaves one that does again, so the invariant holds by induction
// over every sequence of the calls they cover (the empty table satisfies
// it), and each property they claim holds for every such call.
//
// A table of whole runs satisfies it when
//   (shape)   each run is well formed at a call boundary, as the checker
//             judges it: if some valid entry of the run has CONT, then
//             every valid entry has it and all of them map one naturally
//             aligned block of pfns at their offsets, with the same
//             attributes and the same write permission (the same DBM bit,
//             and without DBM the same RDONLY: only DBM lets hardware make
//             one entry of a run writable);
//   (whole)   ... and every entry of such a run is valid: no call leaves a
//             folded run with some entries cleared.  A strategy that clears
//             CONT entries without unfolding under a full teardown (as the
//             thread's proposals did) leaves such runs mid-exit; the
//             checker allows them (only the rest of the teardown meets
//             them), but this invariant does not: for such a strategy it is
//             not inductive, and the step/ obligations say so (unknown);
//   (folio)   a run with a valid CONT entry maps pages of one folio: the
//             checker counts an event that lands in a CONT entry for the
//             valid pages of its run in the landing page's folio, the
//             proofs' ledger for every valid page of the run;
//   (ledger)  every access/dirty event the checker still holds pending for
//             a mapped page is visible to the reference read of that page
//             (ref_flags: the entry's own flags, or its run's OR when valid
//             and CONT),
//             so the pending flags of a state are a function of its table.
//   (reportable) ... and, the other way, every flag the reference read of
//             a mapped page shows is pending or optional for that page
//             itself (a report of it is true): a call that consumed a flag
//             must not leave it showing.  With (ledger), the ledger read off
//             the table (all shown flags pending, none optional) asks at
//             least as much as the checker's of per-call and no-loss, and
//             allows no more for precise.  Claimed at each call's end by
//             the step/ obligations (claim_reportable), not assumed.
//   (dbm)     a valid entry grants write only through DBM: RDONLY is set
//             unless PTE_WRITE is.  arm64 builds every user protection so
//             (pte_mkwrite sets PTE_WRITE, pte_wrprotect clears it and sets
//             RDONLY), and only DBM lets hardware clear RDONLY.  The fold
//             compares entries with RDONLY masked (pte_mkclean sets it),
//             which is right only among such entries.  A PROT_NONE entry
//             has no PTE_WRITE (pte_modify takes it from PAGE_NONE);
//   (none block) the PROT_NONE entries of a run that have CONT map, at
//             their offsets, one naturally aligned block of pfns inside
//             one folio: contpte_set_ptes sets CONT only so, on a whole run
//             (an mprotect commit of it), and nothing but a store of the
//             entry takes it away.  The run's other entries may be
//             anything (a zap may have cleared some, a fault mapped another
//             folio there since): a PROT_NONE run with CONT is not "whole".
// Nothing else is assumed: any entry may be none, non-present (a swap or
// marker entry) with any bits, PROT_NONE (present, not valid: mprotect's,
// with CONT or without, any pfn, any flags -- its own, which hardware never
// changes and every call that takes the entry must report), or valid
// mapping any pfn with any attributes and flags.  Which folio a pfn belongs to is the world's folio layout,
// chosen per case.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/geometry.h"
#include "model/history.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// (shape) for the run that starts at entry `first` of t.  `with_write`:
// its valid entries agree on write permission too, which the checker asks
// at a call's end only (in the middle of a call a run is repainted entry
// by entry, wrprotect_ptes' included); without it, what the checker asks
// after every store of a valid value.
z3::expr run_well_formed(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first,
			 bool with_write = true);

// (shape) for every run of t.
z3::expr runs_well_formed(const std::vector<z3::expr>& t, const geometry& geo);

// (whole) for the run that starts at entry `first` of t.
z3::expr run_whole(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first);

// (folio) for the run that starts at entry `first` of t.
z3::expr run_in_one_folio(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first,
			  const std::vector<folio_extent>& folios);

// (dbm) for the run that starts at entry `first` of t.
z3::expr run_writable_by_dbm(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first);

// (none block) for the run that starts at entry `first` of t.
z3::expr run_prot_none_block(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first,
			     const std::vector<folio_extent>& folios);

// A table of `runs` runs whose entries are free words, assumed to satisfy
// (shape), (whole), (folio), (dbm) and (none block), over the folio layout `folios`.  (ledger) is not an assumption:
// an obligation takes the pending flags to be ref_flags of the table.
sym_world invariant_table(z3::context& ctx, granule g, std::size_t runs, std::vector<folio_extent> folios);
// The same over a table of geometry geo (a pte table, or the pmd table of
// CONT_PMD hugepages).
sym_world invariant_table(z3::context& ctx, const geometry& geo, std::size_t runs, std::vector<folio_extent> folios);

// The folios a step/ obligation's pfns may fall in, for runs of c entries:
// since every pfn is free, one layout offers every shape at once -- a folio
// of two runs, one of a run, a run's worth split into two folios of half a
// run, single pages, and a folio of two runs shifted off CONT alignment
// physically.  A pfn outside every folio is a page with no folio (a
// special mapping).
// entry_pages: the pages one entry maps (PMD blocks in a pmd table).
std::vector<folio_extent> folio_layout(std::size_t c, std::uint64_t entry_pages = 1);

// The invariant over a concrete table of whole runs: which part fails, or ""
// when it holds.
std::string invariant_broken(z3::context& ctx, const table_t& t, const geometry& geo,
			     const std::vector<folio_extent>& folios);

} // namespace ptespec::proofs
