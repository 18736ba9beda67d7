// The hugetlb sweep (run_options::sweeps::hugetlb): arm64's hugetlb calls
// under the hugetlb callers, judged by the same properties; mainline holds,
// and each control fails there and only there.
#include <gtest/gtest.h>

#include "impl/adapter.h"
#include "impl/mainline.h"
#include "impl/strategy.h"
#include "properties/runner.h"
#include "tests/impl/hugetlb_controls.h"

namespace ptespec {
namespace {

run_options hugetlb_sweep(std::uint64_t seed, int cases)
{
	run_options o;
	o.seed = seed;
	o.cases = cases;
	o.sweep = run_options::sweeps::hugetlb;
	return o;
}

// The same cases in the core sweep, which makes no hugetlb call.
verdict in_the_core_sweep(strategy& s, property p)
{
	run_options core = hugetlb_sweep(1, 2000);
	core.sweep = run_options::sweeps::core;
	return run_property(s, p, core).v;
}

TEST(hugetlb_sweep, mainline_holds_every_property)
{
	strategy& s = registry::global().get("mainline");
	for (property p : {property::batch_or, property::no_loss, property::per_call, property::precise,
			   property::isolation, property::well_formed, property::permission, property::mapping}) {
		const property_result r = run_property(s, p, hugetlb_sweep(1, 2000));
		EXPECT_EQ(r.v, verdict::holds) << to_string(p) << "\n" << format_counterexample(r);
	}
}

// The pre-2025 huge_ptep_get_and_clear: a migrating hugepage moved by
// mremap loses its first slot only; the others keep their migration
// entries.  The hugetlb sweep finds it; the core sweep, which makes no
// hugetlb call, cannot.
TEST(hugetlb_sweep, the_get_and_clear_before_the_2025_fix_fails_mapping_through_mremap_of_a_migrating_hugepage)
{
	auto s = make_strategy<controls::hugetlb_get_and_clear_before_2025, on_machine>("hugetlb-before-2025",
										    "control", "test");
	const property_result r = run_property(*s, property::mapping, hugetlb_sweep(1, 2000));
	ASSERT_EQ(r.v, verdict::fails) << format_counterexample(r);
	const std::string ce = format_counterexample(r);
	EXPECT_NE(r.ce.v.message.find("huge_ptep_get_and_clear"), std::string::npos) << ce;
	EXPECT_NE(r.ce.v.message.find("should all be none"), std::string::npos) << ce;
	EXPECT_NE(ce.find("hugetlb mremap"), std::string::npos) << ce;
	EXPECT_NE(ce.find("hugetlb migration"), std::string::npos) << ce;
	EXPECT_EQ(in_the_core_sweep(*s, property::mapping), verdict::holds);
}

// huge_ptep_get of entry 0 alone: an access the MMU recorded in another
// entry of the hugepage goes unreported.
TEST(hugetlb_sweep, a_get_of_the_first_entry_only_fails_per_call)
{
	auto s = make_strategy<controls::hugetlb_get_first_entry_only, on_machine>("hugetlb-get-first-entry", "control",
										   "test");
	const property_result r = run_property(*s, property::per_call, hugetlb_sweep(1, 2000));
	ASSERT_EQ(r.v, verdict::fails) << format_counterexample(r);
	EXPECT_NE(r.ce.v.message.find("huge_ptep_get("), std::string::npos) << format_counterexample(r);
	EXPECT_EQ(in_the_core_sweep(*s, property::per_call), verdict::holds);
}

// hugetlb's mprotect clears each hugepage and writes it back with the new
// permissions, no flush between (set_huge_pte_at breaks only a valid
// hugepage), and relies on flush_hugetlb_tlb_range at its end.  Flushed at
// level 0 with 4K pages, the old writable or readable translations stay
// cached; at 16K and 64K the same call invalidates (no hint).
TEST(hugetlb_sweep, a_range_flush_at_level_0_fails_well_formed_with_4k_pages_only)
{
	auto s = make_strategy<controls::hugetlb_flush_at_level_0, on_machine>("hugetlb-flush-level-0", "control",
									       "test");
	const property_result r = run_property(*s, property::well_formed, hugetlb_sweep(1, 2000));
	ASSERT_EQ(r.v, verdict::fails) << format_counterexample(r);
	const std::string ce = format_counterexample(r);
	EXPECT_NE(r.ce.v.message.find("flush_hugetlb_tlb_range("), std::string::npos) << ce;
	EXPECT_NE(r.ce.v.message.find("in some CPU's TLB"), std::string::npos) << ce;
	EXPECT_NE(ce.find("hugetlb mprotect"), std::string::npos) << ce;
	for (granule g : {granule::k16, granule::k64}) {
		run_options o = hugetlb_sweep(1, 2000);
		o.gran = g;
		EXPECT_EQ(run_property(*s, property::well_formed, o).v, verdict::holds) << to_string(g);
	}
	// mainline's own, level 3, holds: checked by mainline_holds_every_property.
}

// A case of the hugetlb sweep draws its table: a pte table of CONT_PTE
// hugepages or a pmd table of CONT_PMD ones.  mainline's range flush names
// the level of the hugepage's entries (3 or 2); one that names a pte's
// level for every size leaves a CONT_PMD hugepage's blocks cached after
// hugetlb's mprotect, at every granule, and only in a pmd table.
TEST(hugetlb_sweep, a_range_flush_at_a_ptes_level_fails_well_formed_in_a_pmd_table)
{
	auto s = make_strategy<controls::hugetlb_flush_at_pte_level, on_machine>("hugetlb-flush-pte-level", "control",
										 "test");
	for (granule g : {granule::k4, granule::k16, granule::k64}) {
		run_options o = hugetlb_sweep(1, 2000);
		o.gran = g;
		const property_result r = run_property(*s, property::well_formed, o);
		ASSERT_EQ(r.v, verdict::fails) << to_string(g) << "\n" << format_counterexample(r);
		const std::string ce = format_counterexample(r);
		EXPECT_NE(r.ce.v.message.find("flush_hugetlb_tlb_range("), std::string::npos) << ce;
		EXPECT_NE(r.ce.v.message.find("level 3"), std::string::npos) << ce;
		EXPECT_NE(ce.find("a pmd table of 3 CONT_PMD hugepages"), std::string::npos) << ce;
		EXPECT_NE(ce.find("hugetlb mprotect"), std::string::npos) << ce;
	}
	EXPECT_EQ(in_the_core_sweep(*s, property::well_formed), verdict::holds);
}

// A CONT_PMD hugepage's entries written a page apart instead of a block
// apart: the run maps overlapping pieces of its first block.
TEST(hugetlb_sweep, a_pfn_advancing_a_page_per_block_fails_mapping_in_a_pmd_table)
{
	auto s = make_strategy<controls::hugetlb_pfn_step_of_a_page, on_machine>("hugetlb-pfn-step-of-a-page", "control",
										 "test");
	const property_result r = run_property(*s, property::mapping, hugetlb_sweep(1, 2000));
	ASSERT_EQ(r.v, verdict::fails) << format_counterexample(r);
	const std::string ce = format_counterexample(r);
	EXPECT_NE(r.ce.v.message.find("asked to map"), std::string::npos) << ce;
	EXPECT_NE(ce.find("a pmd table of 3 CONT_PMD hugepages"), std::string::npos) << ce;
	EXPECT_EQ(in_the_core_sweep(*s, property::mapping), verdict::holds);
}

// The break naming a pte's level: huge_ptep_clear_flush returns with a
// CONT_PMD hugepage's blocks still cached, and migration copies the folio
// while a CPU may go on writing it through them.
TEST(hugetlb_sweep, a_break_at_a_ptes_level_fails_well_formed_in_a_pmd_table)
{
	auto s = make_strategy<controls::hugetlb_break_at_pte_level, on_machine>("hugetlb-break-pte-level", "control",
										 "test");
	const property_result r = run_property(*s, property::well_formed, hugetlb_sweep(1, 2000));
	ASSERT_EQ(r.v, verdict::fails) << format_counterexample(r);
	const std::string ce = format_counterexample(r);
	EXPECT_NE(r.ce.v.message.find("huge_ptep_clear_flush("), std::string::npos) << ce;
	EXPECT_NE(r.ce.v.message.find("level 3"), std::string::npos) << ce;
	EXPECT_NE(ce.find("hugetlb migration"), std::string::npos) << ce;
	EXPECT_NE(ce.find("a pmd table of 3 CONT_PMD hugepages"), std::string::npos) << ce;
	EXPECT_EQ(in_the_core_sweep(*s, property::well_formed), verdict::holds);
}

} // namespace
} // namespace ptespec
