// The checker judged on histories written by hand.
//
// Each scenario is a short history on a 4K table of 32 entries: two runs of
// CONT_PTES = 16, each run mapping its own 16-page folio with aligned pfns.
// A ruler above each scenario draws the run as the hardware left it before
// the interesting call: Y young, D dirty, B both, . neither, _ none,
// S a swap entry; a leading C marks a folded run.
//
// For every property there is a history that breaks it (the checker must
// name that property, on the right page, and nothing unrelated) and a close
// legitimate one where the checker must stay quiet.
//
// This file: per-call, no-loss, batch-or, precise and isolation.

#include <gtest/gtest.h>

#include "tests/model/checker_history.h"

namespace {

using namespace ptespec;
using namespace ptespec::checker_test;

// ---------------------------------------------------------------- per-call

// |C . . . . . D . . . . . . . . . .|  write to #9 recorded in #5
TEST(checker_per_call, ptep_get_returning_the_run_or_is_quiet)
{
	hist h(table({0, 1}));
	h.hw_write(9, 5);
	h.begin(ptep_get(2)).reads(0, RUN).ret(both(page(2, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(2), FLAG_YOUNG | FLAG_DIRTY);
	EXPECT_EQ(ck.live_events(), 2u);	// ptep_get reports but discharges nothing
}

// |C . . . . . D . . . . . . . . . .|  ptep_get(#2) forgets to gather
TEST(checker_per_call, ptep_get_returning_its_own_flags_fires)
{
	hist h(table({0, 1}));
	h.hw_write(9, 5);
	h.begin(ptep_get(2)).read(2).ret(h.at(2));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"per-call"});
	expect_violation(ck, property::per_call, 2, "dirty");
	EXPECT_EQ(ck.first(property::per_call)->step, h.steps());
}

// |C B . . . . . . . . . . . . . . .|  full teardown, "simple": clear #0,
// |C _ . . . . . . . . . . . . . . .|  return its own flags; ptep_get(#1)
// still ORs over the run but the dirty left with #0.
TEST(checker_per_call, simple_teardown_loses_the_run_dirty_for_the_next_ptep_get)
{
	hist h(table({0, 1}));
	h.hw_write(4, 0);
	const std::uint64_t cleared = h.at(0);
	h.begin(ptep_get_and_clear_full(0, true)).xchg(0).ret(cleared);
	h.begin(ptep_get(1)).reads(0, RUN).ret(h.at(1));
	const checker ck = h.check();
	// Handed off to the caller with #0: no event is lost, but the
	// reader of #1 was owed the dirty.
	EXPECT_EQ(flagged(ck), names{"per-call"});
	expect_violation(ck, property::per_call, 1, "dirty");
}

// |C B . . . ...|  "robust": the flags of the cleared #0 are stashed in #1
TEST(checker_per_call, robust_stash_keeps_the_run_dirty_for_the_next_ptep_get)
{
	hist h(table({0, 1}));
	h.hw_write(4, 0);
	const std::uint64_t cleared = h.at(0);
	h.begin(ptep_get_and_clear_full(0, true)).xchg(0).cmpxchg(1, both(h.at(1))).reads(1, RUN - 1).ret(cleared);
	h.begin(ptep_get(1)).reads(1, RUN - 1).ret(h.at(1));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.live_events(), 0u);
}

// The same teardown with the flags present in the initial table: the
// checker must treat them as it treats a hardware event in a folded run.
// |C B . . . . . . . . . . . . . . .|  (initial)
TEST(checker_per_call, initial_flags_in_a_folded_run_belong_to_the_run)
{
	std::vector<std::uint64_t> t = table({0, 1});
	t[0] = both(t[0]);
	hist h(t);
	h.begin(ptep_get_and_clear_full(0, true)).xchg(0).ret(t[0]);
	h.begin(ptep_get(1)).reads(0, RUN).ret(h.at(1));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"per-call"});
	expect_violation(ck, property::per_call, 1, "dirty");
}

// |C . . . . . . . . . . . . . . . .|  the write lands in #0 while its
// get-and-clear runs and is reported by it: as if it had landed just before,
// it is still owed to the readers of #1-#15.
TEST(checker_per_call, event_reported_by_a_clear_stays_pending_for_the_rest_of_the_run)
{
	hist h(table({0, 1}));
	h.begin(ptep_get_and_clear_full(0, true)).hw_write(4, 0);
	const std::uint64_t cleared = h.at(0);
	h.xchg(0).ret(cleared);
	h.begin(ptep_get(1)).reads(0, RUN).ret(h.at(1));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"per-call"});
	expect_violation(ck, property::per_call, 1);
}

// |C _ . . . . . . . . . . . . . . .|  exit has cleared #0 ("robust": its
// flags were clean); the run's CONT translation may still be cached, so a
// write to page 0 lands in #5.  The next reader of #1 is owed it.
hist access_through_a_stale_translation()
{
	hist h(table({0, 1}));
	h.begin(ptep_get_and_clear_full(0, true)).xchg(0).reads(1, RUN - 1).ret(page(0, true));
	h.hw_write(0, 5);
	return h;
}

// | . . . Y . ...|  (no CONT) a batch over #2..#4 answers for #2 alone:
// #3's young was pending when it began.  The call consumes young over its
// range by its semantics, so the event it never reported is lost to the
// spec as well.
TEST(checker_per_call, batched_young_answering_for_its_first_entry_fires)
{
	hist h(table({}));
	h.hw(3, 3);
	h.begin(mk(call_kind::test_and_clear_young_ptes, 2, 3)).cmpxchg(2, h.at(2)).end(young_answer(false));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), (names{"no-loss", "per-call"}));
	expect_violation(ck, property::per_call, 3, "test_and_clear_young_ptes(#2, nr=3)");
}

// The same batch answering the OR of what it cleared is quiet, and owes
// nothing after.
TEST(checker_per_call, batched_young_answering_the_or_is_quiet)
{
	hist h(table({}));
	h.hw(3, 3);
	h.begin(mk(call_kind::clear_flush_young_ptes, 2, 3))
		.cmpxchg(2, h.at(2))
		.cmpxchg(3, pte_mkold(h.at(3)))
		.cmpxchg(4, h.at(4))
		.tlbi(2, 3)
		.end(young_answer(true));
	h.begin(ptep_get(3)).read(3).ret(h.at(3));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(3), 0u);
}

// |C . . . . . . . . Y . . . . . .|  a batch over #3..#4 widened to the run
// consumes the run's young for the folio: a later ptep_get(#12) need not
// report it.
TEST(checker_per_call, batched_young_widened_to_its_run_discharges_the_run)
{
	hist h(table({0}));
	h.hw(5, 9);
	h.begin(mk(call_kind::test_and_clear_young_ptes, 3, 2));
	for (std::size_t k = 0; k < RUN; k++)
		h.cmpxchg(k, pte_mkold(h.at(k)));
	h.end(young_answer(true));
	h.begin(ptep_get(12)).reads(0, RUN).ret(h.at(12));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

TEST(checker_per_call, access_through_a_stale_translation_is_owed_to_the_run)
{
	hist h = access_through_a_stale_translation();
	h.begin(ptep_get(1)).reads(1, RUN - 1).ret(both(h.at(1)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(0), 0u);
	EXPECT_EQ(ck.pending(1), FLAG_YOUNG | FLAG_DIRTY);
}

TEST(checker_per_call, access_through_a_stale_translation_missed_fires)
{
	hist h = access_through_a_stale_translation();
	h.begin(ptep_get(1)).read(1).ret(h.at(1));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"per-call"});
	expect_violation(ck, property::per_call, 1, "dirty");
}

// ---------------------------------------------------------------- no-loss

// |C . . . . . . . . . . . . . . . .|  gather-writeback of #0: the write to
// #7 lands after #7 was read; the plain write-back of #7 erases it.
TEST(checker_no_loss, gather_writeback_erases_a_racing_write)
{
	hist h(table({0, 1}));
	h.begin(ptep_get_and_clear_full(0, false)).reads(0, 8).hw_write(7, 7).reads(8, 8);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, page(i, true));	// the OR it gathered: old and clean
	h.xchg(0).ret(page(0, true));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"no-loss"});
	expect_violation(ck, property::no_loss, 7, "vanished");
}

// |C . . . . . . . . . . . . . . . .|  the same, but the write lands before
// #7 is read: gathered, written back everywhere, reported by the clear.
TEST(checker_no_loss, gather_writeback_with_the_write_before_the_read_is_quiet)
{
	hist h(table({0, 1}));
	h.begin(ptep_get_and_clear_full(0, false)).reads(0, 7).hw_write(7, 7).reads(7, 9);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, both(page(i, true)));
	const std::uint64_t cleared = h.at(0);
	h.xchg(0).ret(cleared);
	// Whoever reads #1 next sees what was written back: a flag of the run,
	// not an invention.
	h.begin(ptep_get(1)).reads(0, RUN).ret(h.at(1));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// | . . . D . ...|  (no CONT) fork's wrprotect drops hw-dirty: a plain
// "clear WRITE, set RDONLY" instead of pte_wrprotect.
TEST(checker_no_loss, wrprotect_that_drops_hw_dirty_loses_it)
{
	hist h(table({}));
	h.hw_write(3, 3);
	h.begin(mk(call_kind::wrprotect_ptes, 0, 4));
	for (std::size_t i = 0; i < 4; i++)
		h.cmpxchg(i, pte_set(pte_clear_bits(h.at(i), PTE_WRITE), PTE_RDONLY));
	h.end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"no-loss"});
	expect_violation(ck, property::no_loss, 3, "dirty");
}

TEST(checker_no_loss, wrprotect_that_moves_hw_dirty_to_sw_dirty_is_quiet)
{
	hist h(table({}));
	h.hw_write(3, 3);
	h.begin(mk(call_kind::wrprotect_ptes, 0, 4));
	for (std::size_t i = 0; i < 4; i++)
		h.cmpxchg(i, pte_wrprotect(h.at(i)));
	h.end();
	h.begin(ptep_get(3)).read(3).ret(h.at(3));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_TRUE(pte_sw_dirty(h.at(3)));
}

// |C . . . . . Y . . . . D . . . . .|  exit of an anon folio: the flags are
// thrown away with the pages, a consumption that reports nothing.
TEST(checker_no_loss, clear_full_ptes_consumes_without_reporting)
{
	hist h(table({0, 1}));
	h.hw(1, 5).hw_write(3, 10);
	h.begin(mk(call_kind::clear_full_ptes, 0, RUN));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.live_events(), 0u);
	EXPECT_EQ(ck.calls(), 1u);
}

// ---------------------------------------------------------------- batch-or

// |C . . Y . . . . . . . . . . . . .|  the batch invents dirty
TEST(checker_batch_or, returning_dirty_no_cleared_entry_held_fires)
{
	hist h(table({0, 1}));
	h.hw(5, 2);
	h.begin(get_and_clear_full_ptes(0, RUN, true));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.ret(both(page(0, true)));
	const checker ck = h.check();
	// Nothing in the folio was ever dirty, so this is imprecise as well.
	EXPECT_EQ(flagged(ck), (names{"batch-or", "precise"}));
	expect_violation(ck, property::batch_or, 0, "held young");
}

// | . . . . . . . . . . . . D . . .|  (no CONT) batch over #0-#7 claims the
// dirty of #12: the folio had it, but the batch did not take it.
TEST(checker_batch_or, returning_a_flag_of_the_folio_outside_the_batch_fires)
{
	std::vector<std::uint64_t> t = table({});
	t[12] = dirty(t[12]);
	hist h(t);
	h.begin(get_and_clear_full_ptes(0, 8, false));
	for (std::size_t i = 0; i < 8; i++)
		h.xchg(i);
	h.ret(dirty(page(0)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"batch-or"});
	expect_violation(ck, property::batch_or, 0, "old+clean");
}

// |C . . . . . . . . . . . . . . . .|  the batch stops one entry short
TEST(checker_batch_or, leaving_one_entry_mapped_fires)
{
	hist h(table({0, 1}));
	h.begin(get_and_clear_full_ptes(0, RUN, true));
	for (std::size_t i = 0; i < RUN - 1; i++)
		h.xchg(i);
	h.ret(page(0, true));
	const checker ck = h.check();
	// The mapping left behind still grants what the clear took away.
	EXPECT_EQ(flagged(ck), (names{"batch-or", "permission"}));
	expect_violation(ck, property::batch_or, 15, "left #15 mapped");
	expect_violation(ck, property::permission, 15, "grants read");
}

// |C . . Y . . . . . D . . . . . . .|  plus an access to #12 that lands in
// #14 while the batch runs, before #14 is taken: the exact OR is quiet.
TEST(checker_batch_or, the_exact_or_of_what_was_taken_is_quiet)
{
	hist h(table({0, 1}));
	h.hw(5, 2).hw_write(0, 9);
	h.begin(get_and_clear_full_ptes(0, RUN, true));
	for (std::size_t i = 0; i < RUN; i++) {
		if (i == 10)
			h.hw(12, 14);
		h.xchg(i);
	}
	h.ret(both(page(0, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.live_events(), 0u);
	for (std::size_t i = 0; i < RUN; i++)
		EXPECT_EQ(ck.pending(i), 0u) << "#" << i;
}

// |C . . . . . . . . . . . . . D . .|  munmap of #4-#11, mainline style: the
// partially covered run is unfolded (the OR copied into every entry), then
// #4-#11 are taken; the rest of the run keeps its mapping and the dirty.
TEST(checker_batch_or, mainline_batch_over_part_of_a_run_is_quiet)
{
	hist h(table({0, 1}));
	h.hw_write(2, 13);
	h.begin(get_and_clear_full_ptes(4, 8, false));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.tlbi(0, RUN);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, both(page(i)));
	for (std::size_t i = 4; i < 12; i++)
		h.xchg(i);
	h.ret(both(page(4)));
	h.begin(ptep_get(14)).read(14).ret(h.at(14));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(4), 0u);
	EXPECT_EQ(ck.pending(14), FLAG_YOUNG | FLAG_DIRTY);
}

// |C . . . . . . . . D . . . . . . .|  a batch that returns its first entry
// as it found it: the dirty is neither returned nor left anywhere.
TEST(checker_batch_or, returning_the_first_entry_without_the_or_breaks_three_properties)
{
	hist h(table({0, 1}));
	h.hw_write(9, 9);
	h.begin(get_and_clear_full_ptes(0, RUN, true));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.ret(page(0, true));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), (names{"batch-or", "per-call", "no-loss"}));
	expect_violation(ck, property::batch_or, 0, "held young+dirty");
	expect_violation(ck, property::per_call, 0, "dirty");
	expect_violation(ck, property::no_loss, 9, "lost");
}

// ---------------------------------------------------------------- precise

// |C . . . . . . . . . . . . . . . .|  young out of thin air
TEST(checker_precise, reporting_young_with_nothing_pending_fires)
{
	hist h(table({0, 1}));
	h.begin(ptep_get(3)).reads(0, RUN).ret(young(page(3, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"precise"});
	expect_violation(ck, property::precise, 3, "young");
}

// |C . . . . . . . . . . . . . . . .|C . Y . ...|  young in the other folio
// only: precision is bounded by the folio, so this still fires.
TEST(checker_precise, young_pending_in_another_folio_does_not_excuse_it)
{
	hist h(table({0, 1}));
	h.hw(17, 18);
	h.begin(ptep_get(3)).reads(0, RUN).ret(young(page(3, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"precise"});
	expect_violation(ck, property::precise, 3);
}

// |C . . . . . . . . Y . . . . . . .|  young pending in the run: quiet
TEST(checker_precise, young_pending_elsewhere_in_the_folio_is_quiet)
{
	hist h(table({0, 1}));
	h.hw(12, 9);
	h.begin(ptep_get(3)).reads(0, RUN).ret(young(page(3, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// |C . . . . . . . . Y . . . . . .|  MADV_FREE over the whole folio clears
// young in #0-#8 only and leaves #9's; a later ptep_get reports it though
// the clear consumed every page's young.  The violation names the clear and
// the entry the flag was left in.
TEST(checker_precise, a_flag_left_behind_by_a_clear_names_the_clear_and_the_entry)
{
	hist h(table({0, 1}));
	h.hw(5, 9);
	h.begin(clear_young_dirty_ptes(0, RUN, CYDP_CLEAR_YOUNG));
	for (std::size_t k = 0; k < 9; k++)
		h.cmpxchg(k, page(k, true));
	h.end();
	h.begin(ptep_get(3)).reads(0, RUN).ret(young(page(3, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"precise"});
	expect_violation(ck, property::precise, 3, "consumed by clear_young_dirty_ptes(#0, nr=16");
	expect_violation(ck, property::precise, 3, "#9 still held it");
}

// The same report with nothing consumed before: no call to name.
TEST(checker_precise, a_flag_nobody_recorded_names_no_clear)
{
	hist h(table({0, 1}));
	h.begin(ptep_get(3)).reads(0, RUN).ret(young(page(3, true)));
	const checker ck = h.check();
	ASSERT_EQ(flagged(ck), names{"precise"});
	EXPECT_EQ(ck.violations().front().message.find("consumed by"), std::string::npos)
		<< ck.violations().front().message;
}

// A swap entry whose type sets bit 10 (AF) and whose offset sets bit 52
// (CONT): a ptep_get that trusts those bits gathers the run's flags.
std::uint64_t aliasing_swap_entry()
{
	const std::uint64_t v = mk_swp_entry(0x10, (std::uint64_t{1} << 40) | 0x123);
	EXPECT_TRUE(pte_young(v));
	EXPECT_TRUE(pte_cont(v));
	EXPECT_FALSE(pte_valid(v));
	return v;
}

// | . . . . S . . . D . ...|  (#16-#31, no CONT; S at #20)
TEST(checker_precise, non_present_entry_read_back_exactly_is_quiet)
{
	std::vector<std::uint64_t> t = table({});
	t[20] = aliasing_swap_entry();
	t[24] = dirty(t[24]);
	hist h(t);
	h.begin(ptep_get(20)).read(20).ret(t[20]);
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

TEST(checker_precise, non_present_entry_read_with_gathered_flags_fires)
{
	std::vector<std::uint64_t> t = table({});
	t[20] = aliasing_swap_entry();
	t[24] = dirty(t[24]);
	hist h(t);
	h.begin(ptep_get(20)).reads(16, RUN).ret(t[20] | PTE_DIRTY);
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"precise"});
	expect_violation(ck, property::precise, 20, "non-present");
}

// Reclaim asks a swap entry whether it is young: its AF-aliasing type bit
// must not read as an access.
TEST(checker_precise, non_present_entry_answering_young_fires)
{
	std::vector<std::uint64_t> t = table({});
	t[20] = aliasing_swap_entry();
	hist h(t);
	h.begin(mk(call_kind::ptep_test_and_clear_young, 20)).read(20).end(young_answer(true));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"precise"});
	expect_violation(ck, property::precise, 20, "non-present #20");
}

// ---------------------------------------------------------------- isolation

// | . . . Y Y . ...|  (no CONT) clearing #3 also clears #4
TEST(checker_isolation, clearing_an_entry_outside_the_range_fires)
{
	hist h(table({}));
	h.hw(3, 3);
	const std::uint64_t cleared = h.at(3);
	h.begin(ptep_get_and_clear(3)).xchg(3).xchg(4).ret(cleared);
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"isolation"});
	expect_violation(ck, property::isolation, 4, "outside its range");
}

// |C . . . . . . . . D . . . . . . .|  "unfold" clears #3: the run is
// cleared, invalidated and rewritten without CONT with the run's OR, so #4
// changes flags and CONT but keeps its mapping.
TEST(checker_isolation, unfold_rewriting_neighbours_with_the_or_is_quiet)
{
	hist h(table({0, 1}));
	h.hw_write(12, 9);
	h.begin(ptep_get_and_clear(3));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.tlbi(0, RUN);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, both(page(i)));
	const std::uint64_t cleared = h.at(3);
	h.xchg(3).ret(cleared);
	h.begin(ptep_get(4)).read(4).ret(h.at(4));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_FALSE(pte_cont(h.at(4)));
}

// |C . . . . ...|  fork's wrprotect of #0-#3 widened to the run: removing
// write permission outside the range is a mapping change.
TEST(checker_isolation, wrprotect_widened_to_the_whole_run_fires)
{
	hist h(table({0, 1}));
	h.begin(mk(call_kind::wrprotect_ptes, 0, 4));
	for (std::size_t i = 0; i < RUN; i++)
		h.cmpxchg(i, pte_wrprotect(h.at(i)));
	h.end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"isolation"});
	expect_violation(ck, property::isolation, 4);
}

} // namespace
