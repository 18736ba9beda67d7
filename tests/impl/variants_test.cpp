// What makes each thread variant itself, on quiet tables.  Their claimed
// flaws need racing hardware or interleaved callers: the property suite
// looks for those; here each variant only shows its distinguishing step.
#include <gtest/gtest.h>

#include "impl/variants/clear_block.h"
#include "impl/variants/early_return.h"
#include "impl/variants/gather_writeback.h"
#include "impl/variants/robust.h"
#include "impl/variants/simple.h"
#include "impl/variants/unfold.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

using namespace ptespec::variants;

// A folded run with young in #2 and dirty in #13: |OOYOOOOOOOOOODOO|
machine flagged_run()
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 2, true, false);
	mark(m, 13, false, true);
	return m;
}

const std::uint64_t RUN_OR_0 = dirty(young(cont(page(0x100))));

// No-opt pays a TLB invalidation per run even for a whole-run batch.
TEST(variant_unfold, a_whole_run_batch_unfolds_first)
{
	unfold<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 0, 16, true), dirty(young(page(0x100))));
	EXPECT_EQ(ruler(m.table()), "|................|");
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

// The first full clear copies the run's flags into every entry, the next
// one finds a zeroed entry and copies nothing.
//   after #0   |.BBBBBBBBBBBBBBB|
//   after #1   |..BBBBBBBBBBBBBB|
TEST(variant_gather_writeback, first_full_clear_writes_the_runs_flags_everywhere)
{
	gather_writeback<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 0, true), RUN_OR_0);
	EXPECT_EQ(ruler(m.table()), "|.BBBBBBBBBBBBBBB|");
	EXPECT_EQ(m.cost().writes, 16u);
	EXPECT_EQ(m.cost().tlbis(), 0u);
	const auto writes = m.cost().writes;
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 1, true), dirty(young(cont(page(0x101)))));
	EXPECT_EQ(m.cost().writes, writes);
	EXPECT_EQ(ruler(m.table()), "|..BBBBBBBBBBBBBB|");
}

TEST(variant_gather_writeback, not_full_unfolds_like_mainline)
{
	gather_writeback<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 0, false), dirty(young(page(0x100))));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

// The full clear takes just the entry and its own flags; the neighbours
// stay folded, untouched.
//   after   |OOYOOO.OOOOOODOO|
TEST(variant_simple, full_clear_takes_the_entry_alone_without_unfolding)
{
	simple<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 6, true), cont(page(0x106)));
	EXPECT_EQ(ruler(m.table()), "|OOYOOO.OOOOOODOO|");
	EXPECT_EQ(m.cost().tlbis() + m.cost().writes, 0u);
	EXPECT_EQ(m.cost().atomics, 1u);
	// ptep_get keeps ORing over the run, the cleared entry included
	EXPECT_EQ(s.ptep_get(m, 7), dirty(young(cont(page(0x107)))));
}

TEST(variant_simple, not_full_unfolds_then_clears)
{
	simple<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 6, false), dirty(young(page(0x106))));
	EXPECT_EQ(ruler(m.table()), "|bbbbbb.bbbbbbbbb|");
}

// The generic batch: a loop of the variant's own full clear, ORing.
TEST(variant_simple, batch_is_the_generic_loop_of_its_own_clear)
{
	simple<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.get_and_clear_full_ptes(m, 0, 16, true), RUN_OR_0);
	EXPECT_EQ(ruler(m.table()), "|................|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
	EXPECT_EQ(m.cost().reads, 16u);	// one per ptep_get_and_clear_full
}

// Clearing the young #2 stashes its flag in the last valid entry, #15,
// and returns the run's OR.
//   after   |OO.OOOOOOOOOODOY|
TEST(variant_robust, full_clear_stashes_its_flags_in_the_last_valid_entry)
{
	robust<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 2, true), dirty(young(cont(page(0x102)))));
	EXPECT_EQ(ruler(m.table()), "|OO.OOOOOOOOOODOY|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

// #15 is the last valid entry; clearing it stashes into #14, the next one
// down from the end that is still valid.
//   before  |.............DYB|
//   after   |.............DB.|
TEST(variant_robust, stash_searches_down_from_the_end_of_the_run)
{
	robust<machine> s;
	machine m = flagged_run();
	for (std::size_t i = 0; i < 13; i++)
		m.poke(i, 0);
	m.poke(14, young(cont(page(0x10e))));
	mark(m, 15, true, true);
	EXPECT_TRUE(pte_young(s.ptep_get_and_clear_full(m, 15, true)));
	EXPECT_EQ(ruler(m.table()), "|.............DB.|");
	EXPECT_EQ(m.table()[14], dirty(young(cont(page(0x10e)))));
}

// Mid-teardown ptep_get and ptep_get_lockless skip cleared entries; a swap
// entry written into one cannot add its aliased AF.
//   |ssssOOOOOOOOODOO|
TEST(variant_robust, reads_skip_entries_already_cleared)
{
	robust<machine> s;
	machine m = flagged_run();
	for (std::size_t i = 0; i < 4; i++)
		m.poke(i, SWP_ALIAS);
	EXPECT_EQ(s.ptep_get(m, 8), dirty(cont(page(0x108))));
	EXPECT_EQ(s.ptep_get_lockless(m, 8), dirty(cont(page(0x108))));
}

// A clean, old entry comes back as it is, without gathering the run.
TEST(variant_early_return, clean_old_entry_is_returned_without_a_gather)
{
	early_return<machine> s;
	machine m = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 0, true), cont(page(0x100)));
	EXPECT_EQ(m.cost().reads, 1u);
	EXPECT_EQ(ruler(m.table()), "|.OYOOOOOOOOOODOO|");
}

TEST(variant_early_return, a_flagged_entry_is_stashed_like_robust)
{
	early_return<machine> s;
	robust<machine> r;
	machine a = flagged_run();
	machine b = flagged_run();
	EXPECT_EQ(s.ptep_get_and_clear_full(a, 13, true), r.ptep_get_and_clear_full(b, 13, true));
	EXPECT_EQ(a.table(), b.table());
	EXPECT_EQ(ruler(a.table()), "|OOYOOOOOOOOOO.OD|");
}

// The whole run goes at once, even for a !full zap of one entry.
TEST(variant_clear_block, empties_the_run_and_returns_its_or)
{
	clear_block<machine> s;
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	mark(m, 2, true, false);
	mark(m, 13, false, true);
	fold(m, 16, 0x110);
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 5, false), dirty(young(cont(page(0x105)))));
	EXPECT_EQ(ruler(m.table()), "|................| |OOOOOOOOOOOOOOOO|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
}

TEST(variant_clear_block, an_unfolded_entry_is_cleared_alone)
{
	clear_block<machine> s;
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	EXPECT_EQ(s.ptep_get_and_clear_full(m, 5, true), page(0x105));
	EXPECT_EQ(ruler(m.table()), "|ooooo.oooooooooo|");
}

} // namespace
} // namespace ptespec::test
