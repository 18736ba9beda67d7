// What an obligation is made of and what proving it gives: the claims a
// scenario states, the symbolic world it runs in, its calls joined over
// their paths, and the result -- a verdict, and on refutation the
// counterexample the concrete machine replays (replay.h).
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

#include "model/call.h"
#include "model/geometry.h"
#include "model/hardware.h"
#include "model/history.h"
#include "model/property.h"
#include "model/symbolic_machine.h"

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

// The paths of one part of a call (symbolic_run::run_call): each path's
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

} // namespace ptespec::proofs
