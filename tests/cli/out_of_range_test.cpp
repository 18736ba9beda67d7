// A strategy that reaches outside the table is judged, not reported as
// ptespec's own bug: a batch loop that runs one entry too far fails
// isolation (and the properties its extra clear breaks), a clear that
// flushes the next run's TLB entries fails well-formed where that run is
// past the table.  Exit 1 with a counterexample, never exit 3.
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
				       "--seed", "1"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("test-flush-next-run fails well-formed"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("past the table of"), std::string::npos) << o.out;
	// The faulted call ends its case: nothing after it is blamed on
	// another property.
	EXPECT_NE(o.out.find("5 passed, 1 failed, 0 undecided (2 n/a)"), std::string::npos) << o.out;
}

TEST(cli_out_of_range, check_gives_a_verdict_for_both)
{
	for (const auto& [plugin, name] : {std::pair{BATCH_PAST_END_PLUGIN, "test-batch-past-end"},
					   std::pair{FLUSH_NEXT_RUN_PLUGIN, "test-flush-next-run"}}) {
		const outcome o = run_ptespec({"--plugin", plugin, "check", "--strategy", name, "--json"});
		EXPECT_EQ(o.status, 1) << o.show();
		const auto j = nlohmann::json::parse(o.out);
		EXPECT_GE(j.at("totals").at("failed"), 1) << o.out;
	}
}

} // namespace
} // namespace ptespec::cli_test
