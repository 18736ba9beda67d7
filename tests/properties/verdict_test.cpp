// What the tool establishes about each (strategy, property) at 4K, asserted.
//
// The failing rows are the negative controls: they show the properties can
// fail, found by checking (the checker never sees a strategy's name).  The
// verdicts were established by `ptespec test --all --seed 1 --cases 2000`;
// docs/thread.md ("What the tool found") explains each failure with its
// counterexample.  If a verdict here changes, the tool's finding changed:
// re-run that command and update both.
//
// Run one: ctest -R 'verdict_at_4k.*/simple_per_call$'
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "impl/strategy.h"
#include "properties/defaults.h"
#include "properties/runner.h"

namespace ptespec {
namespace {

struct expected {
	const char* strategy;
	property prop;
	verdict v;
};

// How a row is printed in a test's name and failure: the cell and the
// verdict it should have, not the struct's bytes.
void PrintTo(const expected& e, std::ostream* os)
{
	*os << e.strategy << ' ' << to_string(e.prop) << ' ' << to_string(e.v);
}

constexpr verdict H = verdict::holds;
constexpr verdict F = verdict::fails;

// Rows in registry order; columns batch-or, no-loss, per-call, precise,
// isolation, well-formed, lockless, progress, permission, mapping.
const std::vector<std::pair<const char*, std::array<verdict, nr_properties>>> table = {
	{"mainline", {H, H, H, H, H, H, H, H, H, H}},
	{"unfold", {H, H, H, H, H, H, H, H, H, H}},
	{"gather-writeback", {H, F, F, H, H, H, H, H, H, H}},
	{"simple", {H, H, F, H, H, H, H, H, H, H}},
	{"robust", {F, H, H, H, H, H, F, H, H, H}},
	{"early-return", {F, H, F, H, H, H, F, H, H, H}},
	{"clear-block", {F, H, H, H, F, F, H, H, H, H}},
	{"valid-cont-young", {H, H, H, H, H, H, H, H, H, H}},
	{"nocont", {H, H, H, H, H, H, H, H, H, H}},
};

std::vector<expected> rows()
{
	std::vector<expected> out;
	for (const auto& [name, verdicts] : table)
		for (std::size_t p = 0; p < nr_properties; p++)
			out.push_back({name, all_properties[p], verdicts[p]});
	return out;
}

// The calls of a shrunk counterexample that did something: a read that
// found none (a fault-around probes every entry of its window) is left out.
std::size_t acting_calls(const property_result& r)
{
	std::size_t n = 0;
	for (const ce_call& c : r.ce.calls)
		n += !(c.call.starts_with("ptep_get(") && c.result.ends_with("(none)"));
	return n;
}

class verdict_at_4k : public ::testing::TestWithParam<expected> {};

TEST_P(verdict_at_4k, is_what_the_tool_established)
{
	const expected e = GetParam();
	run_options o;
	o.seed = 1;
	o.cases = 2000;
	const property_result r = run_property(registry::global().get(e.strategy), e.prop, o);
	ASSERT_EQ(to_string(r.v), to_string(e.v)) << (r.v == verdict::fails ? format_counterexample(r) : "");
	if (r.v == verdict::holds) {
		EXPECT_EQ(r.cases, o.cases);
		return;
	}
	// A failure comes shrunk, names the property it broke, and its
	// reproduce line prints the same counterexample again.
	EXPECT_EQ(r.ce.v.prop, e.prop);
	EXPECT_LE(acting_calls(r), 10u) << format_counterexample(r);
	EXPECT_NE(r.ce.reproduce.find("--seed 1"), std::string::npos);
	const property_result again = run_property(registry::global().get(e.strategy), e.prop, o);
	EXPECT_EQ(format_counterexample(again), format_counterexample(r));
}

std::string row_name(const ::testing::TestParamInfo<expected>& info)
{
	std::string s = std::string(info.param.strategy) + "_" + std::string(to_string(info.param.prop));
	for (char& c : s)
		if (c == '-')
			c = '_';
	return s;
}

INSTANTIATE_TEST_SUITE_P(verdict, verdict_at_4k, ::testing::ValuesIn(rows()), row_name);

// Mainline keeps every property under each hardware option:
// - bbml2: contpte_convert skips the invalidation between clear and
//   repaint; the checker then asks only that old and new translate alike;
// - no-hafdbs: no walker writes an entry, and a fault comes back to
//   ptep_set_access_flags until the entry itself is young (and hw-dirty for
//   a write); mainline updates the whole run there;
// - one-cpu: a local invalidation reaches every TLB there is.
struct hardware_case {
	const char* name;
	hardware_options hw;
};
const hardware_case hardware_cases[] = {
	{"bbml2", {.bbml2_noabort = true}},
	{"no_hafdbs", {.no_hafdbs = true}},
	{"one_cpu", {.one_cpu = true}},
};

class mainline_under_hardware : public ::testing::TestWithParam<std::tuple<hardware_case, property>> {};

TEST_P(mainline_under_hardware, holds)
{
	run_options o;
	o.seed = 1;
	o.cases = 2000;
	o.hw = std::get<0>(GetParam()).hw;
	const property_result r = run_property(registry::global().get("mainline"), std::get<1>(GetParam()), o);
	EXPECT_EQ(to_string(r.v), "holds") << (r.v == verdict::fails ? format_counterexample(r) : "");
}

INSTANTIATE_TEST_SUITE_P(verdict, mainline_under_hardware,
			 ::testing::Combine(::testing::ValuesIn(hardware_cases), ::testing::ValuesIn(all_properties)),
			 [](const ::testing::TestParamInfo<std::tuple<hardware_case, property>>& info) {
				 std::string s = std::string(std::get<0>(info.param).name) + "_" +
						 std::string(to_string(std::get<1>(info.param)));
				 for (char& c : s)
					 if (c == '-')
						 c = '_';
				 return s;
			 });

// The larger granules: every failure found at 4K is found at 16K (CONT_PTES
// 128) and 64K (32) too, shrunk as small; mainline holds there as well (with
// fewer cases: a 16K table is 384 entries).
struct at_granule {
	granule g;
	const char* strategy;
	property prop;
	verdict v;
};

void PrintTo(const at_granule& e, std::ostream* os)
{
	*os << to_string(e.g) << ' ' << e.strategy << ' ' << to_string(e.prop) << ' ' << to_string(e.v);
}

std::vector<at_granule> granule_rows()
{
	std::vector<at_granule> out;
	for (granule g : {granule::k16, granule::k64}) {
		for (const auto& [name, verdicts] : table)
			for (std::size_t p = 0; p < nr_properties; p++)
				if (verdicts[p] == F)
					out.push_back({g, name, all_properties[p], F});
		for (property p : all_properties)
			out.push_back({g, "mainline", p, H});
	}
	return out;
}

class verdict_at_granule : public ::testing::TestWithParam<at_granule> {};

TEST_P(verdict_at_granule, matches_4k)
{
	const at_granule e = GetParam();
	run_options o;
	o.gran = e.g;
	o.seed = 1;
	// A flawed cell gets the budget a user's run gives it (it stops at the
	// first failure), a sound one a smoke test's.
	o.cases = e.v == F ? default_cases(e.g, e.prop) : 100;
	const property_result r = run_property(registry::global().get(e.strategy), e.prop, o);
	ASSERT_EQ(to_string(r.v), to_string(e.v)) << (r.v == verdict::fails ? format_counterexample(r) : "");
	if (r.v == verdict::fails) {
		EXPECT_LE(acting_calls(r), 10u) << format_counterexample(r);
	}
}

std::string granule_row_name(const ::testing::TestParamInfo<at_granule>& info)
{
	std::string s = std::string(to_string(info.param.g)) + "_" + info.param.strategy + "_" +
			std::string(to_string(info.param.prop));
	for (char& c : s)
		if (c == '-')
			c = '_';
	return s;
}

INSTANTIATE_TEST_SUITE_P(verdict, verdict_at_granule, ::testing::ValuesIn(granule_rows()), granule_row_name);

// Every registered strategy has a row: a new strategy gets its verdicts
// recorded here, not silently skipped.
TEST(verdict_table, covers_every_registered_strategy)
{
	for (strategy* s : registry::global().all()) {
		if (s->info().origin != "builtin")
			continue;
		bool found = false;
		for (const auto& [name, v] : table)
			found = found || s->info().name == name;
		EXPECT_TRUE(found) << s->info().name << " has no row in the verdict table";
	}
}

} // namespace
} // namespace ptespec
