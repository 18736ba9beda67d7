// The verdict table check and report print, computed by the library: how a
// cell folds its sampled verdict and the proofs' word, and when the proofs
// are not asked at all.
#include <gtest/gtest.h>

#include "impl/strategy.h"
#include "verdicts/table.h"

namespace ptespec::verdicts {
namespace {

const cell& cell_of(const verdict_table& vt, property p)
{
	for (const cell& c : vt.cells)
		if (c.test.prop == p)
			return c;
	throw std::logic_error("no cell for " + std::string(to_string(p)));
}

table_options one_case_per_cell()
{
	table_options t;
	t.proof.schedule.jobs = 1;
	t.cases = 1;
	t.seed = 1;
	return t;
}

// simple's full clear returns the entry's own flags: the per-call obligation
// refutes it, and the cell fails whatever its single sampled case said.
TEST(verdict_table, a_refuted_obligation_fails_its_cell_whatever_the_sample_says)
{
	strategy& simple = registry::global().get("simple");
	table_options t = one_case_per_cell();
	t.proof.only = {"per-call/one-call"};
	const verdict_table vt = compute_verdicts({&simple}, {granule::k4}, t, {});
	ASSERT_EQ(vt.cells.size(), nr_properties);
	const cell& pc = cell_of(vt, property::per_call);
	EXPECT_EQ(pc.proof, "refuted");
	EXPECT_EQ(pc.out, outcome::failed);
	EXPECT_NE(pc.word.find("+refuted"), std::string::npos) << pc.word;
	EXPECT_FALSE(pc.sampled_only);
	// The other cells had no obligation: their own sampled verdict, a
	// property one case never exercised undecided.
	const cell& iso = cell_of(vt, property::isolation);
	EXPECT_EQ(iso.proof, "");
	const outcome sampled = iso.test.v == verdict::fails		? outcome::failed
				: iso.test.v == verdict::not_exercised ? outcome::undecided
								       : outcome::passed;
	EXPECT_EQ(iso.out, sampled) << iso.word;
	std::size_t counted = 0;
	for (std::size_t n : vt.counts)
		counted += n;
	EXPECT_EQ(counted, vt.cells.size());
	EXPECT_GE(vt.failed(), 1u);
}

// The proofs model hardware that manages access and dirty itself: on other
// hardware nothing is proved, and every cell says it was only sampled.
TEST(verdict_table, without_hardware_dirty_management_nothing_is_proved_and_cells_say_sampled)
{
	strategy& mainline = registry::global().get("mainline");
	table_options t = one_case_per_cell();
	t.proof.only = {"per-call/one-call"};
	t.hw.no_hafdbs = true;
	const verdict_table vt = compute_verdicts({&mainline}, {granule::k4}, t, {});
	EXPECT_TRUE(vt.proofs.empty());
	for (const cell& c : vt.cells) {
		EXPECT_TRUE(c.sampled_only) << to_string(c.test.prop);
		EXPECT_EQ(c.proof, "");
		if (c.test.v != verdict::not_applicable) {
			EXPECT_NE(c.word.find("(sampled)"), std::string::npos) << c.word;
		}
	}
	// The same on the proofs' hardware proves the named obligation.
	t.hw = {};
	const verdict_table proved = compute_verdicts({&mainline}, {granule::k4}, t, {});
	EXPECT_FALSE(proved.proofs.empty());
	EXPECT_FALSE(cell_of(proved, property::per_call).sampled_only);
}

} // namespace
} // namespace ptespec::verdicts
