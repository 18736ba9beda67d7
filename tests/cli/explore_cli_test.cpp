// ptespec explore as a user meets it: what --help says the default covers,
// one line per scenario, a verdict scoped to what was searched, exit codes
// 0 / 1 / 4, the same counts twice, and the JSON schema.  Runs are scaled
// to CONT_PTES 4 to stay short.

#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

const char* const all_scenarios[] = {"exit",	       "exit-per-entry", "exit-split", "dontneed-start",
				     "dontneed-end",   "dontneed-inner", "fork",       "madv-free"};

TEST(cli_explore, help_says_the_default_explores_every_scenario)
{
	const outcome o = run_ptespec({"explore", "--help"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("By default every scenario"), std::string::npos) << o.out;
	for (const char* s : all_scenarios)
		EXPECT_NE(o.out.find(s), std::string::npos) << s << " missing from\n" << o.out;
	EXPECT_NE(o.out.find("INCOMPLETE, exit 4"), std::string::npos) << o.out;
}

TEST(cli_explore, a_sound_strategy_gets_a_line_per_scenario_and_a_scoped_verdict)
{
	const outcome o = run_ptespec({"explore", "--strategy", "mainline", "--cont-ptes", "4", "--hw-events", "1"});
	EXPECT_EQ(o.status, 0) << o.show();
	const auto lines = lines_of(o.out);
	for (const char* s : all_scenarios) {
		const auto it = std::find_if(lines.begin(), lines.end(),
					     [&](const std::string& l) { return l.starts_with(std::string(s) + ": "); });
		ASSERT_NE(it, lines.end()) << s << " has no line in\n" << o.out;
		EXPECT_NE(it->find("K=1"), std::string::npos) << *it;
		EXPECT_NE(it->find("initial states"), std::string::npos) << *it;
		EXPECT_NE(it->find("schedules"), std::string::npos) << *it;
		EXPECT_NE(it->find("no violation"), std::string::npos) << *it;
	}
	ASSERT_FALSE(lines.empty());
	EXPECT_EQ(lines.back(), "exhaustive over 8 scenarios, up to 1 hardware event, sparse initial states (<=1 "
				"flagged): no violation")
		<< o.out;
}

TEST(cli_explore, a_flaw_in_any_scenario_exits_1_and_names_the_scenario)
{
	const outcome o = run_ptespec({"explore", "--strategy", "clear-block", "--cont-ptes", "4"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("VIOLATION isolation in dontneed-start"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("confirmed: replayed history yes, re-run with the planned agent yes"), std::string::npos)
		<< o.out;
	const auto lines = lines_of(o.out);
	ASSERT_FALSE(lines.empty());
	EXPECT_TRUE(lines.back().starts_with("violation in ")) << lines.back();
	EXPECT_NE(lines.back().find("dontneed-start"), std::string::npos) << lines.back();
}

TEST(cli_explore, the_time_limit_makes_the_search_incomplete_and_exits_4)
{
	// CONT_PTES 16 and K=2: the first scenario alone takes seconds.
	const outcome o = run_ptespec({"explore", "--strategy", "mainline", "--time-limit", "0.05"});
	EXPECT_EQ(o.status, 4) << o.show();
	EXPECT_NE(o.out.find("INCOMPLETE"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("stopped the search in scenario exit"), std::string::npos) << o.out;
	EXPECT_EQ(o.out.find("exhaustive"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("fork: copy_pte_range: ptep_get + wrprotect_ptes; not started"), std::string::npos)
		<< o.out;
}

// Timing aside, the same command prints the same thing.
TEST(cli_explore, the_same_command_prints_the_same_counts_twice)
{
	const std::regex seconds("[0-9]+\\.[0-9]+ s");
	for (const char* s : {"simple", "gather-writeback"}) {
		const std::vector<std::string> args{"explore", "--strategy", s, "--cont-ptes", "4"};
		const outcome a = run_ptespec(args);
		const outcome b = run_ptespec(args);
		EXPECT_EQ(a.status, 1) << a.show();
		EXPECT_EQ(b.status, a.status) << b.show();
		EXPECT_EQ(std::regex_replace(a.out, seconds, "T"), std::regex_replace(b.out, seconds, "T")) << s;
	}
}

TEST(cli_explore, json_has_a_schema_and_a_list_of_scenarios)
{
	const outcome o = run_ptespec(
		{"explore", "--strategy", "simple", "--cont-ptes", "4", "--hw-events", "1", "--json"});
	EXPECT_EQ(o.status, 1) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	EXPECT_EQ(j["schema"], 1);
	EXPECT_EQ(j["verdict"], "violation");
	EXPECT_EQ(j["complete"], true);
	ASSERT_EQ(j["scenarios"].size(), 8u);
	std::size_t violations = 0;
	for (std::size_t i = 0; i < 8; i++) {
		const auto& s = j["scenarios"][i];
		EXPECT_EQ(s["scenario"], all_scenarios[i]);
		EXPECT_FALSE(s["calls"].get<std::string>().empty());
		EXPECT_GT(s["initial_states"].get<int>(), 0);
		EXPECT_GT(s["explored"].get<int>(), 0);
		if (s["status"] == "violation") {
			violations++;
			EXPECT_FALSE(s["violation"].is_null());
		}
	}
	EXPECT_GT(violations, 0u);
}

TEST(cli_explore, one_scenario_by_name_and_bad_names_are_usage_errors)
{
	const outcome o = run_ptespec({"explore", "--strategy", "mainline", "--cont-ptes", "4", "--scenario",
				       "dontneed-inner", "--hw-events", "1"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("dontneed-inner: "), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("|..##|##..|"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("exhaustive over 1 scenario,"), std::string::npos) << o.out;
	expect_one_line_usage_error(run_ptespec({"explore", "--strategy", "mainline", "--scenario", "munmap"}),
				    "--scenario 'munmap': expected one of all, exit, exit-per-entry");
	expect_one_line_usage_error(run_ptespec({"explore", "--strategy", "mainline", "--time-limit", "-1"}),
				    "--time-limit -1");
}

} // namespace
} // namespace ptespec::cli_test
