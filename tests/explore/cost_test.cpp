// The cost model: counts that follow from each design, and profiles that
// fail loudly.
#include <gtest/gtest.h>

#include <string>

#include "explore/cost.h"
#include "model/errors.h"

namespace ptespec::explore {
namespace {

cost_row exit_of(const char* name, std::size_t folios = 64)
{
	cost_options o;
	o.folios = folios;
	return measure(registry::global().get(name), o);
}

TEST(cost, unfold_invalidates_ten_times_more_than_mainline_on_exit)
{
	const cost_row u = exit_of("unfold");
	const cost_row m = exit_of("mainline");
	EXPECT_GE(u.counts.tlbis(), 10 * m.counts.tlbis()) << u.counts.tlbis() << " vs " << m.counts.tlbis();
	EXPECT_EQ(u.counts.tlbi_range, 64u + 1u);	// one unfold per run, then zap's final flush
}

TEST(cost, nocont_exit_walk_invalidates_only_in_the_final_flush)
{
	const cost_row b = exit_of("nocont");
	EXPECT_EQ(b.counts.tlbi_page, 0u);
	EXPECT_EQ(b.counts.tlbi_all, 0u);
	EXPECT_EQ(b.counts.tlbi_range, 1u);
	EXPECT_EQ(b.counts.atomics, 64u * 16u);	// one exchange per entry
}

TEST(cost, mainline_exit_clears_each_run_in_one_batch)
{
	const cost_row m = exit_of("mainline", 8);
	EXPECT_EQ(m.counts.atomics, 8u * 16u);
	EXPECT_EQ(m.counts.writes, 0u);
	EXPECT_EQ(m.calls, 8u * 2u);	// ptep_get + get_and_clear_full_ptes per run
}

TEST(cost, robust_reads_quadratically)
{
	const cost_row r = exit_of("robust", 4);
	const cost_row m = exit_of("mainline", 4);
	EXPECT_GT(r.counts.reads, 8 * m.counts.reads);
}

TEST(cost, percent_over_baseline_weighs_every_term)
{
	cost_profile p;
	p.read = 1;
	p.tlbi_range = 100;
	cost_row base, row;
	base.counts.reads = 100;
	row.counts.reads = 100;
	row.counts.tlbi_range = 1;
	EXPECT_DOUBLE_EQ(percent_over(row, base, p), 100.0);
}

TEST(cost, shipped_profiles_parse_and_numa2_makes_tlbis_dearer)
{
	const cost_profile a = load_profile("numa1");
	const cost_profile b = load_profile("numa2");
	EXPECT_EQ(a.name, "numa1");
	EXPECT_GT(b.tlbi_range, 2 * a.tlbi_range);
}

TEST(cost, bad_profiles_are_one_line_usage_errors_naming_the_file)
{
	const char* bad[] = {
		"not json",
		"[1, 2]",
		R"({"weights": {"read": 1}})",
		R"({"weights": {"read": -1, "write": 1, "atomic": 1, "tlbi_page": 1, "tlbi_range": 1, "tlbi_all": 1, "page": 1}})",
		R"({"weights": {"read": 1, "write": 1, "atomic": 1, "tlbi_page": 1, "tlbi_range": 1, "tlbi_all": 1, "page": 1, "tlbi_everything": 2}})",
	};
	for (const char* text : bad) {
		try {
			parse_profile(text, "my.json");
			ADD_FAILURE() << "accepted: " << text;
		} catch (const usage_error& e) {
			const std::string m = e.what();
			EXPECT_NE(m.find("my.json"), std::string::npos) << m;
			EXPECT_NE(m.find("expected"), std::string::npos) << m;
			EXPECT_EQ(m.find('\n'), std::string::npos) << m;
		}
	}
	EXPECT_THROW(load_profile("/no/such/profile.json"), usage_error);
}

TEST(cost, dontneed_and_absurd_folio_counts_are_usage_errors)
{
	cost_options o;
	o.scen = scenario::dontneed_start;
	EXPECT_THROW(measure(registry::global().get("mainline"), o), usage_error);
	o.scen = scenario::exit;
	o.folios = 0;
	EXPECT_THROW(measure(registry::global().get("mainline"), o), usage_error);
}

} // namespace
} // namespace ptespec::explore
