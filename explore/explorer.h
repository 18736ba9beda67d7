// Exhaustive interleavings: a scenario under every placement of up to K
// hardware events and every initial young/dirty state of its run, each
// schedule judged by the checker (model/checker.h).
//
// A schedule is a list of events (point, entry, kind): before the point-th
// scheduling point of the scenario, an access or write lands in `entry`.
// The search is a depth-first, stateless one: every node runs the scenario
// from scratch with its events, and its children add one event at a point
// no earlier than its last, read off the node's own trace (so a trace an
// event changes is followed, never guessed).
//
// Reductions (each argued where it is applied, explorer.cpp):
//   page symmetry   -- an event names the page it lands for only in
//                      messages once it lands in a CONT entry, so the
//                      landing entry's own page stands for every page;
//   partial order   -- an event commutes with every step that does not
//                      touch its landing entry, so it is placed only at the
//                      last point of each slot between such steps (call
//                      boundaries end slots too: the checker orders events
//                      per call);
//   initial states  -- `sparse` keeps the states with at most F flagged
//                      entries plus the uniform ones: a bound, not a
//                      symmetry, checked against `all` on small runs by
//                      tests/explore.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "explore/scenario.h"
#include "impl/strategy.h"
#include "model/history.h"
#include "model/property.h"

namespace ptespec::explore {

enum class initial_set { sparse, all };

struct explore_result;

struct explore_options {
	scenario scen = scenario::exit;
	geometry geo = geometry::of(granule::k4);	// cont_ptes may be overridden
	hardware_options hw;	// the machine's features (--hardware)
	int hw_events = 2;
	bool reduce = true;	// off: every point, every page, every landing
	initial_set initial = initial_set::sparse;
	unsigned initial_flagged = 1;	// sparse: at most this many flagged entries
	bool all_violations = false;	// go on after the first, to name every property
	double time_limit = 0;	// seconds; 0 none.  Hitting it marks the result incomplete
	unsigned threads = 0;	// 0: one per core
	std::function<void(std::uint64_t explored, std::uint64_t states_done, std::uint64_t states)> progress;
	std::function<void(scenario)> scenario_begins;	// explore_all, before each scenario
	// explore_all, as each scenario's search ends (so its line can be shown
	// then, not after the whole sweep).
	std::function<void(const explore_result&)> scenario_ends;
	bool scaled_runs = false;	// explore_all: each scenario at explored_cont_ptes, not geo's
	const mm::caller* caller = nullptr;	// the caller variant (--caller); nullptr: core-mm
};

// Validates the options (hw_events 0..6, cont_ptes a power of two 2..128,
// `all` only up to 8 entries in the scenario's table); throws usage_error
// naming the bad one.
void check_options(const explore_options& o);

// One hardware event of a schedule.  `page` is the page the access is for
// (the landing entry's own page when reduced).
struct placed_event {
	std::size_t point = 0;
	std::size_t entry = 0;
	hw_kind kind = hw_kind::access;
	std::size_t page = 0;
};

struct found_violation {
	violation v;
	std::vector<std::uint64_t> initial;	// the table the scenario started from
	std::vector<placed_event> events;
	history h;	// the schedule's full history
	bool replay_confirms = false;	// a fresh checker over h reports v.prop
	bool rerun_confirms = false;	// a re-run with the harness's planned agent does
	std::vector<std::string> lines;	// the history with rulers, one call per line
};

// Counts are the same on every run and any number of threads (explore()
// says why), unless the time limit cut the search.
struct explore_result {
	std::string strategy;
	explore_options options;	// options.scen is the scenario
	std::size_t entries = 0;	// the table: scenario_runs(scen) runs
	range covered;	// the caller's range in it
	std::uint64_t initial_states = 0;
	std::uint64_t explored = 0;	// schedules run and judged
	std::uint64_t pruned = 0;	// placements skipped as equivalent (subtrees not counted)
	std::uint64_t infeasible = 0;	// schedules whose event found no translation
	double seconds = 0;
	bool complete = true;
	std::optional<found_violation> first;
	std::vector<property> violated;	// every property seen violated, in order
	// The caller broke a caller rule in the scenario (caller_preflight):
	// nothing was explored, since every schedule would judge the strategy
	// on calls the arch code may not be given.
	std::optional<mm::caller_breach> breach;
};

explore_result explore(strategy& s, const explore_options& o);

// Several scenarios, one after another, each searched as explore() does (to
// its first violation, or to the end with all_violations): a flaw shown by
// one caller does not stop the search of the others.  The time limit is
// for the whole sweep.
struct sweep_result {
	std::string strategy;
	explore_options options;
	std::vector<explore_result> runs;	// the scenarios started, in order
	std::vector<scenario> not_run;	// the time limit came before they started
	double seconds = 0;

	bool complete() const;	// every scenario searched to its end or its first violation
	std::size_t failed() const;	// scenarios that showed a violation or a caller's breach
	std::optional<scenario> stopped_in() const;	// where the time limit cut the search
	std::uint64_t explored() const;
};

sweep_result explore_all(strategy& s, const explore_options& o, const std::vector<scenario>& which);

// The initial flag states the options enumerate for the scenario's table,
// one code per entry (0 old+clean, 1 young, 2 dirty, 3 young+dirty).
std::vector<std::vector<std::uint8_t>> initial_states(const explore_options& o);

} // namespace ptespec::explore
