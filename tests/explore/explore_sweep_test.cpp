// The explorer's sweep over every scenario, on every builtin: the thread's
// claims, checked exhaustively at a small bound.  A binary of its own: a
// sweep is minutes of the same code paths the explorer's other tests run.
#include <gtest/gtest.h>

#include "explore/explorer.h"

namespace ptespec::explore {
namespace {

// What the default sweep finds, scaled down to runs of 4 so the test stays
// short (the CLI at CONT_PTES 16 finds the same; see the report of
// `ptespec explore`).  The explorer is never told which strategy is
// flawed: the expectations here are the thread's claims, checked.
TEST(explore, the_sweep_finds_the_flawed_builtins_and_clears_the_sound_ones)
{
	struct expected {
		const char* name;
		bool flawed;
	};
	const expected builtins[] = {{"mainline", false},	 {"unfold", false},     {"nocont", false},
				     {"gather-writeback", true}, {"simple", true},      {"early-return", true},
				     {"clear-block", true},	 {"robust", true}};	// robust: batch-or in exit-split
	for (const expected& e : builtins) {
		explore_options o;
		o.scen = scenario::exit;
		o.geo.cont_ptes = 4;
		o.hw_events = 2;
		const sweep_result r = explore_all(registry::global().get(e.name), o, explored_scenarios());
		EXPECT_TRUE(r.complete()) << e.name;
		EXPECT_EQ(r.failed() > 0, e.flawed) << e.name;
		for (const explore_result& one : r.runs)
			if (one.first) {
				EXPECT_TRUE(one.first->replay_confirms) << e.name << " " << to_string(one.options.scen);
				EXPECT_TRUE(one.first->rerun_confirms) << e.name << " " << to_string(one.options.scen);
			}
	}
}

} // namespace
} // namespace ptespec::explore
