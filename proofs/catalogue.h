// What `ptespec prove` and `ptespec check` run: the helper algebra once per
// granule, then every obligation for every chosen strategy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "proofs/obligation_table.h"
#include "proofs/obligations.h"

namespace ptespec::proofs {

// "4k", "16k", "64k" or "all"; throws usage_error otherwise.
std::vector<granule> granules_of(const std::vector<std::string>& names);

// Each obligation (and each granule's helper algebra) in a process of its
// own, o.schedule.jobs at once (proofs/isolate.h); results in catalogue order.
// `done` (may be empty) hears each result in that order as soon as it and
// those before it are known; `progress` (may be empty) a line saying where
// the run is ("3 of 60 ended; mainline exit/run-cont16 4k: 1234 paths,
// 12 s"), about five times a second.
std::vector<proof_result> prove_all(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
				    const prove_options& o,
				    const std::function<void(const proof_result&)>& done = {},
				    const std::function<void(const std::string&)>& progress = {});

// The checker properties an obligation speaks for (its family's scope in the
// obligation table); empty for the helper algebra.
std::vector<property> covered_properties(const proof_result& r);

// The calls whose ends the checker judges p at, among those s implements.
std::vector<call_kind> judged_calls(const strategy& s, property p);

// The calls s has for which the invariant of reachable tables
// (proofs/invariant.h) is not proved inductive at g among rs: those with no
// proved step/ obligation.  Empty: every table satisfying the invariant is
// every table the callers can reach with s, and an obligation stated from
// the invariant speaks for every reachable table.
// With `hugetlb`, the same for the hugetlb calls and the hugetlb part of
// the invariant (every hugepage as the hugetlb callers leave one): a
// hugetlb VMA's table is reached by hugetlb calls only, the others' by the
// others only, so each set of obligations speaks for its own tables.
std::vector<call_kind> not_inductive_for(const std::vector<proof_result>& rs, const strategy& s, granule g,
					 bool hugetlb = false);

// The proofs' word on one (strategy, granule, property): "refuted" when an
// obligation's counterexample violates that property (whatever properties
// the obligation covers: a strategy that reaches outside the table refutes
// isolation or well-formed in any obligation), "unknown" when one
// covering it was not decided (a timeout, the path budget, or a refutation
// of another of its properties: the proof stops at the first); when every
// covering obligation was proved, "proved" only if together they cover
// every call the property judges from every reachable table, and "partly
// proved" otherwise; "" when none covers it.
std::string proof_word(const std::vector<proof_result>& rs, const strategy& s, granule g, property p);

// For a "partly proved" word: what the proofs covered and what they did
// not ("get_and_clear_full_ptes from two folded runs ...; not covered:
// wrprotect_ptes, ..."), and, when that stops short of every table the
// callers reach, why: "the invariant of reachable tables is not proved
// inductive for set_ptes, ..." (not_inductive_for; the same for every
// property of s at g, so a table can print it once for all).
struct coverage_text {
	std::string covered, gap;
	// Both in one line, the gap in parentheses.
	std::string whole() const { return gap.empty() ? covered : covered + " (" + gap + ")"; }
};
coverage_text proof_coverage(const std::vector<proof_result>& rs, const strategy& s, granule g, property p);

} // namespace ptespec::proofs
