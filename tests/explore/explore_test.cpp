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
const scenario scenarios[] = {scenario::exit, scenario::dontneed, scenario::fork, scenario::madv_free};

// Soundness of the event reductions on a case small enough to run
// unreduced: every strategy and scenario, K = 1.  The reduced search must
// name exactly the properties the unreduced one names, and run fewer
// schedules.
TEST(explore, event_reductions_keep_every_verdict_of_the_unreduced_search)
{
	for (const char* name : strategies) {
		for (scenario s : scenarios) {
			explore_options full = small(s, 4, 1);
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
			explore_options all = small(s, 4, 1);
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

} // namespace
} // namespace ptespec::explore
