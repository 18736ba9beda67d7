// A strategy that reaches outside the table is judged, not reported as
// ptespec's own bug: a batch loop that runs one entry too far fails
// isolation (and the properties its extra clear breaks), a clear that
// flushes the next run's TLB entries fails well-formed where that run is
// past the table.  Exit 1 with a counterexample, never exit 3 -- in test,
// and in prove, where the faulting path is a refutation replayed on the
// concrete machine.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

TEST(cli_out_of_range, a_batch_one_past_its_range_fails_isolation_in_test)
{
	const outcome o = run_ptespec({"--plugin", BATCH_PAST_END_PLUGIN, "test", "--strategy", "test-batch-past-end",
				       "--property", "isolation", "--seed", "1"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("counterexample: test-batch-past-end fails isolation"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("outside its range"), std::string::npos) << o.out;
	EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.show();
}

// At the last entry of the table the extra clear has no entry to land in.
TEST(cli_out_of_range, a_batch_past_the_table_end_is_an_isolation_finding)
{
	bool past_end = false;
	for (int seed = 1; seed <= 20 && !past_end; seed++) {
		const outcome o =
			run_ptespec({"--plugin", BATCH_PAST_END_PLUGIN, "test", "--strategy", "test-batch-past-end",
				     "--property", "isolation", "--seed", std::to_string(seed), "--json"});
		ASSERT_EQ(o.status, 1) << o.show();
		const auto j = nlohmann::json::parse(o.out);
		const std::string msg = j.at("results").at(0).at("counterexample").at("violation").at("message");
		past_end = msg.find("outside the table of") != std::string::npos;
	}
	EXPECT_TRUE(past_end) << "no seed of 1..20 ran the batch into the table's end";
}

TEST(cli_out_of_range, a_flush_of_the_next_run_fails_well_formed_in_test)
{
	const outcome o = run_ptespec({"--plugin", FLUSH_NEXT_RUN_PLUGIN, "test", "--strategy", "test-flush-next-run",
				       "--seed", "1", "--cases", "300"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("test-flush-next-run fails well-formed"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("past the table of"), std::string::npos) << o.out;
	// The faulted call ends its case: nothing after it is blamed on
	// another property.
	EXPECT_NE(o.out.find("7 passed, 1 failed, 0 undecided (2 n/a)"), std::string::npos) << o.out;
}

TEST(cli_out_of_range, check_gives_a_verdict_for_both)
{
	for (const auto& [plugin, name] : {std::pair{BATCH_PAST_END_PLUGIN, "test-batch-past-end"},
					   std::pair{FLUSH_NEXT_RUN_PLUGIN, "test-flush-next-run"}}) {
		const outcome o = run_ptespec({"--plugin", plugin, "check", "--strategy", name, "--cases", "300", "--json"});
		EXPECT_EQ(o.status, 1) << o.show();
		const auto j = nlohmann::json::parse(o.out);
		EXPECT_GE(j.at("totals").at("failed"), 1) << o.out;
	}
}

// The property cell the fault breaks: refuted by the proofs too, although
// no obligation's scope names well-formed.
TEST(cli_out_of_range, check_has_the_proofs_refute_well_formed_for_a_flush_past_the_table)
{
	const outcome o =
		run_ptespec({"--plugin", FLUSH_NEXT_RUN_PLUGIN, "check", "--strategy", "test-flush-next-run", "--cases",
			     "300", "--json"});
	ASSERT_EQ(o.status, 1) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	bool seen = false;
	for (const auto& c : j.at("results")) {
		if (c.at("property") != "well-formed")
			continue;
		seen = true;
		EXPECT_EQ(c.at("test"), "fails") << c.dump();
		EXPECT_EQ(c.at("proof"), "refuted") << c.dump();
	}
	EXPECT_TRUE(seen) << o.out;
}

// prove, through the program: every obligation that runs the faulting call
// is refuted with a counterexample the concrete checker confirms.
void expect_refuted_and_confirmed(const char* plugin, const char* name)
{
	const outcome o = run_ptespec({"--plugin", plugin, "prove", "--strategy", name, "--json"});
	ASSERT_EQ(o.status, 1) << o.show();
	EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	std::size_t refuted = 0;
	for (const auto& r : j.at("results")) {
		if (r.at("strategy") != name)
			continue;
		// Every obligation of these strategies runs a call that breaks
		// something: none is proved or left undecided.
		EXPECT_EQ(r.at("verdict"), "refuted") << r.dump();
		EXPECT_EQ(r.at("replay"), "confirmed") << r.dump();
		refuted += r.at("verdict") == "refuted";
	}
	EXPECT_GE(refuted, 1u) << o.out;
	EXPECT_EQ(j.at("totals").at("failed"), refuted) << o.out;
}

TEST(cli_out_of_range, prove_refutes_a_flush_past_the_table_and_the_replay_confirms_it)
{
	expect_refuted_and_confirmed(FLUSH_NEXT_RUN_PLUGIN, "test-flush-next-run");
}

TEST(cli_out_of_range, prove_refutes_a_batch_past_the_table_and_the_replay_confirms_it)
{
	expect_refuted_and_confirmed(BATCH_PAST_END_PLUGIN, "test-batch-past-end");
}

// The text shows the calls up to the faulting one, the fault, and the
// checker's word on it.
TEST(cli_out_of_range, prove_shows_the_faulting_call_and_the_checker_verdict)
{
	const outcome o = run_ptespec({"--plugin", FLUSH_NEXT_RUN_PLUGIN, "prove", "--strategy", "test-flush-next-run",
				       "--granule", "4k", "--obligation", "exit/batch-"});
	ASSERT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("flushed past the table on a feasible path"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("counterexample (well-formed violated)"), std::string::npos) << o.out;
	const std::size_t get = o.out.find("ptep_get(#0)");
	const std::size_t fault = o.out.find("get_and_clear_full_ptes(#0, nr=16, full=1) -> fault: TLB flush past the table");
	ASSERT_NE(get, std::string::npos) << o.out;
	ASSERT_NE(fault, std::string::npos) << o.out;
	EXPECT_LT(get, fault) << o.out;
	EXPECT_NE(o.out.find("checker: well-formed: get_and_clear_full_ptes(#0, nr=16, full=1) flushed the TLB for "
			     "#16..#31, past the table of 16 entries"),
		  std::string::npos)
		<< o.out;
	EXPECT_NE(o.out.find("replay: confirmed"), std::string::npos) << o.out;
}

} // namespace
} // namespace ptespec::cli_test
