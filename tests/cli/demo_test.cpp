// ptespec demo: the seed comes first and reproduces the run; the verdict
// decides the exit code; the transcript draws the table.

#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "run.h"

namespace ptespec::cli_test {
namespace {

outcome demo(std::vector<std::string> extra, const char* plugin = PLAIN_PLUGIN)
{
	std::vector<std::string> args{"--plugin", plugin, "demo"};
	args.insert(args.end(), extra.begin(), extra.end());
	return run_ptespec(args);
}

TEST(cli_demo, seed_is_printed_first_and_reproduces_the_run)
{
	const outcome a = demo({"--strategy", "test-plain", "--seed", "42"});
	const outcome b = demo({"--strategy", "test-plain", "--seed", "42"});
	ASSERT_EQ(a.status, 0) << a.show();
	EXPECT_TRUE(a.out.starts_with("seed 42\n")) << a.out;
	EXPECT_EQ(a.out, b.out);
	EXPECT_EQ(a.err, "");
}

TEST(cli_demo, drawn_seed_can_be_given_back)
{
	const outcome a = demo({"--strategy", "test-plain"});
	ASSERT_EQ(a.status, 0) << a.show();
	std::smatch m;
	ASSERT_TRUE(std::regex_search(a.out, m, std::regex("^seed ([0-9]+)\n"))) << a.out;
	EXPECT_NE(a.out.find("--seed " + m[1].str() + " "), std::string::npos) << "rerun line names the seed";
	const outcome b = demo({"--strategy", "test-plain", "--seed", m[1].str()});
	EXPECT_EQ(a.out, b.out);
}

TEST(cli_demo, different_seeds_race_differently)
{
	// Hardware events are the only source of difference; across a few
	// seeds at least two transcripts must differ beyond the seed lines.
	std::set<std::string> bodies;
	for (const char* seed : {"1", "2", "3", "4"}) {
		const outcome o = demo({"--strategy", "test-plain", "--seed", seed});
		ASSERT_EQ(o.status, 0) << o.show();
		std::string body;
		for (const auto& l : lines_of(o.out))
			if (l.find(seed) == std::string::npos)
				body += l + "\n";
		bodies.insert(body);
	}
	EXPECT_GE(bodies.size(), 2u);
}

TEST(cli_demo, transcript_has_legend_rulers_ledger_and_every_property)
{
	const outcome o = demo({"--strategy", "test-plain", "--seed", "7"});
	ASSERT_EQ(o.status, 0) << o.show();
	for (const char* word : {"legend", "initial", "set_ptes(#0", "get_and_clear_full_ptes(#0, nr=16, full=1)",
				 "ledger before exit", "ledger after exit", "verdict"})
		EXPECT_NE(o.out.find(word), std::string::npos) << word << " missing";
	for (const char* p : {"batch-or", "no-loss", "per-call", "precise", "isolation", "well-formed", "lockless",
			      "progress"})
		EXPECT_TRUE(std::regex_search(o.out, std::regex(std::string("\n  ") + p + " +(holds|n/a)")))
			<< p << " has no verdict in\n" << o.out;
	// 4K: 32 entries, two runs, as one ruler line; the mapped table first.
	EXPECT_NE(o.out.find("|oooooooooooooooo|oooo............|"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("|................|................|"), std::string::npos) << o.out;
}

TEST(cli_demo, every_granule_runs)
{
	for (const char* g : {"4k", "16k", "64k"}) {
		const outcome o = demo({"--strategy", "test-plain", "--granule", g, "--seed", "5"});
		EXPECT_EQ(o.status, 0) << g << "\n" << o.show();
		EXPECT_NE(o.out.find(std::string("granule   ") + g), std::string::npos) << o.out;
	}
	// 16K: CONT_PTES 128, so the batch over folio A clears 128 entries.
	const outcome o = demo({"--strategy", "test-plain", "--granule", "16K", "--seed", "5"});
	EXPECT_NE(o.out.find("get_and_clear_full_ptes(#0, nr=128, full=1)"), std::string::npos) << o.out;
}

TEST(cli_demo, per_entry_teardown_clears_one_entry_per_call)
{
	const outcome o = demo({"--strategy", "test-plain", "--seed", "3", "--per-entry"});
	ASSERT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.out.find("] get_and_clear_full_ptes("), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("ptep_get_and_clear_full(#15, full=1)"), std::string::npos);
	EXPECT_TRUE(std::regex_search(o.out, std::regex("batch-or +n/a"))) << o.out;
}

TEST(cli_demo, primitives_shows_what_the_strategy_did_to_the_table)
{
	const outcome quiet = demo({"--strategy", "test-plain", "--seed", "9"});
	const outcome loud = demo({"--strategy", "test-plain", "--seed", "9", "--primitives"});
	ASSERT_EQ(loud.status, 0) << loud.show();
	EXPECT_EQ(quiet.out.find("xchg"), std::string::npos);
	// test-plain maps with plain writes and clears with exchanges.
	EXPECT_TRUE(std::regex_search(loud.out, std::regex("\n +write +#0: 0x0+ -> 0x"))) << loud.out;
	EXPECT_TRUE(std::regex_search(loud.out, std::regex("\n +xchg +#15: 0x[0-9a-f]+ -> 0x0+\n"))) << loud.out;
}

TEST(cli_demo, failed_property_exits_1_and_names_the_call)
{
	const outcome o = demo({"--strategy", "test-broken-batch", "--seed", "1"}, BROKEN_PLUGIN);
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_TRUE(std::regex_search(o.out, std::regex("batch-or +FAILS +in \\[[0-9]+\\] get_and_clear_full_ptes")))
		<< o.out;
	EXPECT_NE(o.out.find("!! batch-or fails"), std::string::npos) << "flagged under the call";
	EXPECT_EQ(o.err, "");
}

TEST(cli_demo, strategy_without_set_ptes_is_bad_usage)
{
	const outcome o = demo({"--strategy", "test-no-map", "--seed", "1"}, NO_MAP_PLUGIN);
	expect_one_line_usage_error(o, "strategy 'test-no-map' does not implement set_ptes");
}

// Mainline is the design the thread settled on: the demo's race must find
// nothing against it, batched or entry by entry, at any granule.
TEST(cli_demo, mainline_holds_for_the_first_seeds)
{
	for (const char* g : {"4k", "16k", "64k"})
		for (int seed = 1; seed <= 10; seed++)
			for (bool per_entry : {false, true}) {
				std::vector<std::string> args{"demo", "--granule", g, "--seed", std::to_string(seed)};
				if (per_entry)
					args.push_back("--per-entry");
				const outcome o = run_ptespec(args);
				ASSERT_EQ(o.status, 0) << o.show();
			}
}

} // namespace
} // namespace ptespec::cli_test
