// ptespec test from the outside: the seed comes first, the table, the
// closing line, and the exit code says whether a property failed.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

TEST(cli_test_cmd, mainline_holds_and_exits_0_with_the_seed_first)
{
	const outcome o = run_ptespec({"test", "--strategy", "mainline", "--seed", "7", "--cases", "30"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.out.rfind("seed 7\n", 0), 0u) << o.out;
	EXPECT_NE(o.out.find("8 passed, 0 failed, 0 undecided\n"), std::string::npos) << o.out;
}

TEST(cli_test_cmd, a_failing_pair_exits_1_with_a_counterexample_and_its_reproduce_line)
{
	const outcome o = run_ptespec(
		{"test", "--strategy", "simple", "--property", "per-call", "--seed", "1", "--cases", "1000"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("counterexample: simple fails per-call"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("reproduce: ptespec test --strategy simple --property per-call"), std::string::npos);
	EXPECT_NE(o.out.find("0 passed, 1 failed, 0 undecided\n"), std::string::npos) << o.out;
}

TEST(cli_test_cmd, json_has_the_documented_shape)
{
	const outcome o = run_ptespec({"test", "--strategy", "clear-block", "--property", "isolation", "--property",
				       "precise", "--seed", "1", "--cases", "200", "--json"});
	EXPECT_EQ(o.status, 1) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	EXPECT_EQ(j.at("seed"), 1);
	EXPECT_EQ(j.at("granule"), "4k");
	ASSERT_EQ(j.at("results").size(), 2u);
	for (const auto& r : j.at("results")) {
		EXPECT_EQ(r.at("strategy"), "clear-block");
		const std::string v = r.at("verdict");
		if (r.at("property") == "isolation") {
			EXPECT_EQ(v, "fails");
			EXPECT_TRUE(r.at("counterexample").contains("reproduce"));
		} else {
			EXPECT_EQ(v, "holds");
			EXPECT_TRUE(r.at("counterexample").is_null());
		}
	}
}

TEST(cli_test_cmd, bad_values_are_one_line_and_exit_2)
{
	for (const auto& args : std::vector<std::vector<std::string>>{
		     {"test", "--all", "--cases", "0"},
		     {"test", "--all", "--seed", "abc"},
		     {"test", "--all", "--property", "nope"},
		     {"test", "--all", "--granule", "5k"},
		     {"test", "--strategy", "nope"},
		     {"test"},
	     }) {
		const outcome o = run_ptespec(args);
		EXPECT_EQ(o.status, 2) << o.show();
		EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
	}
}

// --coverage lists every branch of the strategy its cases reached; at the
// defaults every one of mainline's is taken both ways (a write fault on a
// read-only entry is what takes ptep_set_access_flags' permission-change
// branch), and the closing line counts them.
TEST(cli_test_cmd, coverage_shows_every_mainline_branch_taken_both_ways)
{
	// One property: a strategy that holds runs the same cases for each, so
	// one property's run reaches the same branches as all eight (at 1/8 of
	// the time).
	const outcome o =
		run_ptespec({"test", "--strategy", "mainline", "--property", "progress", "--seed", "1", "--coverage"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("branch coverage: mainline"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("impl/mainline.h:"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("contpte_ptep_set_access_flags"), std::string::npos) << o.out;
	EXPECT_EQ(o.out.find("<-- never"), std::string::npos) << o.out;
	const std::size_t at = o.out.find(" sites taken both ways");
	ASSERT_NE(at, std::string::npos) << o.out;
	const std::size_t line = o.out.rfind('\n', at) + 1;
	unsigned both = 0, all = 0;
	ASSERT_EQ(std::sscanf(o.out.c_str() + line, " %u of %u", &both, &all), 2) << o.out.substr(line, 80);
	EXPECT_EQ(both, all);
	EXPECT_GE(all, 20u);
}

} // namespace
} // namespace ptespec::cli_test
