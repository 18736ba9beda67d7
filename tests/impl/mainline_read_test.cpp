// mainline: ptep_get and ptep_get_lockless on quiet tables.
#include <gtest/gtest.h>

#include "impl/mainline.h"
#include "model/errors.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

mainline<machine> s;

// Hardware recorded young in #3 and dirty in #12; any page reports both.
//   |OOOYOOOOOOOODOOO|
TEST(mainline_ptep_get, gathers_young_and_dirty_over_the_run)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 3, true, false);
	mark(m, 12, false, true);
	const table_t before = m.table();
	EXPECT_EQ(s.ptep_get(m, 7), dirty(young(cont(page(0x107)))));
	EXPECT_EQ(m.table(), before);
	EXPECT_EQ(m.cost().writes + m.cost().atomics, 0u);
}

// Both flags in the first entry: nothing left to learn from the others.
//   |BOOOOOOOOOOOOOOO|
TEST(mainline_ptep_get, stops_reading_once_both_flags_are_known)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 0, true, true);
	s.ptep_get(m, 9);
	EXPECT_EQ(m.cost().reads, 2u);	// the entry, then #0 of the run
}

TEST(mainline_ptep_get, reads_the_whole_run_when_a_flag_is_missing)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 0, true, false);
	EXPECT_EQ(s.ptep_get(m, 9), young(cont(page(0x109))));
	EXPECT_EQ(m.cost().reads, 1u + CONT);
}

// An unfolded entry is its own truth; the neighbour's flags stay its own.
//   |ooooodoooooooooo|
TEST(mainline_ptep_get, reads_an_unfolded_entry_alone)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 5, false, true);
	EXPECT_EQ(s.ptep_get(m, 4), page(0x104));
	EXPECT_EQ(m.cost().reads, 1u);
}

TEST(mainline_ptep_get, returns_a_swap_entry_raw_even_when_its_bits_alias_af_and_cont)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	m.poke(15, SWP_ALIAS);	// the last entry of the table
	mark(m, 2, true, true);
	EXPECT_EQ(s.ptep_get(m, 15), SWP_ALIAS);
	EXPECT_EQ(m.cost().reads, 1u);
}

TEST(mainline_ptep_get_lockless, gathers_a_consistent_run_in_one_pass)
{
	machine m = make_machine(2);
	fold(m, 16, 0x110);
	mark(m, 31, true, false);
	mark(m, 16, false, true);
	EXPECT_EQ(s.ptep_get_lockless(m, 20), dirty(young(cont(page(0x114)))));
	// the wrapper's read, the pass's own read of #20, then #16 (dirty)
	// up to #31 (young)
	EXPECT_EQ(m.cost().reads, 2u + CONT);
}

TEST(mainline_ptep_get_lockless, reads_an_unfolded_entry_alone)
{
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 0, true, false);
	EXPECT_EQ(s.ptep_get_lockless(m, 0), young(page(0x100)));
	EXPECT_EQ(m.cost().reads, 1u);
}

// A run half cleared and nobody left to finish: the kernel would spin, the
// model gives up with a bounded number of passes.
//   |........OOOOOOOO|
TEST(mainline_ptep_get_lockless, gives_up_on_a_run_that_stays_inconsistent)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	for (std::size_t i = 0; i < 8; i++)
		m.poke(i, 0);
	EXPECT_THROW(s.ptep_get_lockless(m, 12), strategy_livelock);
	EXPECT_EQ(m.cost().reads, 1u + 2u * decltype(s)::lockless_retries(geo4k));
}

// Entries of a run that disagree on pfn contiguity are not one run.
TEST(mainline_ptep_get_lockless, rejects_a_run_with_a_foreign_pfn)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	m.poke(4, cont(page(0x1ff)));
	EXPECT_THROW(s.ptep_get_lockless(m, 0), strategy_livelock);
}

} // namespace
} // namespace ptespec::test
