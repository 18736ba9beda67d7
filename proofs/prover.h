// The shared machinery of every proof obligation: run a scenario (strategy
// calls on the symbolic machine) once per feasible path, assert the
// negation of its claims, and read the answer.
//
//   unsat on every path      -> proved
//   sat on some path         -> refuted; the model becomes a concrete
//                               history (initial table, calls, hardware
//                               events) replayed on the concrete machine
//                               with the checker (replay.h)
//   a feasible path stops at an entry or a TLB flush outside the table
//                            -> refuted as isolation or well-formed (what the
//                               checker reports for that fault), whatever the
//                               obligation's claims; a model of the path is
//                               its counterexample, replayed the same way
//   unknown (timeout, limit) -> unknown, never shown as proved
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "impl/strategy.h"
#include "model/call.h"
#include "model/geometry.h"
#include "model/hardware.h"
#include "model/history.h"
#include "model/property.h"
#include "model/symbolic_machine.h"
#include "proofs/engine/bit_slicer.h"
#include "proofs/engine/valuation.h"

namespace ptespec::proofs {

enum class proof_verdict { proved, refuted, unknown };
std::string_view to_string(proof_verdict v);

// One conjunct of an obligation, named by the checker property whose
// violation the replay must show when it fails.  `witness` calls run after
// the scenario (without hardware) to make a broken invariant observable.
struct claim {
	property prop;
	z3::expr holds;
	std::vector<call> witness;
	// A part of an invariant the checker does not judge (no property
	// fails when it breaks): only a goal of invariant claims asks it.
	bool invariant = false;
};

// A lockless read that runs beside a locked call, its writer (the
// lockless/ obligations): the writer's table after each of its primitives
// is kept, and the reader's n-th read of an entry returns the entry as it
// was after `early` of the writer's primitives when n < split and after
// `late` of them otherwise (early <= late; past the writer's last
// primitive, its table at its end), the split among its first
// `split_within` reads.  The reader ends after `end` of them (late <=
// end): its window of the writer's run.  Each point is a free word, so one
// case covers every such placement of the reads.
struct concurrent_read {
	std::size_t writer = 0, reader = 1;	// ordinals in the scenario
	std::size_t split_within;
	z3::expr split, early, late, end;
	// The writer's tables, snapshots[k] after k of its primitives, the
	// last at its end (after its end slots), joined over its paths; and
	// the index of the last, per path (a term): filled when it has run.
	std::vector<std::vector<z3::expr>> snapshots;
	std::optional<z3::expr> last;

	// Reader paths dropped: those that spun on a table the writer had left
	// half done (the late point before the writer's end), which only a
	// third moment of the writer would let return -- outside the scope.
	std::size_t spun = 0;

	concurrent_read(z3::context& ctx, std::size_t split_within);
	// Entry i as the reader's n-th read sees it: past split_within, the
	// late term itself (a pass that re-reads a table the writer left half
	// done then re-reads the same terms, which the path oracle has met).
	z3::expr read(std::size_t i, std::size_t n);
	// Entry i after `point` of the writer's primitives.
	z3::expr at(const z3::expr& point, std::size_t i) const;
	// The points as numbers, in a model.
	struct points {
		std::size_t split = 0, early = 0, late = 0, end = 0;
	};
	points in(const z3::model& m) const;

private:
	std::vector<std::pair<std::optional<z3::expr>, std::optional<z3::expr>>> memo_;
};

// The symbolic inputs of a case -- the initial table and the values its
// calls pass -- and what is assumed of them.
struct sym_world {
	geometry geo;
	std::vector<z3::expr> initial;
	std::vector<z3::expr> assumptions;
	std::vector<folio_extent> folios;
	// Per call of the scenario, by position: a symbolic word the call
	// passes instead of its concrete call.pte (set_ptes' pte,
	// ptep_set_access_flags' entry, the mprotect commit's pte); a
	// counterexample reads its value off the model.
	std::vector<std::optional<z3::expr>> arguments;
	// A lockless read beside a writer, when the scenario is one.
	std::shared_ptr<concurrent_read> race;
	// Whether each store is judged against the TLB and its run's shape
	// (sym_step::stores_well_formed, none when not): those terms are built
	// at every store, so an obligation none of whose claims asks
	// well-formed at a store turns this off.
	bool stores_judged = true;
	// Call k's symbolic value, if it has one.
	std::optional<z3::expr> argument(std::size_t k) const
	{
		return k < arguments.size() ? arguments[k] : std::nullopt;
	}
};

// The paths of one part of a call (prover.cpp, run_call): each path's
// condition and how many primitives it made.
using part_paths = std::vector<std::pair<z3::expr, std::size_t>>;

// One call of a scenario, merged over every feasible path the strategy took
// through it: each term below is an ite over the paths' conditions (or the
// one term every path agreed on), and each event's `fired` includes its
// path's condition.  So a scenario of n calls costs the SUM of its calls'
// paths, not their product: the state is joined at every call boundary.
struct sym_step {
	std::size_t ordinal = 0;	// position of the call in the scenario
	call c;
	std::vector<z3::expr> before, after;	// the table at call begin and end
	sym_call_result result;
	std::vector<z3::expr> taken;	// symbolic_machine::taken() at call end
	// What the TLB may hold at call end (symbolic_machine::cached()), and
	// whether every store of the call kept break-before-make.
	std::vector<z3::expr> cached;
	std::optional<z3::expr> stores_well_formed;
	// This call's hardware slots, one per distinct slot, each fired only on
	// the paths that have it: what the ledgers count.
	std::vector<sym_event> events;
	// The same slots per path, each guarded by its path's condition and
	// with that path's gap: what a counterexample replays.
	std::vector<sym_event> trace;
	std::size_t paths = 0;
	// Per part of the call (one unless it was run as core-mm's generic
	// batch loop, one part per entry), per path: its condition and how many
	// primitives it made -- what places a later part's events in the call.
	std::vector<part_paths> parts;
};

// A scenario: calls run in order from the world's table, each on every
// feasible path; after each, `observe` states claims about it (it may keep
// state across calls: the scenario object is used once).
struct scenario {
	std::vector<call> calls;
	std::function<void(const sym_step&, std::vector<claim>&)> observe;
	// What is assumed of the table before call `ordinal` (the caller's
	// rules for it), stated over that table -- for a later call, the terms
	// the earlier calls left.  None: nothing beyond the world's
	// assumptions.  A sequence no path can continue under it is
	// unreachable: it ends there, its earlier calls' claims still asked
	// (case_batch::unreachable counts such cases).
	std::function<std::optional<z3::expr>(std::size_t ordinal, const std::vector<z3::expr>& table)> requires_;
};

// A hardware event of a counterexample: before the gap-th primitive of the
// call-th call (or at its last gap), on page `entry`, landing in it.
struct ce_event {
	std::size_t call = 0;
	std::size_t gap = 0;
	std::size_t entry = 0;
	hw_kind kind = hw_kind::access;
};

// A pte_batch_hint question of a counterexample (hint/): the entry, the
// value the caller read there, and the answer on the proof's path.
struct hint_query {
	std::size_t entry = 0;
	std::uint64_t pte = 0;
	std::size_t answer = 0;
};

struct counterexample {
	geometry geo;
	hardware_options hw;	// what the proof ran on, so the replay runs on it
	std::vector<folio_extent> folios;
	std::vector<std::uint64_t> initial;
	std::vector<call> calls;
	std::vector<ce_event> events;
	property prop = property::no_loss;	// the claim that failed
	std::vector<call> witness;
	// Calls of the obligation's sequence after the last of `calls` that the
	// violation does not need (taken out by the shrinker).
	std::size_t calls_not_needed = 0;
	// A lockless read beside a writer: calls[1] read beside calls[0], at
	// these points of its run (concurrent_read).
	std::optional<concurrent_read::points> race;
	// No calls: the strategy's pte_batch_hint asked of the initial table.
	std::optional<hint_query> hint;
};

struct proof_result {
	std::string obligation;	// stable name, e.g. "batch-or/cont16"
	std::string strategy;	// "" for strategy-independent obligations
	granule gran = granule::k4;
	proof_verdict verdict = proof_verdict::proved;
	double seconds = 0;
	double run_seconds = 0;	// of which: running the strategy on paths
	double solve_seconds = 0;	// and asking the solver the final questions
	std::size_t paths = 0;
	// Feasibility questions the path solver asked while running the paths
	// (those a model of the path could not answer).
	std::size_t path_questions = 0;
	// Solver questions with a resource budget that their time safety net
	// stopped first (stopped_by_time): 0, or another run, on another
	// machine or under other load, may decide them otherwise.
	std::size_t time_stops = 0;
	std::size_t formulas = 0;	// solver problems (cases x paths)
	std::string detail;	// what was covered, in one line
	std::optional<counterexample> ce;
	std::string replay;	// "", "confirmed" or "MISMATCH: ..."
	std::string ce_text;	// the counterexample, printed
};

struct prove_options {
	unsigned timeout_ms = 60000;	// per solver call
	// The hardware the strategies run on (symbolic_machine::features):
	// BBML2 and one CPU change what the TLB keeps; no_hafdbs is refused
	// (the machine's events are the MMU's own updates).
	hardware_options hw;
	// A bit-level question is first given this long with one solver, then
	// timeout_ms with another (prover.cpp, case_batch::flush).
	unsigned quick_solve_ms = 2000;
	// The path oracle's incremental solver stops after this many Z3
	// resource units per millisecond of quick_solve_ms rather than after
	// the time (path_solver::set_fallback), so a run decides its paths, and
	// its probes, alike on any machine.  0: by time.
	unsigned quick_units_per_ms = 4000;
	bool quick = false;	// fewer positions per run (0, 1, c-1): for tests
	// Paths per call before giving up with `unknown`: a strategy that
	// branches on a flag per entry inside one call has 2^n paths there
	// (paths are joined only at call boundaries).
	std::size_t max_paths = 512;
	// batch-or tries every (start, length) when a run has at most this many
	// entries, and the run-edge starts and ends above (obligations.cpp).
	std::size_t every_range_upto = 0;
	// A scenario of many calls has the claims of its first calls checked
	// after this many calls (and again after each next number), as well as
	// at its end: a violation in an early call is found without running the
	// rest, and the claims proved there leave the final question.  Most
	// broken teardowns break in their first calls; more checks cost a sound
	// strategy more than they save.
	std::vector<std::size_t> early_checks{4};
	// batch-or and step/ over this one range [first, first + nr) only (nr
	// 0: the ranges and entries above; a one-entry step/ call takes
	// `first`; a lockless/ writer takes `first`, beside a read of entry
	// 0): what the benchmark times per range, and what a test asks when
	// one place shows what it tests.
	std::size_t range_first = 0, range_nr = 0;
	// seq/ over the calls of these kinds only (empty: every kind the
	// strategy has): what a test asks when a few calls show what it tests.
	std::vector<call_kind> seq_kinds;
	// Seconds an obligation may spend running the strategy on paths before
	// it gives up with `unknown` (solver time is bounded by timeout_ms):
	// enough for the largest one-call obligations at CONT_PTES 128, whose
	// batch cases gather the run once per clear.
	double run_seconds = 60;
	// A step/ obligation runs one call from each of its cases' tables (3
	// to 70 cases, by call and granule), each as large as a one-call
	// obligation's case: its path budget is this much per case, or
	// run_seconds if that is more.
	double step_case_seconds = 15;
	// Table entries per solver question for batch-or (case_batch): its
	// cases share most terms, so one question for many is cheaper.
	std::size_t batch_entries = 16384;
	// The two reductions, each sound on its own argument (see
	// symbolic_machine.h's header and engine/bit_slicer.h); off only to test
	// that they change no verdict.
	bool carry_end_slots = true;
	bool bit_level_claims = true;
	// Run a batch call that is core-mm's generic loop (impl/generic.h) as
	// its single-entry calls, joining paths between them (prover.cpp,
	// run_call); off only to test that it changes no verdict.
	bool split_generic_batches = true;
	// Reach the other side of a decision by changing variables the path
	// does not mention before asking the solver (path_solver::repair).
	bool repair_models = true;
	// Before a case's last call runs on every path, up to this many probes
	// follow one path each through it and ask whether a model of that path
	// breaks a claim (case_batch::probe): a counterexample found without
	// settling, at every decision, whether the other side is feasible --
	// which is what costs where a call branches on each entry of terms
	// that choose among another call's tables.  Probes only refute.
	// Unset: the obligation's own number (16 for lockless/, none
	// elsewhere); 0: none.  At most probe_seconds for a case's probes,
	// probe_solve_ms for each probe's question, probe_decision_ms for the
	// model of a side a probe turns to.
	std::optional<std::size_t> probes;
	// The probes' budgets in Z3 resource units (rlimit), which stop the
	// solver after the same work on any machine, so a seed gives the same
	// probes everywhere: per side a probe turns to (probe_decision_ms), per
	// random-phase start and per probe question (probe_solve_ms).  The
	// times are then only safety nets, far above what the units take on a
	// loaded sanitizer build (proofs/engine/budget.h).  0: by time.
	// Measured here: 3 to 6 units per microsecond of solving, so these are
	// about the 1 s and 5 s the probes had by time (docs/performance.md).
	// probe_seconds, too, is a net (a case's 16 probes took 10 s here, 92 s
	// on one ninth of a core); a case whose probes it cut counts as a time
	// stop.
	unsigned probe_decision_rlimit = 5000000;
	unsigned probe_solve_rlimit = 25000000;
	// Probes only: a case's last call is probed and not run on every path,
	// so the batch can refute but its `proved` means nothing (a first pass
	// that probes every case before any full search spends the budget).
	bool probe_only = false;
	double probe_seconds = 600;
	unsigned probe_solve_ms = 120000;
	unsigned probe_decision_ms = 60000;
	// prove_all: obligations proved at once, each in a process of its own
	// (0: one per core), and the wall-clock seconds one may take before it
	// is stopped and reported unknown.
	unsigned jobs = 0;
	double wall_seconds = 900;
	// Only the obligations whose name starts with one of these (empty: all).
	std::vector<std::string> only;
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

// Where a running obligation is, for a progress line: the sink hears the
// result being filled (its name and the paths run so far) after each call
// an obligation runs, on the thread that proves.  None by default; a
// prover process (proofs/isolate.cpp) installs one that writes to its
// parent.
void set_proof_progress(std::function<void(const proof_result&)> sink);
// Tells the sink, if there is one.
void report_proof_progress(const proof_result& r);

// A timer for proof_result::seconds.
class stopwatch {
public:
	double seconds() const
	{
		return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
	}

private:
	std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// The cases of one obligation, or of several over the same cases.  Each
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
	std::size_t unreachable_ = 0;
	double spent_ = 0;	// seconds of running paths, against o_.run_seconds
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
