// ptespec prove through the program: a plugin strategy proved and refuted
// in child processes, the JSON the issue specifies, and bad input refused
// with a one-line error and exit 2.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

TEST(cli_prove, a_plugin_whose_batch_drops_entries_is_refuted_and_the_replay_confirms_it)
{
	const outcome o = run_ptespec({"--plugin", BROKEN_PLUGIN, "prove", "--strategy", "test-broken-batch",
				       "--obligation", "batch-or/", "--json"});
	ASSERT_EQ(o.status, 1) << o.show();
	const nlohmann::json j = nlohmann::json::parse(o.out);
	ASSERT_EQ(j.at("results").size(), 1u) << o.out;
	const nlohmann::json& r = j.at("results").at(0);
	EXPECT_EQ(r.at("strategy"), "test-broken-batch");
	EXPECT_EQ(r.at("obligation"), "batch-or/cont16");
	EXPECT_EQ(r.at("granule"), "4k");
	EXPECT_EQ(r.at("verdict"), "refuted");
	EXPECT_EQ(r.at("replay"), "confirmed");
	EXPECT_GE(r.at("paths").get<int>(), 1);
	EXPECT_GE(r.at("seconds").get<double>(), 0.0);
}

// (Its exit teardowns are refuted: the proofs start from folded runs, and a
// strategy that never folds reads only its own entry of one.)
TEST(cli_prove, the_same_plugin_with_its_batch_whole_is_proved)
{
	const outcome o = run_ptespec({"--plugin", PLAIN_PLUGIN, "prove", "--strategy", "test-plain", "--obligation",
				       "batch-or", "--json"});
	ASSERT_EQ(o.status, 0) << o.show();
	const nlohmann::json j = nlohmann::json::parse(o.out);
	ASSERT_EQ(j.at("results").size(), 2u) << o.out;
	for (const nlohmann::json& r : j.at("results")) {
		EXPECT_EQ(r.at("verdict"), "proved") << r.dump();
		EXPECT_TRUE(r.at("replay").is_null()) << r.dump();
	}
}

// The solver's budgets of a path's decisions and of the probes are Z3
// resource units, not time: a process proving robust's lockless read sends
// the same probes whatever the machine and its load, and the same one
// refutes with the same counterexample -- as long as no time safety net
// stops a question first, which the result counts.
TEST(cli_prove, a_probe_refutation_is_the_same_on_every_run)
{
	const std::vector<std::string> args = {"prove", "--strategy", "robust", "--obligation",
					       "lockless/ptep_get_and_clear", "--jobs", "1", "--json"};
	auto refutation = [](const outcome& o) {
		EXPECT_EQ(o.status, 1) << o.show();
		const nlohmann::json r = nlohmann::json::parse(o.out).at("results").at(0);
		EXPECT_EQ(r.at("verdict"), "refuted");
		EXPECT_EQ(r.at("replay"), "confirmed");
		// Every question stopped by its work budget, none by its time
		// net: what the sameness below rests on.
		EXPECT_EQ(r.at("time_stops"), 0) << r.dump();
		const std::string detail = r.at("detail");
		return detail.substr(0, detail.find(" asked")) + "\n" + r.at("counterexample").dump();
	};
	const std::string first = refutation(run_ptespec(args));
	EXPECT_NE(first.find("refuted by probe"), std::string::npos) << first;
	EXPECT_EQ(refutation(run_ptespec(args)), first);
}

TEST(cli_prove, the_text_output_shows_the_counterexample_and_its_replay)
{
	const outcome o = run_ptespec(
		{"--plugin", BROKEN_PLUGIN, "prove", "--strategy", "test-broken-batch", "--obligation", "batch-or/"});
	ASSERT_EQ(o.status, 1) << o.show();
	for (const char* word : {"refuted", "counterexample (batch-or violated)", "get_and_clear_full_ptes(",
				 "checker: batch-or:", "replay: confirmed", "0 passed, 1 failed"})
		EXPECT_NE(o.out.find(word), std::string::npos) << word << " missing from\n" << o.out;
}

TEST(cli_prove, an_obligation_prefix_that_names_nothing_is_refused)
{
	const outcome o = run_ptespec({"prove", "--strategy", "mainline", "--obligation", "batch-and"});
	EXPECT_EQ(o.status, 2) << o.show();
	EXPECT_NE(o.err.find("--obligation 'batch-and'"), std::string::npos) << o.err;
	EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
	EXPECT_EQ(o.out, "");
}

TEST(cli_prove, zero_jobs_is_refused)
{
	const outcome o = run_ptespec({"prove", "--strategy", "mainline", "--jobs", "0"});
	EXPECT_EQ(o.status, 2) << o.show();
	EXPECT_NE(o.err.find("--jobs"), std::string::npos) << o.err;
	EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
}

TEST(cli_prove, a_bad_granule_is_refused)
{
	const outcome o = run_ptespec({"prove", "--strategy", "mainline", "--granule", "8k"});
	EXPECT_EQ(o.status, 2) << o.show();
	EXPECT_NE(o.err.find("8k"), std::string::npos) << o.err;
}

} // namespace
} // namespace ptespec::cli_test
