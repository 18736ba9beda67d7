// mainline: the young/dirty/permission calls on quiet tables.
#include <gtest/gtest.h>

#include "impl/mainline.h"
#include "model/call.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

mainline<machine> s;

// Young recorded in #9 of the run; reclaim asks about #1.
//   before  |OOOOOOOOOYOOODOO|
//   after   |OOOOOOOOOOOOODOO|
TEST(mainline_ptep_test_and_clear_young, clears_young_over_the_whole_run)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 9, true, false);
	mark(m, 13, false, true);
	EXPECT_TRUE(s.ptep_test_and_clear_young(m, 1));
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOODOO|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
	EXPECT_FALSE(s.ptep_test_and_clear_young(m, 1));
}

TEST(mainline_ptep_test_and_clear_young, touches_an_unfolded_entry_alone)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 3, true, false);
	mark(m, 4, true, false);
	EXPECT_TRUE(s.ptep_test_and_clear_young(m, 3));
	EXPECT_EQ(ruler(m.table()), "|ooooyooooooooooo|");
	EXPECT_FALSE(s.ptep_test_and_clear_young(m, 5));
}

TEST(mainline_ptep_clear_flush_young, flushes_the_run_only_when_it_was_young)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	EXPECT_FALSE(s.ptep_clear_flush_young(m, 4));
	EXPECT_EQ(m.cost().tlbis(), 0u);
	mark(m, 15, true, false);
	EXPECT_TRUE(s.ptep_clear_flush_young(m, 4));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOOOOO|");
}

TEST(mainline_ptep_clear_flush_young, flushes_one_page_for_an_unfolded_entry)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 8, true, false);
	EXPECT_TRUE(s.ptep_clear_flush_young(m, 8));
	EXPECT_EQ(m.cost().tlbi_page, 1u);
	EXPECT_EQ(m.cost().tlbi_range, 0u);
}

// A batch that starts and ends inside folded runs widens to both runs;
// the answer is the OR over every entry, the young found past the batch's
// last entry included.
//   before  |OOOOOOOOOOOOOOOO|OOYOOOOOOOOOOOOY|
//   batch          #6..#20   (nr=15)
//   after   |OOOOOOOOOOOOOOOO|OOOOOOOOOOOOOOOO|
TEST(mainline_test_and_clear_young_ptes, widens_a_batch_to_the_runs_its_ends_lie_in)
{
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	fold(m, CONT, 0x110);
	mark(m, 18, true, false);
	mark(m, 31, true, false);
	EXPECT_TRUE(s.test_and_clear_young_ptes(m, 6, 15));
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOOOOO| |OOOOOOOOOOOOOOOO|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

// Without CONT nothing widens, and young outside the batch stays; the
// answer is the OR over the batch, not its first entry.
//   before  |oooyoooooyoooooo|
//   batch      #2..#6  (nr=5)
//   after   |oooooooooyoooooo|  #9 keeps its young
TEST(mainline_test_and_clear_young_ptes, answers_for_every_entry_of_an_unfolded_batch)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 3, true, false);
	mark(m, 9, true, false);
	EXPECT_TRUE(s.test_and_clear_young_ptes(m, 2, 5));
	EXPECT_EQ(ruler(m.table()), "|oooooooooyoooooo|");
	EXPECT_FALSE(s.test_and_clear_young_ptes(m, 0, 9));
}

// The flush covers the widened range, once, and only for a young answer.
TEST(mainline_clear_flush_young_ptes, flushes_the_widened_range_when_young)
{
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	fold(m, CONT, 0x110);
	EXPECT_FALSE(s.clear_flush_young_ptes(m, 14, 4));
	EXPECT_EQ(m.cost().tlbis(), 0u);
	mark(m, 1, true, false);
	EXPECT_TRUE(s.clear_flush_young_ptes(m, 14, 4));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOOOOO| |OOOOOOOOOOOOOOOO|");
}

// Fork over a whole run: wrprotect in place; hardware dirty moves into
// the software bit so it survives losing write permission.
//   before  |OOOOODOOOOOOOOOO|
//   after   |OOOOODOOOOOOOOOO|   every entry read-only
TEST(mainline_wrprotect_ptes, wrprotects_a_whole_run_in_place)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 5, false, true);
	s.wrprotect_ptes(m, 0, 16);
	EXPECT_EQ(ruler(m.table()), "|OOOOODOOOOOOOOOO|");
	for (std::size_t i = 0; i < 16; i++)
		EXPECT_FALSE(pte_write(m.table()[i])) << "entry " << i;
	EXPECT_EQ(m.table()[5], cont(page(0x105, PROT_RO) | PTE_DIRTY));
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

// Part of a run cannot lose write permission under one CONT translation.
//   after   |oooooooooooooooo|   #0-#7 read-only, #8-#15 writable
TEST(mainline_wrprotect_ptes, unfolds_a_partly_covered_run)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	s.wrprotect_ptes(m, 0, 8);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
	EXPECT_EQ(m.table()[7], page(0x107, PROT_RO));
	EXPECT_EQ(m.table()[8], page(0x108));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

// The same on a CPU with BBML2 and no conflict aborts: the unfold repaints
// without the flush in between (the repaint translates as before), and
// the wrprotect after it is fork's to flush.
TEST(mainline_wrprotect_ptes, unfolds_a_partly_covered_run_without_a_flush_under_bbml2)
{
	machine m = make_machine(1, {.bbml2_noabort = true});
	fold(m, 0, 0x100);
	s.wrprotect_ptes(m, 0, 8);
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
	EXPECT_EQ(m.table()[7], page(0x107, PROT_RO));
	EXPECT_EQ(m.table()[8], page(0x108));
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

TEST(mainline_wrprotect_ptes, single_entry_of_a_run_unfolds_it)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	s.wrprotect_ptes(m, 15, 1);
	EXPECT_EQ(m.table()[15], page(0x10f, PROT_RO));
	EXPECT_EQ(m.table()[14], page(0x10e));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

// MADV_FREE over #4-#7: core-mm tracks access/dirty per folio, so the
// whole run is cleaned and aged, still folded.
//   before  |BOOOOOOOOOOOOODO|
//   after   |OOOOOOOOOOOOOOOO|
TEST(mainline_clear_young_dirty_ptes, widens_to_whole_runs_without_unfolding)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 0, true, true);
	mark(m, 14, false, true);
	s.clear_young_dirty_ptes(m, 4, 4, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY);
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOOOOO|");
	EXPECT_EQ(m.table()[0], cont(page(0x100)));
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

TEST(mainline_clear_young_dirty_ptes, keeps_to_the_range_on_unfolded_entries)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	for (std::size_t i = 0; i < 16; i++)
		mark(m, i, true, true);
	s.clear_young_dirty_ptes(m, 4, 4, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY);
	EXPECT_EQ(ruler(m.table()), "|bbbboooobbbbbbbb|");
}

TEST(mainline_clear_young_dirty_ptes, clearing_young_alone_keeps_dirty)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 3, true, true);
	s.clear_young_dirty_ptes(m, 3, 1, CYDP_CLEAR_YOUNG);
	EXPECT_EQ(ruler(m.table()), "|OOODOOOOOOOOOOOO|");
	EXPECT_EQ(m.cost().writes, 0u);	// one CMPXCHG per entry
	EXPECT_EQ(m.cost().atomics, 16u);
}

// Every entry already young: the fault has nothing to fix.
TEST(mainline_ptep_set_access_flags, nothing_to_do_when_every_entry_grants_it)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	for (std::size_t i = 0; i < 16; i++)
		mark(m, i, true, false);
	EXPECT_FALSE(s.ptep_set_access_flags(m, 4, young(page(0x104)), false));
	EXPECT_EQ(m.cost().writes + m.cost().atomics + m.cost().tlbis(), 0u);
}

// Young only in a sibling: the gathered view says young, but a walker that
// reads #4 alone would fault forever.  Fix every entry in place.
//   before  |OOOOOOOOOOOYOOOO|
//   after   |YYYYYYYYYYYYYYYY|
TEST(mainline_ptep_set_access_flags, a_siblings_flag_does_not_make_it_a_noop)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 11, true, false);
	EXPECT_TRUE(s.ptep_set_access_flags(m, 4, young(page(0x104)), false));
	EXPECT_EQ(ruler(m.table()), "|YYYYYYYYYYYYYYYY|");
	EXPECT_EQ(m.table()[4], young(cont(page(0x104))));
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

// A write fault on a read-only run: write permission changes, so unfold.
TEST(mainline_ptep_set_access_flags, unfolds_when_write_permission_changes)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100, PROT_RO);
	const std::uint64_t entry = dirty(young(page(0x104)));
	EXPECT_TRUE(s.ptep_set_access_flags(m, 4, entry, true));
	EXPECT_EQ(m.table()[4], entry);
	EXPECT_EQ(m.table()[5], page(0x105, PROT_RO));
	EXPECT_EQ(m.cost().tlbi_range, 1u);	// the unfold
	EXPECT_EQ(m.cost().tlbi_page, 1u);	// the stale read-only entry
}

// Software-dirty and writable, but RDONLY still set: to the walker the page
// is read-only.  The fault asks for the same value with RDONLY clear; a
// pte_same that ignored RDONLY would call that nothing to do and the write
// would fault again, for ever.
TEST(mainline_ptep_set_access_flags, an_entry_differing_only_in_rdonly_is_made_writable)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	m.poke(4, young(page(0x104)) | PTE_DIRTY);
	const std::uint64_t entry = dirty(young(page(0x104)));
	ASSERT_EQ(entry, m.table()[4] & ~PTE_RDONLY);
	EXPECT_TRUE(s.ptep_set_access_flags(m, 4, entry, true));
	EXPECT_TRUE(pte_hw_dirty(m.table()[4]));
	EXPECT_EQ(m.cost().tlbi_page, 1u);
}

TEST(mainline_ptep_set_access_flags, updates_an_unfolded_entry_alone)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	EXPECT_TRUE(s.ptep_set_access_flags(m, 2, dirty(young(page(0x102))), true));
	EXPECT_EQ(ruler(m.table()), "|oobooooooooooooo|");
	EXPECT_EQ(m.cost().tlbi_page, 1u);
	EXPECT_FALSE(s.ptep_set_access_flags(m, 2, dirty(young(page(0x102))), true));
}

} // namespace
} // namespace ptespec::test
