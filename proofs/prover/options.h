// How prove() runs an obligation: the solver's budgets, the path search's,
// the probes', how prove_all schedules obligations over processes, and
// which obligations and cases it asks.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/call.h"
#include "model/hardware.h"

namespace ptespec::proofs {

struct prove_options {
	// The hardware the strategies run on (symbolic_machine::features):
	// BBML2 and one CPU change what the TLB keeps; no_hafdbs is refused
	// (the machine's events are the MMU's own updates).
	hardware_options hw;

	// The solver's questions.
	struct solver_options {
		unsigned timeout_ms = 60000;	// per solver call
		// The path oracle's incremental solver has this long for a
		// question before it goes to bit-blasting (path_solver), and a
		// probe's question this share of its budget with its first
		// solver (case_batch::solve).
		unsigned quick_solve_ms = 2000;
		// A case's final bit-level question is first given this long
		// with the qfbv tactic, then timeout_ms with the circuit solver
		// (case_batch::solve): long enough for the step/ questions, which
		// qfbv answers in 1-7 s (cut at 2 s, the circuit solver started
		// over and took as long again), short enough that a question
		// qfbv would sit on for the whole timeout goes on soon.
		unsigned claims_first_ms = 10000;
		// The path oracle's incremental solver stops after this many Z3
		// resource units per millisecond of quick_solve_ms rather than
		// after the time (path_solver::set_fallback), so a run decides
		// its paths, and its probes, alike on any machine.  0: by time.
		unsigned quick_units_per_ms = 4000;
		// Ask the claims at bit level where a case joined paths (see
		// engine/bit_slicer.h), a reduction sound on its own argument;
		// off only to test that it changes no verdict.
		bool bit_level_claims = true;
	} solver;

	// The search over paths.
	struct search_options {
		// Paths per call before giving up with `unknown`: a strategy
		// that branches on a flag per entry inside one call has 2^n
		// paths there (paths are joined only at call boundaries).
		std::size_t max_paths = 512;
		// Seconds an obligation may spend running the strategy on paths
		// before it gives up with `unknown` (solver time is bounded by
		// solver.timeout_ms): enough for the largest one-call
		// obligations at CONT_PTES 128, whose batch cases gather the run
		// once per clear.
		double run_seconds = 60;
		// A step/ obligation runs one call from each of its cases'
		// tables (3 to 70 cases, by call and granule), each as large as
		// a one-call obligation's case: its path budget is this much per
		// case, or run_seconds if that is more.
		double step_case_seconds = 15;
		// A scenario of many calls has the claims of its first calls
		// checked after this many calls (and again after each next
		// number), as well as at its end: a violation in an early call
		// is found without running the rest, and the claims proved there
		// leave the final question.  Most broken teardowns break in
		// their first calls; more checks cost a sound strategy more than
		// they save.
		std::vector<std::size_t> early_checks{4};
		// Table entries per solver question for batch-or (case_batch):
		// its cases share most terms, so one question for many is
		// cheaper.
		std::size_t batch_entries = 16384;
		// Table entries per solver question for step/: its cases (one
		// call at several places of the same two-run table) share the
		// table's terms too -- 8 cases a question at 4K, 4 at 64K, one
		// at 16K.  A question of several cases the solver leaves
		// undecided is asked again case by case
		// (case_batch::ask_cases_alone_when_undecided).
		std::size_t step_entries = 256;
		// Carry end slots over calls (see symbolic_machine.h's header),
		// a reduction sound on its own argument; off only to test that
		// it changes no verdict.
		bool carry_end_slots = true;
		// Run a batch call that is core-mm's generic loop
		// (impl/generic.h) as its single-entry calls, joining paths
		// between them (symbolic_run::run_call); off only to test that
		// it changes no verdict.
		bool split_generic_batches = true;
		// Reach the other side of a decision by changing variables the
		// path does not mention before asking the solver
		// (path_solver::repair).
		bool repair_models = true;
	} search;

	// Before a case's last call runs on every path, up to `count` probes
	// follow one path each through it and ask whether a model of that path
	// breaks a claim (case_batch::probe): a counterexample found without
	// settling, at every decision, whether the other side is feasible --
	// which is what costs where a call branches on each entry of terms
	// that choose among another call's tables.  Probes only refute.
	struct probe_options {
		// Unset: the obligation's own number (16 for lockless/, none
		// elsewhere); 0: none.  At most `seconds` for a case's probes,
		// solve_ms for each probe's question, decision_ms for the model
		// of a side a probe turns to.
		std::optional<std::size_t> count;
		// The probes' budgets in Z3 resource units (rlimit), which stop
		// the solver after the same work on any machine, so a seed gives
		// the same probes everywhere: per side a probe turns to
		// (decision_ms), per random-phase start and per probe question
		// (solve_ms).  The times are then only safety nets, far above
		// what the units take on a loaded sanitizer build
		// (proofs/engine/budget.h).  0: by time.  Measured here: 3 to 6
		// units per microsecond of solving, so these are about the 1 s
		// and 5 s the probes had by time (docs/performance.md).
		// `seconds`, too, is a net (a case's 16 probes took 10 s here,
		// 92 s on one ninth of a core); a case whose probes it cut
		// counts as a time stop.
		unsigned decision_rlimit = 5000000;
		unsigned solve_rlimit = 25000000;
		// Probes only: a case's last call is probed and not run on
		// every path, so the batch can refute but its `proved` means
		// nothing (a first pass that probes every case before any full
		// search spends the budget).
		bool only = false;
		double seconds = 600;
		unsigned solve_ms = 120000;
		unsigned decision_ms = 60000;
	} probes;

	// prove_all: obligations proved at once, each in a process of its own
	// (0: one per core), and the wall-clock seconds one may take before it
	// is stopped and reported unknown.
	struct schedule_options {
		unsigned jobs = 0;
		double wall_seconds = 900;
	} schedule;

	// Which obligations, and which of their cases.
	// Only the obligations whose name starts with one of these (empty: all).
	std::vector<std::string> only;
	bool quick = false;	// fewer positions per run (0, 1, c-1): for tests
	// batch-or tries every (start, length) when a run has at most this many
	// entries, and the run-edge starts and ends above (families/batch_or.cpp).
	std::size_t every_range_upto = 0;
	// batch-or and step/ over this one range [first, first + nr) only (nr
	// 0: the ranges and entries above; a one-entry step/ call takes
	// `first`; a lockless/ writer takes `first`, beside a read of entry
	// 0): what the benchmark times per range, and what a test asks when
	// one place shows what it tests.
	std::size_t range_first = 0, range_nr = 0;
	// seq/ over the calls of these kinds only (empty: every kind the
	// strategy has): what a test asks when a few calls show what it tests.
	std::vector<call_kind> seq_kinds;

	bool wants(const std::string& obligation) const
	{
		if (only.empty())
			return true;
		for (const std::string& p : only)
			if (obligation.starts_with(p))
				return true;
		return false;
	}
};

} // namespace ptespec::proofs
