// One case's calls run on the symbolic machine, each on every feasible path
// and joined over its decisions (symbolic_run.cpp, decision_tree.cpp), and
// what a model of them tells (extract.cpp): the machinery case_batch
// drives, not an interface of proofs/.
#pragma once

#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "impl/strategy.h"
#include "model/call.h"
#include "model/symbolic_machine.h"
#include "proofs/engine/path_oracle.h"
#include "proofs/engine/path_solver.h"
#include "proofs/engine/valuation.h"
#include "proofs/prover/options.h"
#include "proofs/prover/scenario.h"

namespace ptespec::proofs {

// A call needed more paths than the budget allows, or the obligation more
// time.
struct path_budget_exhausted {
	std::string why;
	bool out_of_time = false;	// the obligation's run_seconds, not one call's paths
};

// A path of a call that stopped at a primitive outside the table (the
// symbolic machine's strategy_fault).  The oracle only follows feasible
// sides, so some table and interleaving takes this path: a refutation,
// whatever claims the obligation states.  What its counterexample needs:
struct path_fault {
	strategy_fault fault;
	std::vector<z3::expr> pc;	// the literals of its decisions in the call
	// The call's slots up to the fault: the earlier parts' (each guarded by
	// its path's condition) and this path's.
	std::vector<sym_event> trace;
	// The call's parts up to the faulting one, which is last.
	std::vector<part_paths> parts;
};

// One path of one call.
struct path_run {
	z3::expr pc;	// the conjunction of its decisions' literals
	// The decisions it took, in order: the outcome and the literal that
	// holds on this path (the condition or its negation).
	std::vector<std::pair<bool, z3::expr>> decisions;
	std::vector<z3::expr> table, taken, cached;
	z3::expr stores_well_formed;	// symbolic_machine::stores_well_formed
	sym_call_result result;
	std::vector<sym_event> events;
	std::size_t gaps = 0;	// primitives it made
	std::vector<std::vector<z3::expr>> snapshots;	// symbolic_machine::snapshots
};

// What one run of the strategy covers: the scenario's call `c`, or one
// entry of it when c is core-mm's generic batch loop (impl/generic.h): then
// part k runs ptep_get_and_clear_full on entry c.index + k, from the table
// and the taken values part k-1 ended with, and only the last part ends the
// call (its end slots).
struct part_spec {
	call run;
	std::size_t index = 0;
	bool last = true;
	std::vector<z3::expr> taken;	// empty: a fresh call
	std::vector<z3::expr> cached;	// the TLB part k-1 left (with taken)
};

// The strategy run on the symbolic machine for one case: its world, the
// path solver that decides its branches, and the run-time budget every
// call of the case draws on (`spent`, seconds against o.search.run_seconds).
class symbolic_run {
public:
	symbolic_run(z3::context& ctx, path_solver& paths, strategy& strat, const sym_world& w,
		     const prove_options& o, double& spent)
		: ctx_(ctx), paths_(paths), strat_(strat), w_(w), o_(o), spent_(spent)
	{
	}

	// Runs call `c` of the scenario, the ordinal-th, from `table`: at once,
	// or -- when it is core-mm's generic batch loop over the strategy's own
	// ptep_get_and_clear_full -- as that loop's single-entry calls with the
	// paths joined after each, so a strategy that branches on every
	// entry's flags costs the sum of the entries' paths, not their
	// product.  `carried`: on entry, the entries whose last slot is the
	// previous call's end slot; on return, those this call did not use.
	sym_step run_call(const std::vector<z3::expr>& table, const call& c, std::size_t ordinal,
			  std::vector<bool>& carried);
	// Whether run_call runs call `c` in one part (else as the single-entry
	// calls of core-mm's generic batch loop).
	bool runs_whole(const call& c, std::size_t ordinal) const;
	// Runs one path of one part of call `c` from `table`, its branches
	// decided by `oracle`.  None when the path has no result: infeasible,
	// or a lockless read that spun on a table the writer left half done.
	// `used` gains the entries the path used.
	std::optional<path_run> run_path(path_oracle& oracle, const std::vector<z3::expr>& table, const call& c,
					 const part_spec& part, std::size_t ordinal, const std::vector<bool>& carried,
					 std::vector<bool>& used);

private:
	sym_step run_joined(const std::vector<z3::expr>& table, const call& c, const part_spec& part,
			    std::size_t ordinal, const std::vector<bool>& carried, std::vector<bool>& used);
	sym_step run_parts(const std::vector<z3::expr>& table, const call& c, std::size_t ordinal,
			   const std::vector<bool>& carried, std::vector<bool>& used);
	void set_up(symbolic_machine& m, std::size_t ordinal) const;
	void livelocked(path_oracle& oracle, const strategy_livelock& e, bool reader) const;

	z3::context& ctx_;
	path_solver& paths_;
	strategy& strat_;
	const sym_world& w_;
	const prove_options& o_;
	double& spent_;
};

// The paths of one part as one step: each value an ite over the decisions
// that tell the paths apart (decision_tree.cpp); a racing writer's tables
// joined into the race.
sym_step join_paths(z3::context& ctx, const sym_world& w, const std::vector<z3::expr>& table, const call& c,
		    std::size_t ordinal, const std::vector<path_run>& runs);

// Whether each claim holds in the model.
std::vector<bool> claims_hold(const z3::model& mdl, const std::vector<claim>& claims);
// The counterexample a model of a case gives: its table, calls, values and
// the slots that fired, placed in the calls' parts; the first claim it
// falsifies names the property.
counterexample extract(const z3::model& mdl, const sym_world& world, const scenario& sc,
		       const std::vector<sym_event>& events, const std::vector<claim>& claims,
		       const std::vector<std::vector<part_paths>>& parts);
std::optional<counterexample> fault_counterexample(path_solver& paths, const sym_world& world,
						   const std::vector<call>& calls, std::size_t at,
						   std::vector<sym_event> trace, std::vector<std::vector<part_paths>> parts,
						   const path_fault& f);
std::string fault_note(const call& c, const strategy_fault& f);

// The points of probe n of `of` (race.cpp).
std::vector<valuation::change> probe_points(const concurrent_read& race, std::size_t n, std::size_t of,
					    std::mt19937_64& rng);

// The solvers of a batch's questions (question.cpp).
z3::solver make_solver(z3::context& ctx, const prove_options& o, bool incremental);
z3::solver make_circuit_solver(z3::context& ctx, unsigned timeout_ms, unsigned rlimit = 0);

} // namespace ptespec::proofs
