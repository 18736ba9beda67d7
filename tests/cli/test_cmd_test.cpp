// ptespec test from the outside: the seed comes first, the table, the
// closing line, and the exit code says whether a property failed.
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

TEST(cli_test_cmd, mainline_holds_and_exits_0_with_the_seed_first)
{
	// (16K: at 4K mainline's set_ptes loses a migration entry's young bit,
	// docs/findings.md.)
	const outcome o =
		run_ptespec({"test", "--strategy", "mainline", "--seed", "7", "--cases", "30", "--granule", "16k"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.out.rfind("seed 7\n", 0), 0u) << o.out;
	EXPECT_NE(o.out.find("10 passed, 0 failed, 0 undecided\n"), std::string::npos) << o.out;
}

TEST(cli_test_cmd, hardware_other_than_the_default_is_named_after_the_seed)
{
	const outcome o = run_ptespec(
		{"test", "--strategy", "mainline", "--hardware", "bbml2", "--seed", "7", "--cases", "30", "--granule", "16k"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.out.rfind("seed 7\nhardware bbml2\n", 0), 0u) << o.out;
	const outcome plain = run_ptespec({"test", "--strategy", "mainline", "--seed", "7", "--cases", "30"});
	EXPECT_EQ(plain.out.find("\nhardware "), std::string::npos) << plain.out;
	// What did not run is said, and what ran is not: by default the kernel
	// sweep runs the mprotect family and draws BBML2; the core sweep alone
	// has neither; under --hardware bbml2 nothing is drawn.
	const std::string callers =
		"the mprotect, NUMA-hinting, guard-page, MADV_COLD, mremap and migration callers (--sweep all)";
	EXPECT_NE(plain.out.find("sampled in three sweeps: core-mm's everyday callers; then every caller"),
		  std::string::npos)
		<< plain.out;
	EXPECT_NE(unwrapped(plain.out).find("then the hugetlb callers over CONT_PTE and CONT_PMD hugepages, a quarter of the cases"),
		  std::string::npos)
		<< plain.out;
	EXPECT_EQ(plain.out.find("the hugetlb callers (--sweep all)"), std::string::npos) << plain.out;
	EXPECT_EQ(plain.out.find(callers), std::string::npos) << plain.out;
	EXPECT_EQ(plain.out.find("BBML2 hardware ("), std::string::npos) << plain.out;
	const outcome core =
		run_ptespec({"test", "--strategy", "mainline", "--seed", "7", "--cases", "30", "--sweep", "core"});
	EXPECT_NE(core.out.find("sampled in one sweep: core-mm's everyday callers\n"), std::string::npos) << core.out;
	// The not-run line as one line, its wrapping undone.
	std::string flat = core.out;
	for (std::size_t at; (at = flat.find("\n      ")) != std::string::npos;)
		flat.replace(at, 7, " ");
	EXPECT_NE(flat.find("not run: " + callers + ", the hugetlb callers (--sweep all), BBML2 hardware (--sweep all), "
			    "a single CPU (--hardware one-cpu)"),
		  std::string::npos)
		<< core.out;
	EXPECT_EQ(o.out.find(callers), std::string::npos) << o.out;
	EXPECT_EQ(o.out.find("BBML2 hardware ("), std::string::npos) << o.out;
	EXPECT_EQ(o.out.find("BBML2 drawn per case"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("a single CPU (--hardware one-cpu)"), std::string::npos) << o.out;
}

// Every placement of an event in a fork that cuts a folded run, whose
// unfold skips the flush between clear and repaint under BBML2: mainline
// keeps every property, and the heading names the hardware.
TEST(cli_test_cmd, explore_under_bbml2_names_it_and_mainline_holds)
{
	const outcome o = run_ptespec({"explore", "--strategy", "mainline", "--scenario", "fork", "--hw-events", "1",
				       "--hardware", "bbml2"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("explore mainline at 4k, hardware bbml2 "), std::string::npos) << o.out;
}

// The proofs model hardware that manages access/dirty itself: without
// HAFDBS check proves nothing and says so, and every cell is its sampled
// verdict; under bbml2 the proofs run on the same hardware.
TEST(cli_test_cmd, check_without_hafdbs_gives_sampled_verdicts_only_and_under_bbml2_proves)
{
	// The core sweep: the kernel sweep's migrations fail mapping at 4K
	// (docs/findings.md).
	const outcome o = run_ptespec({"check", "--strategy", "mainline", "--cases", "50", "--granule", "4k",
				       "--hardware", "no-hafdbs", "--sweep", "core", "--json"});
	EXPECT_EQ(o.status, 0) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	EXPECT_EQ(j.at("hardware"), "no-hafdbs");
	EXPECT_TRUE(j.at("proofs").empty());
	for (const auto& cell : j.at("results"))
		EXPECT_TRUE(cell.at("proof").is_null()) << cell.dump();

	const outcome b = run_ptespec({"check", "--strategy", "mainline", "--cases", "50", "--granule", "4k",
				       "--hardware", "bbml2", "--sweep", "core"});
	EXPECT_EQ(b.status, 0) << b.show();
	EXPECT_NE(b.out.find("hardware bbml2, 50 cases per pair; proofs: on the same hardware"), std::string::npos)
		<< b.out;
	EXPECT_NE(b.out.find("holds+partly"), std::string::npos) << b.out;
}

TEST(cli_test_cmd, a_failing_pair_exits_1_with_a_counterexample_and_its_reproduce_line)
{
	const outcome o = run_ptespec(
		{"test", "--strategy", "simple", "--property", "per-call", "--seed", "1", "--cases", "1000"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("counterexample: simple fails per-call"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("reproduce: ptespec test --strategy simple --property per-call"), std::string::npos);
	EXPECT_NE(o.out.find("0 passed, 1 failed, 0 undecided\n"), std::string::npos) << o.out;
	// The reproduce line runs as printed and fails the same way.
	const outcome again = run_reproduce_line(o.out);
	EXPECT_EQ(again.status, 1) << again.show();
	EXPECT_NE(again.out.find("counterexample: simple fails per-call"), std::string::npos) << again.show();
}

// A strategy loaded from a plugin: its reproduce line loads it again.
TEST(cli_test_cmd, a_plugins_reproduce_line_loads_the_plugin_and_fails_again)
{
	const outcome o = run_ptespec({"--plugin", BROKEN_PLUGIN, "test", "--strategy", "test-broken-batch", "--property",
				       "batch-or", "--seed", "1"});
	ASSERT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("reproduce: ptespec --plugin " + std::string(BROKEN_PLUGIN) + " test "), std::string::npos)
		<< o.out;
	const outcome again = run_reproduce_line(o.out);
	EXPECT_EQ(again.status, 1) << again.show();
	EXPECT_NE(again.out.find("counterexample: test-broken-batch fails batch-or"), std::string::npos)
		<< again.show();
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
// branch) but one, and the closing line counts them.  The one:
// clear_young_dirty_ptes' one-entry fast path on a CONT entry, which
// today's core-mm never takes -- MADV_FREE, its only caller, calls it over
// whole folios only, and a folio of one page is never CONT.
TEST(cli_test_cmd, coverage_shows_every_mainline_branch_taken_both_ways)
{
	// One property: a strategy that holds runs the same cases for each, so
	// one property's run reaches the same branches as all eight (at 1/8 of
	// the time).
	const outcome o =
		run_ptespec({"test", "--strategy", "mainline", "--property", "progress", "--seed", "1", "--coverage",
			     "--sweep", "core"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("branch coverage: mainline"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("impl/mainline.h:"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("contpte_ptep_set_access_flags"), std::string::npos) << o.out;
	const std::string branches = o.out.substr(0, o.out.find("\nword fields:"));
	const std::size_t never = branches.find("<-- never");
	ASSERT_NE(never, std::string::npos) << o.out;
	const std::size_t never_line = branches.rfind('\n', never) + 1;
	EXPECT_NE(branches.substr(never_line, never - never_line).find("clear_young_dirty_ptes"), std::string::npos)
		<< o.out;
	EXPECT_EQ(branches.find("<-- never", never + 1), std::string::npos) << o.out;
	const std::size_t at = o.out.find(" sites taken both ways");
	ASSERT_NE(at, std::string::npos) << o.out;
	const std::size_t line = o.out.rfind('\n', at) + 1;
	unsigned both = 0, all = 0;
	ASSERT_EQ(std::sscanf(o.out.c_str() + line, " %u of %u", &both, &all), 2) << o.out.substr(line, 80);
	EXPECT_EQ(both + 1, all);
	EXPECT_GE(all, 20u);
}

// The line of one word field under "present values" or "non-present
// values": "    NAME   yes    yes".
std::string field_line(const std::string& out, const std::string& group, const std::string& name)
{
	const std::size_t g = out.find("  " + group + " ");
	if (g == std::string::npos)
		return "";
	const std::size_t at = out.find("\n    " + name + " ", g);
	if (at == std::string::npos)
		return "";
	return out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

// --coverage also lists the fields of the words that reached the strategy,
// each seen 0, 1 or both; the same seed prints the same list.
TEST(cli_test_cmd, coverage_lists_the_word_fields_mainline_met)
{
	const std::vector<std::string> args = {"test",		   "--strategy", "mainline", "--property",
					       "per-call",	   "--seed",	 "1",	     "--cases",
					       "1000",		   "--coverage"};
	const outcome o = run_ptespec(args);
	EXPECT_EQ(o.status, 0) << o.show();
	const std::size_t at = o.out.find("word fields: mainline");
	ASSERT_NE(at, std::string::npos) << o.out;
	const std::string words = o.out.substr(at, o.out.find(" fields seen both ways", at) - at);
	for (const char* f : {"TYPE", "USER", "RDONLY", "SHARED (shareability)", "AF", "nG", "WRITE (DBM)", "CONT", "PXN",
			      "UXN", "DIRTY", "SPECIAL", "pfn at its entry's place in a run", "swap type", "swap offset"})
		EXPECT_NE(words.find(std::string("    ") + f + " "), std::string::npos) << f << " missing:\n" << words;
	// Mainline folds runs (CONT 1) and reads plain entries (CONT 0); a
	// third of the cases shift the folios off alignment, so pfns are met
	// at and off their entry's place; swap entries alias CONT half the time.
	for (const auto& [group, name] :
	     {std::pair{"present values", "CONT"}, std::pair{"present values", "AF"},
	      std::pair{"present values", "pfn at its entry's place in a run"},
	      std::pair{"non-present values", "CONT (swap offset bit 40)"}}) {
		const std::string line = field_line(words, group, name);
		EXPECT_NE(line.find("yes    yes"), std::string::npos) << group << " / " << name << ": '" << line << "'\n"
								 << words;
		EXPECT_EQ(line.find("<--"), std::string::npos) << line;
	}
	// A field the model gives one value only says why beside it.
	const std::string uffd = field_line(words, "non-present values", "SWP_UFFD_WP");
	EXPECT_NE(uffd.find("<-- only 0: userfaultfd is not modelled"), std::string::npos) << uffd;
	// The same seed prints the same coverage: everything from the branch
	// list up to the timing line, which is the one line allowed to differ.
	auto coverage_of = [](const std::string& out) {
		const std::size_t from = out.find("branch coverage:");
		const std::size_t to = out.find(" checked calls in ");
		return from == std::string::npos ? std::string() : out.substr(from, out.rfind('\n', to) - from);
	};
	const outcome again = run_ptespec(args);
	EXPECT_FALSE(coverage_of(o.out).empty()) << o.out;
	EXPECT_EQ(coverage_of(again.out), coverage_of(o.out));
}

} // namespace
} // namespace ptespec::cli_test
