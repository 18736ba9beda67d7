// The prover's children tell the parent where they are: a long obligation
// shows its name and path count while it runs, not only when it ends.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "proofs/isolate.h"

namespace ptespec::proofs {
namespace {

TEST(isolate, a_running_child_reports_its_obligation_and_paths_to_the_parent)
{
	isolated_job job;
	job.strategy = "s";
	job.obligations = {"o/one"};
	job.run = [] {
		proof_result r;
		r.strategy = "s";
		r.obligation = "o/one";
		for (std::size_t k = 1; k <= 12; k++) {
			r.paths = k * 100;
			report_proof_progress(r);
			std::this_thread::sleep_for(std::chrono::milliseconds(100));
		}
		return std::vector<proof_result>{r};
	};
	std::vector<isolated_status> heard;
	const std::vector<proof_result> rs =
		run_isolated({job}, 1, 60, {}, [&](const isolated_status& st) { heard.push_back(st); });
	ASSERT_EQ(rs.size(), 1u);
	EXPECT_EQ(rs[0].paths, 1200u);
	std::size_t most = 0;
	for (const isolated_status& st : heard) {
		EXPECT_EQ(st.total, 1u);
		for (const auto& r : st.running) {
			EXPECT_EQ(r.first, "o/one");
			EXPECT_EQ(r.strategy, "s");
			if (r.paths > 0) {
				EXPECT_EQ(r.obligation, "o/one");
				most = std::max(most, r.paths);
			}
		}
	}
	// The child ran 1.2 s: the parent heard it at least once mid-way.
	EXPECT_GE(most, 100u);
	EXPECT_LT(most, 1200u + 1);
	ASSERT_FALSE(heard.empty());
	EXPECT_EQ(heard.back().ended, 1u);
}

TEST(isolate, a_child_that_says_nothing_is_reported_running_without_paths)
{
	isolated_job job;
	job.obligations = {"quiet"};
	job.run = [] {
		std::this_thread::sleep_for(std::chrono::milliseconds(500));
		proof_result r;
		r.obligation = "quiet";
		return std::vector<proof_result>{r};
	};
	std::vector<isolated_status> heard;
	run_isolated({job}, 1, 60, {}, [&](const isolated_status& st) { heard.push_back(st); });
	bool running_seen = false;
	for (const isolated_status& st : heard)
		for (const auto& r : st.running) {
			running_seen = true;
			EXPECT_EQ(r.paths, 0u);
			EXPECT_EQ(r.obligation, "");
		}
	EXPECT_TRUE(running_seen);
}

} // namespace
} // namespace ptespec::proofs
