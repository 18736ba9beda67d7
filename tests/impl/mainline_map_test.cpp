// mainline: set_ptes, contpte_try_fold, contpte_try_unfold on quiet tables.
#include <string>

#include <gtest/gtest.h>

#include "impl/mainline.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

mainline<machine> s;

// set_ptes(#0, nr=32): two whole aligned runs of one folio.
//   before  |................| |................|
//   after   |OOOOOOOOOOOOOOOO| |OOOOOOOOOOOOOOOO|
TEST(mainline_set_ptes, folds_whole_aligned_runs_without_reads_or_flushes)
{
	machine m = make_machine(2);
	s.set_ptes(m, 0, page(0x100), 32);
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOOOOO| |OOOOOOOOOOOOOOOO|");
	for (std::size_t i = 0; i < 32; i++)
		EXPECT_EQ(m.table()[i], cont(page(0x100 + i))) << "entry " << i;
	EXPECT_EQ(m.cost().writes, 32u);
	EXPECT_EQ(m.cost().reads, 0u);
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

// set_ptes(#4, nr=28): the head chunk is a partial run.
//   after   |....oooooooooooo| |OOOOOOOOOOOOOOOO|
TEST(mainline_set_ptes, leaves_a_partial_run_unfolded)
{
	machine m = make_machine(2);
	s.set_ptes(m, 4, page(0x104), 28);
	EXPECT_EQ(ruler(m.table()), "|....oooooooooooo| |OOOOOOOOOOOOOOOO|");
	EXPECT_EQ(m.table()[4], page(0x104));
	EXPECT_EQ(m.table()[16], cont(page(0x110)));
}

// Entries aligned, pfns not: a run must map an aligned block of memory.
TEST(mainline_set_ptes, does_not_fold_misaligned_pfns)
{
	machine m = make_machine(1);
	s.set_ptes(m, 0, page(0x101), 16);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
}

// CONT in the caller's value is never trusted.
TEST(mainline_set_ptes, clears_cont_from_the_callers_value)
{
	machine m = make_machine(1);
	s.set_ptes(m, 3, cont(page(0x103)), 2);
	EXPECT_EQ(ruler(m.table()), "|...oo...........|");
}

// nr=1 on the last entry completes the run: fold, ORing the flags.
//   before  |oyooooooooooodo.|   (#15 mapped by the call)
//   after   |BBBBBBBBBBBBBBBB|
TEST(mainline_set_ptes, single_entry_on_the_last_entry_folds_the_run)
{
	machine m = make_machine(1);
	map(m, 0, 15, 0x100);
	mark(m, 1, true, false);
	mark(m, 13, false, true);
	s.set_ptes(m, 15, page(0x10f), 1);
	EXPECT_EQ(ruler(m.table()), "|BBBBBBBBBBBBBBBB|");
	EXPECT_EQ(m.table()[7], dirty(young(cont(page(0x107)))));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

TEST(mainline_set_ptes, single_entry_does_not_fold_across_folios)
{
	machine m = make_machine(1);
	m.set_folios({{0x100, 8}, {0x108, 8}});
	map(m, 0, 15, 0x100);
	s.set_ptes(m, 15, page(0x10f), 1);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

TEST(mainline_set_ptes, single_entry_does_not_fold_mixed_permissions)
{
	machine m = make_machine(1);
	map(m, 0, 15, 0x100);
	m.poke(6, page(0x106, PROT_RO));
	s.set_ptes(m, 15, page(0x10f), 1);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
	EXPECT_EQ(m.cost().writes, 1u);
}

// nr=1 over a folded run: unfold first (break-before-make), then write.
// Here a swap entry replaces #5 (swap-out of one page).
//   before  |OOOOOYOOOOOOOOOO|
//   after   |yyyyysyyyyyyyyyy|
TEST(mainline_set_ptes, single_entry_over_a_folded_run_unfolds_it_first)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 5, true, false);
	s.set_ptes(m, 5, SWP_ALIAS, 1);
	EXPECT_EQ(ruler(m.table()), "|yyyyysyyyyyyyyyy|");
	EXPECT_EQ(m.table()[5], pte_mknoncont(SWP_ALIAS));
	EXPECT_EQ(m.table()[0], young(page(0x100)));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

TEST(mainline_contpte_try_fold, folds_an_eligible_run_from_any_of_its_pages)
{
	machine m = make_machine(2);
	map(m, 16, 16, 0x110);
	mark(m, 20, false, true);
	s.contpte_try_fold(m, 18);
	EXPECT_EQ(ruler(m.table()), "|................| |DDDDDDDDDDDDDDDD|");
	EXPECT_EQ(m.table()[31], dirty(cont(page(0x11f))));
}

TEST(mainline_contpte_try_fold, refuses_a_hole_in_the_pfns)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	m.poke(9, page(0x150));
	s.contpte_try_fold(m, 0);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
	EXPECT_EQ(m.cost().writes + m.cost().atomics, 0u);
}

// A special mapping has no folio behind it to prove the run is one.
TEST(mainline_contpte_try_fold, refuses_special_mappings)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100, PROT_RW | PTE_SPECIAL);
	s.contpte_try_fold(m, 0);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
}

// Unfold copies the run's OR into every entry.
//   before  |OOYOOOOOOOOOODOO|
//   after   |bbbbbbbbbbbbbbbb|
TEST(mainline_contpte_try_unfold, copies_the_runs_flags_into_every_entry)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 2, true, false);
	mark(m, 13, false, true);
	s.contpte_try_unfold(m, 7);
	EXPECT_EQ(ruler(m.table()), "|bbbbbbbbbbbbbbbb|");
	EXPECT_EQ(m.table()[0], dirty(young(page(0x100))));
	EXPECT_EQ(m.cost().atomics, 16u);	// every entry taken out atomically
	EXPECT_EQ(m.cost().tlbi_range, 1u);
	EXPECT_EQ(m.cost().writes, 16u);
}

TEST(mainline_contpte_try_unfold, ignores_a_swap_entry_whose_bits_alias_cont)
{
	machine m = make_machine(1);
	m.poke(3, SWP_ALIAS);
	ASSERT_TRUE(pte_cont(SWP_ALIAS) && pte_young(SWP_ALIAS));
	s.contpte_try_unfold(m, 3);
	EXPECT_EQ(m.table()[3], SWP_ALIAS);
	EXPECT_EQ(m.cost().tlbis() + m.cost().writes + m.cost().atomics, 0u);
}

// The run size follows the granule: 16 entries with 4K pages, 128 with 16K,
// 32 with 64K.  Map two runs, fold them, tear the first down in place and
// clear into the second from its middle (one unfold).
TEST(mainline_granules, fold_and_teardown_follow_cont_ptes)
{
	for (granule gr : {granule::k4, granule::k16, granule::k64}) {
		const geometry g = geometry::of(gr);
		SCOPED_TRACE(std::string(to_string(gr)));
		const std::size_t n = g.cont_ptes;
		machine m(g, 2 * n);
		m.set_folios({{0x1000, 2 * n}});
		const std::uint64_t pte = pfn_pte<std::uint64_t>(0x1000, PROT_RW, g);
		s.set_ptes(m, 0, pte, 2 * n);
		for (std::size_t i = 0; i < 2 * n; i++)
			ASSERT_TRUE(pte_valid_cont(m.table()[i])) << i;
		m.poke(n - 1, pte_mkyoung(m.table()[n - 1]));
		EXPECT_TRUE(pte_young(s.get_and_clear_full_ptes(m, 0, n, true)));
		EXPECT_EQ(m.cost().tlbis(), 0u);
		s.clear_full_ptes(m, n + n / 2, n / 2, false);
		EXPECT_EQ(m.cost().tlbi_range, 1u);
		EXPECT_EQ(m.table()[n], pfn_pte<std::uint64_t>(0x1000 + n, PROT_RW, g));
		EXPECT_EQ(m.table()[2 * n - 1], 0u);
	}
}

} // namespace
} // namespace ptespec::test
