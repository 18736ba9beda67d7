// The obligation table: one entry per family of proof obligations, and
// everything `prove`, `check` and `report` look up about an obligation --
// its name at a granule, which strategies it applies to, which obligations
// share its run, the function that proves it, and what a proof of it
// covers -- read from that entry.
//
// The helper algebra (helpers/<law>, proofs/families/helpers.cpp) is proved
// once per granule and for no strategy, so it is not a family here.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/call.h"
#include "model/geometry.h"
#include "model/property.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// What a proof of an obligation covers: the checker properties it speaks
// for, the calls it runs, and the tables it starts from.  `every_table` is
// true only for an obligation whose worlds are every table the callers can
// reach; `from_invariant` for one whose worlds are every table satisfying
// the invariant of reachable tables (proofs/invariant.h), which are every
// reachable table once the invariant is proved inductive for every call
// the strategy has (catalogue.h, invariant_inductive).
struct obligation_scope {
	std::vector<property> properties;
	std::vector<call_kind> calls;
	std::string tables;
	bool every_table = false;
	bool from_invariant = false;
	// Whether the cases name every entry and range a caller may name, in a
	// table of any length.  None does yet: the step/ obligations try the
	// run edges, their neighbours and a middle (batches: the ranges that
	// start and end there) in a table of two runs, so a cell they cover
	// reads `partly proved`, never `proved`.
	bool every_place = false;
	// It runs the strategy's pte_batch_hint, which per-call judges too.
	bool batch_hint = false;
};

struct obligation_family;

// One run of a prove function: the families it proves together (one, or
// several that share their cases) and a result for each, in table order,
// already named for the strategy and granule.
struct obligation_run {
	strategy& s;
	granule g;
	const prove_options& o;
	std::vector<const obligation_family*> families;
	std::vector<proof_result> results;
};

struct obligation_family {
	// A name is the prefix, then cont<N> when `sized` (the run size is
	// part of the obligation: its worlds are runs of CONT_PTES entries).
	std::string prefix;
	bool sized = true;
	// It applies to a strategy that implements every one of these calls
	// (and, with needs_hint, has a pte_batch_hint of its own).
	std::vector<call_kind> needs = {};
	bool needs_hint = false;
	// Families with the same non-empty key are stated over the same cases:
	// wanted together, their cases run once for all of them.
	std::string shares_run = {};
	// Run only when an --obligation prefix names it (prove_options::only
	// non-empty and matching), never by default: for families whose cost
	// would dominate `prove --all` and `check`.
	bool opt_in = false;
	// Makes the cases and fills run.results (proofs/families/).
	std::function<void(obligation_run&)> prove;
	obligation_scope scope;

	std::string name(granule g) const;
	bool applies_to(const strategy& s) const;
};

// Every family, in the order `prove` runs and prints them.
const std::vector<obligation_family>& obligation_table();

// The family whose name at r.gran is r.obligation; nullptr for the helper
// algebra.
const obligation_family* family_of(const proof_result& r);
// Its scope; nullptr for the helper algebra.
const obligation_scope* scope_of(const proof_result& r);

// A scope's properties and calls as comma-separated names, for printing.
std::string scope_properties(const obligation_scope& sc);
std::string scope_calls(const obligation_scope& sc);

// Every obligation name at granule g, helpers first (what --obligation
// prefixes are matched against).
std::vector<std::string> obligation_names(granule g);

// One obligation of one strategy at one granule -- or several proved over
// one run of shared cases, a result per name.
struct obligation {
	std::vector<std::string> names;
	std::function<std::vector<proof_result>()> prove;
};

// The obligations that apply to s at g (helpers excluded), those o.only
// selects, in table order; families that share a run and are both selected
// are one obligation.
std::vector<obligation> obligations_of(strategy& s, granule g, const prove_options& o);

// The obligations named (exact names at g, of one family or of families
// that share a run), proved in one run without replaying refutations: what
// the tests call to prove one obligation directly.
std::vector<proof_result> prove_named(strategy& s, granule g, const std::vector<std::string>& names,
				      const prove_options& o);
proof_result prove_named(strategy& s, granule g, const std::string& name, const prove_options& o);

} // namespace ptespec::proofs
