// mainline: the clear family on quiet tables.
#include <gtest/gtest.h>

#include "impl/mainline.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

mainline<machine> s;

// A folded run with young in #2 and dirty in #13.
void flagged_run(machine& m, std::size_t first, std::uint64_t pfn)
{
	fold(m, first, pfn);
	mark(m, first + 2, true, false);
	mark(m, first + 13, false, true);
}

// A batch over a whole run clears it in place: each entry is valid CONT or
// invalid throughout, and the caller flushes after the batch.
//   before  |OOYOOOOOOOOOODOO|
//   after   |................|
TEST(mainline_get_and_clear_full_ptes, clears_a_whole_run_without_unfolding)
{
	machine m = make_machine(1);
	flagged_run(m, 0, 0x100);
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 0, 16, true), dirty(young(cont(page(0x100)))));
	EXPECT_EQ(ruler(m.table()), "|................|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
	EXPECT_EQ(m.cost().atomics, 16u);
	EXPECT_EQ(m.cost().writes + m.cost().reads, 0u);
}

// A batch inside one run unfolds it once; the cleared entries carry the
// run's OR, so the result has it, and so do the entries left behind.
//   before  |OOYOOOOOOOOOODOO|
//   after   |bbbb........bbbb|
TEST(mainline_get_and_clear_full_ptes, unfolds_a_partly_covered_run_once)
{
	machine m = make_machine(1);
	flagged_run(m, 0, 0x100);
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 4, 8, false), dirty(young(page(0x104))));
	EXPECT_EQ(ruler(m.table()), "|bbbb........bbbb|");
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

// A batch straddling a run edge (a VMA split) unfolds both ends; the
// whole run after them stays folded and is cleared in place.
//   before  |OOYOOOOOOOOOODOO| |OOOOOOOOOOOOOOOO| |OOOOOOOOOOOOOOOO|
//   after   |bbbbbbbb........| |................| |........oooooooo|
TEST(mainline_get_and_clear_full_ptes, unfolds_only_the_two_partly_covered_ends)
{
	machine m = make_machine(3);
	flagged_run(m, 0, 0x100);
	fold(m, 16, 0x110);
	fold(m, 32, 0x120);
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 8, 32, false), dirty(young(page(0x108))));
	EXPECT_EQ(ruler(m.table()), "|bbbbbbbb........| |................| |........oooooooo|");
	EXPECT_EQ(m.cost().tlbi_range, 2u);
}

TEST(mainline_get_and_clear_full_ptes, single_entry_of_a_run_unfolds_it)
{
	machine m = make_machine(1);
	flagged_run(m, 0, 0x100);
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 15, 1, true), dirty(young(page(0x10f))));
	EXPECT_EQ(ruler(m.table()), "|bbbbbbbbbbbbbbb.|");
}

TEST(mainline_get_and_clear_full_ptes, clears_the_last_entry_of_the_table)
{
	machine m = make_machine(2);
	map(m, 16, 16, 0x110);
	mark(m, 31, true, false);
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 31, 1, false), young(page(0x11f)));
	EXPECT_EQ(ruler(m.table()), "|................| |ooooooooooooooo.|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

// After a partial teardown, swap entries sit in cleared entries; their
// aliased AF/CONT bits must trigger no unfold.
//   before  |ssssoooooooooooo|
//   after   |................|
TEST(mainline_clear_full_ptes, clears_swap_entries_without_unfolding_anything)
{
	machine m = make_machine(1);
	map(m, 4, 12, 0x104);
	for (std::size_t i = 0; i < 4; i++)
		m.poke(i, SWP_ALIAS);
	s.clear_full_ptes(m, 0, 4, false);
	s.clear_full_ptes(m, 4, 12, false);
	EXPECT_EQ(ruler(m.table()), "|................|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
	EXPECT_EQ(m.cost().writes, 0u);
}

TEST(mainline_clear_full_ptes, clears_whole_runs_in_place)
{
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	fold(m, 16, 0x110);
	s.clear_full_ptes(m, 0, 32, true);
	EXPECT_EQ(ruler(m.table()), "|................| |................|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

//   before  |OOOOOOOOOOOOOOOO| |OOOOOOOOOOOOOOOO|
//   after   |oooo............| |............oooo|
TEST(mainline_clear_full_ptes, unfolds_runs_straddling_either_edge)
{
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	fold(m, 16, 0x110);
	s.clear_full_ptes(m, 4, 24, false);
	EXPECT_EQ(ruler(m.table()), "|oooo............| |............oooo|");
	EXPECT_EQ(m.cost().tlbi_range, 2u);
}

// Mainline has no arch ptep_get_and_clear_full: `full` changes nothing, a
// CONT entry is unfolded before it is cleared.
TEST(mainline_ptep_get_and_clear_full, unfolds_even_when_full)
{
	machine m = make_machine(1);
	flagged_run(m, 0, 0x100);
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 6, true), dirty(young(page(0x106))));
	EXPECT_EQ(ruler(m.table()), "|bbbbbb.bbbbbbbbb|");
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

TEST(mainline_ptep_get_and_clear, clears_an_unfolded_entry_alone)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 9, true, true);
	EXPECT_EQ(s.ptep_get_and_clear(m, 9), pte_clear_bits(young(page(0x109)), PTE_RDONLY));
	EXPECT_EQ(ruler(m.table()), "|ooooooooo.oooooo|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

TEST(mainline_ptep_get_and_clear, takes_a_swap_entry_as_it_is)
{
	machine m = make_machine(1);
	m.poke(0, SWP_ALIAS);
	EXPECT_EQ(s.ptep_get_and_clear(m, 0), SWP_ALIAS);
	EXPECT_EQ(m.table()[0], 0u);
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

} // namespace
} // namespace ptespec::test
