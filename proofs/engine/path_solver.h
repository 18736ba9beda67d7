// The solver side of the path oracle (path_oracle.h), shared by every path
// of a case: branch conditions in bit-level form (bit_slicer.h), and a proxy
// constant p per literal with (p => literal) asserted once, so a path is
// checked with its decisions as assumptions, with no push or pop: what the
// solver learnt on one path serves the next.
//
// Most new decisions need no solver at all: a decision is asked with a
// model of the path so far in hand (path_oracle), and the other side is
// usually reached by changing only variables that neither the assumptions
// nor the path's decisions mention -- the hardware slot just made, the
// flags of an entry the loop reads for the first time.  Such a change keeps
// the model a model of everything the path assumed, so if the new literal
// holds under it, that is a witness; only when no candidate change works is
// the solver asked (repair()).  Models are held as valuations, and the
// literals evaluated under them without building terms (evaluator.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include <z3++.h>

#include "proofs/engine/bit_slicer.h"
#include "proofs/engine/budget.h"
#include "proofs/engine/evaluator.h"
#include "proofs/engine/valuation.h"

namespace ptespec::proofs {

class path_solver {
public:
	// `repairs`: off, every new decision asks the solver (to test that
	// the shortcut changes nothing).
	path_solver(z3::solver& s, const std::vector<z3::expr>& assumptions, bool repairs = true);

	// A question the incremental solver has not answered in `quick_ms` is
	// asked again of a fresh bit-blasting solver, for up to `full_ms`:
	// the incremental core answers most of these questions at once, but
	// now and then sits on an easy one for its whole timeout (a free value
	// compared bit by bit with an entry, under the invariant's
	// arithmetic), which bit-blasting settles in well under a second.
	// 0 (the default): every question is the incremental solver's alone.
	// With `quick_rlimit` the incremental solver stops after that many Z3
	// resource units instead, and `quick_ms` becomes a safety net
	// (safety_net_ms): which questions go on to bit-blasting, and so the
	// models the path oracle is given, are then the same on any machine.
	void set_fallback(unsigned quick_ms, unsigned full_ms, unsigned quick_rlimit = 0)
	{
		quick_ms_ = quick_rlimit ? std::min(full_ms, safety_net_ms(quick_ms)) : quick_ms;
		quick_rlimit_ = quick_rlimit;
		full_ms_ = usual_ms_ = full_ms;
	}
	// The timeout the solver was made with, which a question with a
	// shorter one of its own puts back.
	void set_timeout(unsigned ms) { usual_ms_ = ms; }

	// Adds `a` to the assumptions, mid-case: a caller's rule for a later
	// call of a sequence, over the table the earlier calls left.  false
	// when the assumptions are then unsatisfiable (no path reaches a table
	// the rule admits), nullopt when the solver cannot tell -- then they may
	// be, and whatever is asked under them may hold vacuously.
	std::optional<bool> assume(const z3::expr& a);

	z3::expr normal(const z3::expr& cond) { return slicer_.truth(cond); }
	// The slicer, with every condition of the case sliced so far: a later
	// question about the same terms (the prover's final one) reuses it.
	bit_slicer& slicer() { return slicer_; }

	// Whether `lit` is consistent with the assumptions and `decided`; when
	// it is, a model that shows it (none when the solver only says unknown,
	// which counts as consistent: exploring too much is safe, too little
	// is not).
	struct answer {
		bool feasible;
		std::optional<valuation> witness;
	};
	answer feasible(const std::vector<z3::expr>& decided, const z3::expr& lit);
	// A model of the assumptions, `decided` and `lit` if the incremental
	// solver finds one within `ms`; none otherwise (infeasible or not
	// found: a probe, which only looks for models, does not tell them
	// apart).  With `rlimit` (Z3 resource units, 0: none) the bit-blasting
	// stops after that much work, and the first try where feasible()'s
	// does: the same answer on any machine, `ms` only a safety net.
	std::optional<valuation> model_within(const std::vector<z3::expr>& decided, const z3::expr& lit, unsigned ms,
					      unsigned rlimit = 0);

	// A model of the assumptions and `decided` (a path's literals), as the
	// solver gives it, with the solver's answer (no model unless sat).
	std::pair<z3::check_result, std::optional<z3::model>> model_of(const std::vector<z3::expr>& decided);

	// The truth of `cond` under `m` with `overrides` made, where it is
	// known: the evaluator's, or where it does not know a term, Z3's.
	std::optional<bool> holds(const valuation& m, const z3::expr& cond,
				  std::span<const valuation::change> overrides = {});

	// A model of the assumptions, `decided` and `lit`, made from `m` (a
	// model of the assumptions and `decided`) by changing only variables
	// that those do not mention; none when no candidate change makes `lit`
	// hold.  Candidates: each free variable flipped (a boolean negated, a
	// word complemented), all set, all clear.
	std::optional<valuation> repair(const valuation& m, const std::vector<z3::expr>& decided, const z3::expr& lit);

	// As repair(), for a probe: the literal's variables that the
	// assumptions do not mention -- decided ones too -- set to random
	// values (a narrow word mostly to a small one: the points of a race,
	// the index of a writer's primitive), `tries` times; a candidate counts
	// when `lit` and every literal of `decided` hold under it.
	std::optional<valuation> repair_randomly(const valuation& m, const std::vector<z3::expr>& decided,
						 const z3::expr& lit, std::mt19937_64& rng, unsigned tries);

	// A model of the assumptions: the witness a call's first path starts
	// with (it has decided nothing yet).
	void set_root(const z3::model& m) { root_ = valuation::of(m); }
	const std::optional<valuation>& root() const { return root_; }

	// Decisions the solver answered, and those a repaired model did.
	std::size_t solver_calls() const { return solver_calls_; }
	// Questions with a resource budget that time stopped first
	// (stopped_by_time): where not 0, another run may decide them otherwise.
	std::size_t time_stops() const { return time_stops_; }
	std::size_t repaired() const { return repaired_; }

private:
	// An uninterpreted constant of a term: its id, and its width (1 for
	// a boolean; 0 for a sort no valuation holds).
	struct var {
		unsigned id;
		Z3_ast term;
		unsigned width;
	};

	// The variables of a literal, computed once; a negation shares its
	// operand's list (a decision asks both).  The term is kept with them:
	// it keeps theirs alive, and an id names a term only while it lives.
	const std::vector<var>& vars_of(const z3::expr& lit);

	// The uninterpreted constants of `e`.
	void collect(const z3::expr& e, std::vector<var>& into);

	z3::expr proxy(const z3::expr& lit);

	// `lit` under the assumptions and `decided`: the incremental solver
	// for `first_ms` (0: its usual limit), then, when it says unknown and
	// `blast_ms` is not 0, the same question bit-blasted for `blast_ms`;
	// each also stopped after its resource units (0: no such limit).
	// A model when sat.
	struct outcome {
		z3::check_result result;
		std::optional<valuation> model;
	};
	outcome ask(const std::vector<z3::expr>& decided, const z3::expr& lit, unsigned first_ms, unsigned blast_ms,
		    unsigned first_rlimit = 0, unsigned blast_rlimit = 0);

	z3::solver& s_;
	bit_slicer slicer_;
	evaluator eval_;
	std::vector<bool> bound_;	// per term id: a variable of the assumptions
	std::unordered_map<unsigned, std::pair<z3::expr, std::vector<var>>> vars_;
	bool repairs_;
	std::optional<valuation> root_;
	std::vector<unsigned> mark_;	// collect(): the walk that last saw a term id
	unsigned epoch_ = 0;
	std::vector<unsigned> decided_mark_;	// repair(): the repair whose decisions name a term id
	unsigned decided_epoch_ = 0;
	std::size_t solver_calls_ = 0, repaired_ = 0, time_stops_ = 0;
	unsigned quick_ms_ = 0, full_ms_ = 0, usual_ms_ = 4294967295u;
	unsigned quick_rlimit_ = 0;
	std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> proxies_;
};

} // namespace ptespec::proofs
