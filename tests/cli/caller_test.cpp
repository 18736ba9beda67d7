// --caller: a caller variant drives the calls, and every call it makes is
// held to the caller rules before the strategy sees it.  The control is
// test-batch-past-folio (tests/mm/batch_past_folio.h, loaded as a plugin):
// each command names it, its rule and the call, and exits 1; run-batch
// (examples/plugin/run_batch.cpp) keeps the rules and mainline holds.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

const std::string bad_caller = "test-batch-past-folio";

outcome with_bad_caller(std::vector<std::string> args)
{
	args.insert(args.begin(), {"--plugin", BATCH_PAST_FOLIO_PLUGIN});
	args.insert(args.end(), {"--caller", bad_caller});
	return run_ptespec(args);
}

TEST(cli_caller, an_unknown_caller_is_one_line_naming_the_known_ones)
{
	for (const char* cmd : {"test", "check", "explore", "cost", "demo"}) {
		std::vector<std::string> args{cmd, "--caller", "nope", "--strategy", "mainline"};
		expect_one_line_usage_error(run_ptespec(args), "--caller 'nope': unknown; expected one of: core-mm, ");
	}
}

TEST(cli_caller, list_shows_the_callers_with_a_plugin_s_origin)
{
	const outcome o = run_ptespec({"--plugin", RUN_BATCH_PLUGIN, "list", "--json"});
	ASSERT_EQ(o.status, 0) << o.show();
	const nlohmann::json callers = nlohmann::json::parse(o.out)["callers"];
	ASSERT_GE(callers.size(), 3u) << o.out;
	EXPECT_EQ(callers[0]["name"], "core-mm");
	EXPECT_EQ(callers.back()["name"], "run-batch");
	EXPECT_EQ(callers.back()["origin"], RUN_BATCH_PLUGIN);
}

TEST(cli_caller, test_names_the_caller_and_its_rule_not_the_strategy)
{
	const outcome o =
		with_bad_caller({"test", "--strategy", "mainline", "--property", "no-loss", "--seed", "1"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("caller " + bad_caller + ": "), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("\nmainline   CALLER\n"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("counterexample: caller " + bad_caller + " breaks the caller rule one-folio"),
		  std::string::npos)
		<< o.show();
	EXPECT_NE(o.out.find("get_and_clear_full_ptes("), std::string::npos) << o.show();
	EXPECT_EQ(o.out.find("FAILS"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("--caller " + bad_caller), std::string::npos) << "the reproduce line";
	// The reproduce line runs as printed: it loads the caller's plugin.
	EXPECT_NE(o.out.find("--plugin " + std::string(BATCH_PAST_FOLIO_PLUGIN)), std::string::npos) << o.out;
	const outcome again = run_reproduce_line(o.out);
	EXPECT_EQ(again.status, 1) << again.show();
	EXPECT_NE(again.out.find("counterexample: caller " + bad_caller), std::string::npos) << again.show();
}

TEST(cli_caller, test_json_carries_the_caller_and_the_rule)
{
	const outcome o = with_bad_caller(
		{"test", "--strategy", "mainline", "--property", "no-loss", "--seed", "1", "--json"});
	ASSERT_EQ(o.status, 1) << o.show();
	const nlohmann::json j = nlohmann::json::parse(o.out);
	EXPECT_EQ(j["caller"], bad_caller);
	const nlohmann::json& v = j["results"][0]["counterexample"]["violation"];
	EXPECT_EQ(v["caller"], bad_caller);
	EXPECT_EQ(v["caller_rule"], "one-folio");
}

TEST(cli_caller, a_caller_that_keeps_the_rules_leaves_mainline_holding)
{
	const outcome o = run_ptespec({"--plugin", RUN_BATCH_PLUGIN, "test", "--caller", "run-batch", "--strategy",
				       "mainline", "--property", "batch-or", "--property", "no-loss", "--seed", "1",
				       "--cases", "200"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("caller run-batch: "), std::string::npos) << o.show();
}

TEST(cli_caller, demo_explore_and_cost_stop_at_the_breach)
{
	const outcome d = with_bad_caller({"demo", "--strategy", "mainline", "--seed", "1"});
	EXPECT_EQ(d.status, 1) << d.show();
	EXPECT_NE(d.out.find("caller-rules FAILS  caller " + bad_caller + " breaks one-folio"), std::string::npos)
		<< d.show();

	const outcome e = with_bad_caller({"explore", "--strategy", "mainline", "--scenario", "dontneed-inner",
					   "--hw-events", "0"});
	EXPECT_EQ(e.status, 1) << e.show();
	EXPECT_NE(e.out.find("CALLER in dontneed-inner: caller " + bad_caller + " breaks one-folio"),
		  std::string::npos)
		<< e.show();

	const outcome c = with_bad_caller({"cost", "--strategy", "mainline", "--folios", "4"});
	EXPECT_EQ(c.status, 1) << c.show();
	EXPECT_NE(c.out.find("caller " + bad_caller + " breaks one-folio"), std::string::npos) << c.show();
}

TEST(cli_caller, core_mm_by_name_changes_no_byte)
{
	const std::vector<std::string> args{"test", "--strategy", "mainline", "--property", "per-call",
					    "--seed", "7", "--cases", "50"};
	std::vector<std::string> named = args;
	named.insert(named.end(), {"--caller", "core-mm"});
	const outcome a = run_ptespec(args), b = run_ptespec(named);
	ASSERT_EQ(a.status, 0) << a.show();
	auto without_time = [](std::string s) { return s.substr(0, s.find(" checked calls in ")); };
	EXPECT_EQ(without_time(a.out), without_time(b.out));
}

} // namespace
} // namespace ptespec::cli_test
