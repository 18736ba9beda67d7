// The explorer: exhaustive on the target case, finds the thread's lost
// update, and its reductions change no verdict.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "explore/explorer.h"
#include "model/errors.h"

namespace ptespec::explore {
namespace {

strategy& get(const char* name) { return registry::global().get(name); }

explore_options small(scenario s, std::size_t cont, int k)
{
	explore_options o;
	o.scen = s;
	o.geo.cont_ptes = cont;
	o.hw_events = k;
	return o;
}

TEST(explore, mainline_exit_one_event_at_cont_16_is_exhaustive_and_clean)
{
	explore_options o = small(scenario::exit, 16, 1);
	const explore_result r = explore(get("mainline"), o);
	EXPECT_TRUE(r.complete);
	EXPECT_FALSE(r.first.has_value()) << (r.first ? r.first->v.message : "");
	EXPECT_GT(r.explored, r.initial_states);	// events were placed, not just initial states
	EXPECT_GT(r.pruned, 0u);
}

TEST(explore, gather_writeback_exit_loses_a_racing_update_and_the_history_replays)
{
	explore_options o = small(scenario::exit, 16, 1);
	const explore_result r = explore(get("gather-writeback"), o);
	ASSERT_TRUE(r.first.has_value());
	EXPECT_EQ(r.first->v.prop, property::no_loss) << r.first->v.message;
	EXPECT_EQ(r.first->events.size(), 1u);
	EXPECT_TRUE(r.first->replay_confirms);
	EXPECT_TRUE(r.first->rerun_confirms);
	for (const auto& l : r.first->lines)
		std::cout << l << "\n";
}

// The mprotect scenario (on request only): a whole run mapped unfolded,
// then changed to read-only in one transaction.  Mainline's commit sets
// CONT over entries whose page translations the TLB may still hold -- with
// no hardware event at all -- and nocont, which never folds, is clean
// exhaustively.
TEST(explore, mprotect_over_an_unfolded_run_fails_well_formed_for_mainline_only)
{
	explore_options o = small(scenario::mprotect, 16, 1);
	const explore_result r = explore(get("mainline"), o);
	ASSERT_TRUE(r.first.has_value());
	EXPECT_EQ(r.first->v.prop, property::well_formed) << r.first->v.message;
	EXPECT_TRUE(r.first->events.empty());
	EXPECT_TRUE(r.first->replay_confirms);
	EXPECT_TRUE(r.first->rerun_confirms);
	const explore_result clean = explore(get("nocont"), o);
	EXPECT_TRUE(clean.complete);
	EXPECT_FALSE(clean.first.has_value()) << (clean.first ? clean.first->v.message : "");
	const std::vector<scenario>& usual = explored_scenarios();
	EXPECT_EQ(std::find(usual.begin(), usual.end(), scenario::mprotect), usual.end());
}

TEST(explore, with_no_events_gather_writeback_exit_holds)
{
	explore_options o = small(scenario::exit, 16, 0);
	EXPECT_FALSE(explore(get("gather-writeback"), o).first.has_value());
}

std::vector<property> sorted(std::vector<property> v)
{
	std::sort(v.begin(), v.end());
	return v;
}

const char* const strategies[] = {"mainline", "gather-writeback", "simple", "robust", "early-return", "clear-block",
				  "unfold"};
const std::vector<scenario>& scenarios = explored_scenarios();

// Soundness of the event reductions on a case small enough to run
// unreduced: every strategy and scenario, K = 1.  The reduced search must
// name exactly the properties the unreduced one names, and run fewer
// schedules.
TEST(explore, event_reductions_keep_every_verdict_of_the_unreduced_search)
{
	for (const char* name : strategies) {
		for (scenario s : scenarios) {
			// dontneed-inner's two runs of 4 cost as much as all
			// the others unreduced: runs of 2 still put an edge
			// inside each.
			explore_options full = small(s, s == scenario::dontneed_inner ? 2 : 4, 1);
			full.reduce = false;
			full.all_violations = true;
			explore_options red = full;
			red.reduce = true;
			const explore_result a = explore(get(name), full);
			const explore_result b = explore(get(name), red);
			EXPECT_EQ(sorted(a.violated), sorted(b.violated)) << name << " " << to_string(s);
			EXPECT_LT(b.explored, a.explored) << name << " " << to_string(s);
		}
	}
}

// The sparse initial states are a bound, not a symmetry: on 4-entry runs
// they must find every property that all 4^4 states find.
TEST(explore, sparse_initial_states_find_what_all_states_find_on_small_runs)
{
	for (const char* name : strategies) {
		for (scenario s : scenarios) {
			// Two runs of 4 would be 4^8 states: dontneed-inner is
			// checked on runs of 2.
			explore_options all = small(s, s == scenario::dontneed_inner ? 2 : 4, 1);
			all.initial = initial_set::all;
			all.all_violations = true;
			explore_options sparse = all;
			sparse.initial = initial_set::sparse;
			const explore_result a = explore(get(name), all);
			const explore_result b = explore(get(name), sparse);
			EXPECT_EQ(sorted(a.violated), sorted(b.violated)) << name << " " << to_string(s);
		}
	}
}

TEST(explore, bad_options_are_usage_errors)
{
	explore_options o;
	o.hw_events = 7;
	EXPECT_THROW(check_options(o), usage_error);
	o.hw_events = -1;
	EXPECT_THROW(check_options(o), usage_error);
	o = explore_options{};
	o.geo.cont_ptes = 12;
	EXPECT_THROW(check_options(o), usage_error);
	o = explore_options{};
	o.initial = initial_set::all;
	EXPECT_THROW(check_options(o), usage_error);	// 4^16 states
	o = explore_options{};
	o.scen = scenario::munmap;	// the cost model's, not the explorer's
	EXPECT_THROW(check_options(o), usage_error);
	o = explore_options{};
	o.scen = scenario::dontneed_inner;
	o.initial = initial_set::all;
	o.geo.cont_ptes = 4;	// two runs: 8 entries, allowed
	EXPECT_NO_THROW(check_options(o));
	o.geo.cont_ptes = 8;	// 16 entries
	EXPECT_THROW(check_options(o), usage_error);
	EXPECT_THROW(parse_scenario("teardown", {scenario::exit, scenario::fork}), usage_error);
	EXPECT_EQ(parse_scenario("madv-free", {scenario::madv_free}), scenario::madv_free);
}

TEST(explore, sparse_initial_states_are_counted_as_documented)
{
	explore_options o = small(scenario::exit, 16, 0);
	o.initial_flagged = 2;
	// none, 16 x 3 single, C(16,2) x 9 pairs, 3 uniform
	EXPECT_EQ(initial_states(o).size(), 1u + 48u + 120u * 9u + 3u);
	o.initial = initial_set::all;
	o.geo.cont_ptes = 4;
	EXPECT_EQ(initial_states(o).size(), 256u);
}

TEST(explore, partial_zaps_have_a_range_edge_inside_a_run)
{
	const geometry g = geometry::of(granule::k4);
	const std::size_t c = g.cont_ptes;
	auto edge_inside = [&](std::size_t x) { return x % c != 0; };
	const range start = scenario_range(scenario::dontneed_start, g, c * scenario_runs(scenario::dontneed_start));
	EXPECT_TRUE(edge_inside(start.first));
	EXPECT_EQ(start.last, c);
	const range end = scenario_range(scenario::dontneed_end, g, c * scenario_runs(scenario::dontneed_end));
	EXPECT_EQ(end.first, 0u);
	EXPECT_TRUE(edge_inside(end.last));
	ASSERT_EQ(scenario_runs(scenario::dontneed_inner), 2u);
	const range inner = scenario_range(scenario::dontneed_inner, g, 2 * c);
	EXPECT_TRUE(edge_inside(inner.first));
	EXPECT_TRUE(edge_inside(inner.last));
	EXPECT_LT(inner.first, c);	// the first run straddles the start
	EXPECT_GT(inner.last, c);	// the second the end
}

// The counts of a search must not depend on the threads: one thread and
// two, twice, on a search that finds a violation (where the threads stop
// at moments of their own) and on one that does not.
TEST(explore, counts_are_the_same_on_every_run_and_any_number_of_threads)
{
	for (const char* name : {"simple", "early-return", "mainline"}) {
		explore_options o = small(scenario::exit_per_entry, 4, 2);
		o.threads = 1;
		const explore_result one = explore(get(name), o);
		for (int rep = 0; rep < 3; rep++) {
			o.threads = 2;
			const explore_result two = explore(get(name), o);
			EXPECT_EQ(two.explored, one.explored) << name << " run " << rep;
			EXPECT_EQ(two.pruned, one.pruned) << name << " run " << rep;
			EXPECT_EQ(two.infeasible, one.infeasible) << name << " run " << rep;
			EXPECT_EQ(two.violated, one.violated) << name << " run " << rep;
			ASSERT_EQ(two.first.has_value(), one.first.has_value()) << name;
			if (one.first) {
				EXPECT_EQ(two.first->initial, one.first->initial) << name;
				EXPECT_EQ(two.first->events.size(), one.first->events.size()) << name;
			}
		}
		// Not vacuous: the search ran many states, and the flawed ones
		// found their flaw after more than one schedule.
		EXPECT_GT(one.initial_states, 2u);
		if (std::string(name) != "mainline") {
			EXPECT_TRUE(one.first.has_value()) << name;
		}
	}
}

// The same for a sweep of every scenario.
TEST(explore, a_sweep_counts_the_same_twice)
{
	explore_options o = small(scenario::exit, 4, 2);
	o.threads = 2;
	const sweep_result a = explore_all(get("clear-block"), o, explored_scenarios());
	const sweep_result b = explore_all(get("clear-block"), o, explored_scenarios());
	ASSERT_EQ(a.runs.size(), explored_scenarios().size());
	ASSERT_EQ(b.runs.size(), a.runs.size());
	for (std::size_t i = 0; i < a.runs.size(); i++) {
		EXPECT_EQ(a.runs[i].explored, b.runs[i].explored) << to_string(a.runs[i].options.scen);
		EXPECT_EQ(a.runs[i].first.has_value(), b.runs[i].first.has_value());
	}
	EXPECT_GT(a.failed(), 0u);
	EXPECT_TRUE(a.complete());
}

TEST(explore, a_time_limit_leaves_the_sweep_incomplete_and_says_where)
{
	explore_options o;	// CONT_PTES 16, K=2: seconds per scenario
	o.time_limit = 0.05;
	const sweep_result r = explore_all(get("mainline"), o, explored_scenarios());
	EXPECT_FALSE(r.complete());
	EXPECT_EQ(r.failed(), 0u);
	ASSERT_TRUE(r.stopped_in().has_value());
	EXPECT_EQ(*r.stopped_in(), scenario::exit);
	ASSERT_EQ(r.runs.size(), 1u);
	EXPECT_FALSE(r.runs[0].complete);
	EXPECT_EQ(r.not_run.size(), explored_scenarios().size() - 1);
}

} // namespace
} // namespace ptespec::explore
