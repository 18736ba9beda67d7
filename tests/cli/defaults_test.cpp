// The default case count finds every builtin flawed cell: with no --cases,
// each (strategy, property) that fails at 4K fails on each of seeds 1-20.
// The cells are the verdict table's failing rows (tests/properties/
// verdict_test.cpp); the tool finds them by checking.  The margin behind the
// default, over 100 seeds and every granule, is bench/bench_defaults'
// (docs/performance.md).
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

// Under the sanitizers (CI's build) seeds 1-5: each run is some ten times
// slower there and the seeds add no code path; the unsanitized build, the
// README's test command, runs all twenty.
#ifdef PTESPEC_SANITIZED
constexpr int last_seed = 5;
#else
constexpr int last_seed = 20;
#endif

TEST(cli_defaults, every_flawed_cell_fails_at_the_default_on_seeds_1_to_20)
{
	const std::pair<const char*, const char*> flawed[] = {
		{"gather-writeback", "no-loss"}, {"gather-writeback", "per-call"}, {"simple", "per-call"},
		{"robust", "batch-or"},		 {"early-return", "batch-or"},	   {"early-return", "per-call"},
		{"clear-block", "batch-or"},	 {"clear-block", "isolation"},	   {"robust", "lockless"},
		{"early-return", "lockless"},	 {"clear-block", "well-formed"},
	};
	for (const auto& [strategy, prop] : flawed)
		for (int seed = 1; seed <= last_seed; seed++) {
			const outcome o = run_ptespec({"test", "--strategy", strategy, "--property", prop, "--seed",
						       std::to_string(seed), "--json"});
			ASSERT_EQ(o.status, 1) << strategy << " " << prop << " seed " << seed << "\n" << o.show();
			const auto r = nlohmann::json::parse(o.out).at("results").at(0);
			EXPECT_EQ(r.at("verdict"), "fails") << strategy << " " << prop << " seed " << seed;
		}
}

} // namespace
} // namespace ptespec::cli_test
