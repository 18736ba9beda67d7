// The cases of an obligation, run and asked (prover/case_batch.cpp,
// question.cpp, probe.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "impl/strategy.h"
#include "proofs/engine/bit_slicer.h"
#include "proofs/engine/valuation.h"
#include "proofs/prover/options.h"
#include "proofs/prover/scenario.h"

namespace ptespec::proofs {

// case runs at once (every call on every feasible path, the paths joined
// over their decision tree at the call's end); their claims are checked
// together, up to `entries` table entries per solver question (the
// constructor's argument).  Adds paths, run and solve seconds and formulas
// to each goal's result; on refutation fills its ce with the case the model
// breaks.
class path_solver;

class case_batch {
public:
	// What one result proves: the claims of these properties (empty: every
	// claim).  With several goals a case's paths run once; its question
	// asks every open goal's claims at once, and a goal the model does not
	// break is asked again alone, so one refuted goal leaves the others to
	// their own verdicts.
	struct goal {
		std::vector<property> props;
		proof_result* into;
		// Asks the invariant claims (claim::invariant) instead of the
		// properties' claims.
		bool invariant = false;
	};
	// `entries`: how many table entries (summed over cases) one formula
	// may hold before it is checked; 0 checks every case alone.
	case_batch(z3::context& ctx, strategy& s, const prove_options& o, proof_result& into, std::size_t entries);
	case_batch(z3::context& ctx, strategy& s, const prove_options& o, std::vector<goal> goals,
		   std::size_t entries);
	// false once every goal is refuted or given up, or the run-time budget
	// is spent (the caller may stop adding).
	bool add(const sym_world& world, const scenario& sc);
	// Checks what is left; sets each goal's verdict over every case added
	// and returns the first's.
	proof_verdict check();
	// A question of several cases the solver leaves undecided is asked
	// again of each case alone, instead of leaving its goals undecided: for
	// batches of a few cases, where that costs a few timeouts at most.
	void ask_cases_alone_when_undecided() { cases_alone_ = true; }
	// Cases that ended at a call no table their earlier calls can leave
	// admits (scenario::requires_).
	std::size_t unreachable() const { return unreachable_; }
	// Probe paths whose claims were asked (prove_options::probes).
	std::size_t probes_asked() const { return probes_asked_; }
	double probe_seconds() const { return probe_seconds_; }

private:
	struct pending_case {
		sym_world world;
		std::vector<call> calls;
		std::vector<sym_event> trace;
		std::vector<std::vector<part_paths>> parts;	// per call
		std::vector<claim> claims;
		bool joined;	// some call had more than one path
	};
	struct goal_state {
		goal g;
		proof_verdict verdict = proof_verdict::proved;
		bool gave_up = false;	// the solver did: later cases are as large
		bool covers(const claim& c) const;
		bool open() const { return verdict != proof_verdict::refuted && !gave_up; }
	};
	// One question about the cases waiting: the claims it asks (one flat
	// conjunction's conjuncts), what the solver is given first (the cases'
	// assumptions), and whether some case joined several paths.
	struct pending_question {
		z3::expr_vector claims;
		z3::expr_vector asserted;
		bool joined = false;
	};
	// A question's answer and the solver that gave it (its model or its
	// reason for giving up).
	struct answer {
		z3::check_result result;
		z3::solver solver;
		bool time_stop = false;	// a try with resource units ran out of time
	};

	// add(), step by step: assume the world, run the calls one by one
	// (each charged to every goal's run seconds, its claims recorded),
	// ending early when the path budget is spent or a path faults.
	z3::check_result assume(const sym_world& world);
	// A value when the case ended early: what add() returns.
	std::optional<bool> run_case(path_solver& paths, const sym_world& world, const scenario& sc, pending_case& pc);
	sym_step run_charged(path_solver& paths, const sym_world& world, const std::vector<z3::expr>& table,
			     const call& c, std::size_t ordinal, std::vector<bool>& carried);
	bool give_up_case(const std::string& why, bool out_of_time, const pending_case& pc, std::size_t calls_run);
	void refute_by_fault(const call& c, const strategy_fault& fault, const std::optional<counterexample>& ce);
	void record(sym_step& st, const scenario& sc, pending_case& pc);

	void flush();
	// Asks the goals of `of` still open about the waiting cases, one
	// question at a time (see flush()).
	void ask_open(const std::vector<std::size_t>& of);
	// Asks the claims of goals `ask` in qctx (see flush()); what to ask next.
	std::vector<std::vector<std::size_t>> flush_in(z3::context& qctx, const std::vector<std::size_t>& ask);
	// flush_in(), step by step: gather the question, put it at bit level
	// or not, solve it, then refute by the model or give up.
	pending_question gather(const std::vector<std::size_t>& ask) const;
	z3::expr claims_formula(const z3::expr_vector& claims, bool bit_level);
	answer solve(z3::context& qctx, const z3::expr_vector& asserted, bool bit_level, unsigned timeout_ms,
		     unsigned rlimit = 0) const;
	std::vector<std::vector<std::size_t>> refute_by_model(z3::model qm, const std::vector<std::size_t>& ask);
	bool refuted_by(const z3::model& mdl, goal_state& gs) const;
	bool refuted_by(const z3::model& mdl, goal_state& gs, const pending_case& c) const;
	bool probe(path_solver& paths, const sym_world& world, const std::vector<z3::expr>& table, const scenario& sc,
		   std::size_t k, const std::vector<bool>& carried, const pending_case& pc);
	bool probe_refutes(const pending_case& c);
	std::optional<valuation> random_model(const std::vector<z3::expr>& assumptions, std::size_t seed);
	// Adds n to every goal's result's time_stops (once per result).
	void count_time_stops(std::size_t n);
	std::vector<std::vector<std::size_t>> give_up_question(z3::solver& answered, const std::vector<std::size_t>& ask);
	// The goals `ask` asked again of each waiting case alone, after a
	// question of several cases went undecided (with cases_alone_);
	// leaves no case waiting.
	void ask_each_case(const std::vector<std::size_t>& ask);
	bool check_so_far(const pending_case& pc);
	bool any_open() const;
	void note(const std::string& why);	// to every goal
	static void note(proof_result& r, const std::string& why);

	z3::context& ctx_;
	strategy& strat_;
	const prove_options o_; // a copy: callers pass temporaries
	std::vector<goal_state> goals_;
	std::size_t entries_;
	bool stopped_ = false;	// no more cases: the run budget is spent
	bool cases_alone_ = false;	// see ask_cases_alone_when_undecided()
	std::size_t unreachable_ = 0;
	double spent_ = 0;	// seconds of running paths, against o_.search.run_seconds
	std::size_t probes_asked_ = 0;
	double probe_seconds_ = 0;
	std::uint64_t probe_seed_ = 1;
	// While add() runs a case: its path solver's slicer, which the case's
	// questions reuse (flush_in).
	bit_slicer* slicer_ = nullptr;
	z3::solver oracle_solver_;
	std::vector<pending_case> cases_;
};

} // namespace ptespec::proofs
