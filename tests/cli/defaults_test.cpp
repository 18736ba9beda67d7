// The default case count finds every builtin flawed cell: with no --cases,
// each (strategy, property) that fails at 4K fails on each of seeds 1-20.
// The cells are the verdict table's failing rows (tests/properties/
// verdict_test.cpp); the tool finds them by checking.  The margin behind the
// default, over 100 seeds and every granule, is bench/bench_defaults'
// (docs/performance.md).
#include <string>
#include <vector>

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
			// In the first sweep, the stream the defaults were measured on.
			EXPECT_EQ(r.at("counterexample").at("sweep"), "core") << strategy << " " << prop << " seed " << seed;
		}
}

// The defaults' second sweep (every caller, swarm testing) reaches the
// PROT_NONE young widening, which core-mm's everyday callers never make:
// mainline's young call rewrites a guard marker outside its range; the
// core sweep alone holds, and so does the fix, in both.
TEST(cli_defaults, the_kernel_sweep_reaches_the_young_widening_the_core_sweep_does_not)
{
	auto isolation = [](const char* strategy, const char* sweep) {
		std::vector<std::string> args{"test", "--strategy", strategy, "--property", "isolation", "--seed", "8",
					      "--cases", "400", "--json"};
		if (*sweep)
			args.insert(args.end(), {"--sweep", sweep});
		const outcome o = run_ptespec(args);
		EXPECT_TRUE(o.status == 0 || o.status == 1) << o.show();
		return nlohmann::json::parse(o.out).at("results").at(0);
	};
	const auto wide = isolation("mainline", "");
	ASSERT_EQ(wide.at("verdict"), "fails") << wide.dump(2);
	EXPECT_EQ(wide.at("counterexample").at("sweep"), "kernel");
	const std::string why = wide.at("counterexample").at("violation").at("message");
	EXPECT_NE(why.find("0x00000000000047c0 -> 0x00000000000043c0"), std::string::npos) << why;
	EXPECT_NE(wide.at("counterexample").at("reproduce").get<std::string>().find(" --sweep kernel"),
		  std::string::npos);
	EXPECT_EQ(isolation("mainline", "core").at("verdict"), "holds");
	EXPECT_EQ(isolation("valid-cont-young", "").at("verdict"), "holds");
}

} // namespace
} // namespace ptespec::cli_test
