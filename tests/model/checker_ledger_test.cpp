// The checker judged on histories written by hand (tests/model/checker_history.h):
// the ledger -- linearization, folds, widened clears, mprotect's transaction.

#include <gtest/gtest.h>

#include "tests/model/checker_history.h"

namespace {

using namespace ptespec;
using namespace ptespec::checker_test;

// ---------------------------------------------------------------- linearization

// | . . . . ...|  (no CONT) the access lands in #3 during its clear and the
// result reports it: ordered before, handed off, nothing left live.
TEST(checker_linearization, event_reported_by_a_get_and_clear_is_discharged)
{
	hist h(table({}));
	h.begin(ptep_get_and_clear(3)).hw(3, 3);
	const std::uint64_t cleared = h.at(3);
	h.xchg(3).ret(cleared);
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.live_events(), 0u);
	EXPECT_EQ(ck.pending(3), 0u);
}

// | . . . . ...|  the write lands in #3 after the strategy read it and
// before the xchg; the result is the stale read: the event is lost.
TEST(checker_linearization, event_missed_by_a_get_and_clear_in_its_own_entry_is_lost)
{
	hist h(table({}));
	h.begin(ptep_get_and_clear(3)).read(3).hw_write(3, 3).xchg(3).ret(page(3));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"no-loss"});
	expect_violation(ck, property::no_loss, 3, "lost");
	EXPECT_EQ(ck.live_events(), 0u);
}

// |C . . . . ...|  "simple" clears #0 while a write to #5 lands in #9: the
// result misses it, so it is ordered after, pending for #1-#15, and still
// visible in #9.
TEST(checker_linearization, event_missed_but_still_in_the_run_is_ordered_after)
{
	hist h(table({0, 1}));
	h.begin(ptep_get_and_clear_full(0, true)).read(0).hw_write(5, 9).xchg(0).ret(page(0, true));
	h.begin(ptep_get(1)).reads(0, RUN).ret(both(page(1, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.live_events(), 2u);
	EXPECT_EQ(ck.pending(0), 0u);
	EXPECT_EQ(ck.pending(1), FLAG_YOUNG | FLAG_DIRTY);
	EXPECT_NE(ck.ledger().find("pending for #1,#2"), std::string::npos) << ck.ledger();
}

// | . . . Y . ...|  (no CONT) MADV_FREE ages #3, then an access lands in #3
// before the call returns.  Ordering it before the clear is one legal
// reading; either way the AF sits in #3 and a later report of it is true.
TEST(checker_linearization, access_after_a_consumers_clear_may_be_reported_later)
{
	hist h(table({}));
	h.begin(clear_young_dirty_ptes(3, 1, CYDP_CLEAR_YOUNG)).cmpxchg(3, pte_mkold(h.at(3))).hw(3, 3).end();
	h.begin(ptep_get(3)).read(3).ret(h.at(3));
	const checker ck = h.check();
	EXPECT_TRUE(pte_young(h.at(3)));
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(3), 0u);	// nor is the reader owed it
}

// | . . . Y . ...|  reclaim reports #3's young, and a fresh access lands
// after its cmpxchg: the fresh AF is in #3 and may be read back.
TEST(checker_linearization, access_after_test_and_clear_young_may_be_reported_later)
{
	hist h(table({}));
	h.hw(3, 3);
	h.begin(mk(call_kind::ptep_test_and_clear_young, 3)).cmpxchg(3, pte_mkold(h.at(3))).hw(3, 3).end(young_answer(true));
	h.begin(ptep_get(3)).read(3).ret(h.at(3));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// ---------------------------------------------------------------- fold

// | . . . . . . D . . . . . . . . .|  (no CONT) fold keeps #6's dirty in #6
// |C . . . . . . D . . . . . . . . .|  then ptep_get(#2) forgets to gather
TEST(checker_fold, after_a_fold_every_page_owes_the_runs_flags)
{
	std::vector<std::uint64_t> t = table({});
	t[6] = dirty(t[6]);
	hist h(t);
	fold_run(h, 0, [](std::size_t i) { return i == 6 ? dirty(page(i, true)) : page(i, true); });
	h.begin(ptep_get(2)).read(2).ret(h.at(2));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"per-call"});
	expect_violation(ck, property::per_call, 2, "dirty");
}

TEST(checker_fold, after_a_fold_a_gathering_ptep_get_is_quiet)
{
	std::vector<std::uint64_t> t = table({});
	t[6] = dirty(t[6]);
	hist h(t);
	fold_run(h, 0, [](std::size_t i) { return i == 6 ? dirty(page(i, true)) : page(i, true); });
	h.begin(ptep_get(2)).reads(0, RUN).ret(dirty(page(2, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// | . . . . . . D . . . ...|  a fold that rewrites the run without the OR
TEST(checker_fold, a_fold_that_drops_a_flag_loses_it)
{
	std::vector<std::uint64_t> t = table({});
	t[6] = dirty(t[6]);
	hist h(t);
	fold_run(h, 0, [](std::size_t i) { return page(i, true); });
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"no-loss"});
	expect_violation(ck, property::no_loss, 6, "dirty");
}

// ---------------------------------------------------------------- widening

// |C . . . . . . . . . . . . Y . . .|  MADV_FREE on #0-#3 clears young of
// the whole folded run, as mainline does: core-mm tracks access per folio.
TEST(checker_widening, clear_young_dirty_ptes_may_clear_the_whole_folded_run)
{
	hist h(table({0, 1}));
	h.hw(2, 12);
	h.begin(clear_young_dirty_ptes(0, 4, CYDP_CLEAR_YOUNG));
	for (std::size_t i = 0; i < RUN; i++)
		h.cmpxchg(i, pte_mkold(h.at(i)));
	h.end();
	h.begin(ptep_get(9)).reads(0, RUN).ret(h.at(9));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(9), 0u);
	EXPECT_EQ(ck.live_events(), 0u);
}

// The widening is no licence to invent: young read back after it is still
// explained (optionally pending) if some entry kept it.
TEST(checker_widening, a_run_page_keeping_young_after_the_widened_clear_is_quiet)
{
	hist h(table({0, 1}));
	h.hw(2, 12);
	h.begin(clear_young_dirty_ptes(0, 4, CYDP_CLEAR_YOUNG));
	for (std::size_t i = 0; i < 4; i++)
		h.cmpxchg(i, pte_mkold(h.at(i)));
	h.end();
	h.begin(ptep_get(9)).reads(0, RUN).ret(young(h.at(9)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// | . . . . . . . . . Y . ...|  (no CONT) the same clear on an unfolded
// range must not touch #9: its young is lost, and the next ptep_get of #9
// misses it.
TEST(checker_widening, clear_young_dirty_ptes_outside_a_folded_run_loses_young)
{
	hist h(table({}));
	h.hw(9, 9);
	h.begin(clear_young_dirty_ptes(0, 4, CYDP_CLEAR_YOUNG));
	for (std::size_t i = 0; i < RUN; i++)
		h.cmpxchg(i, pte_mkold(h.at(i)));
	h.end();
	h.begin(ptep_get(9)).read(9).ret(h.at(9));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), (names{"no-loss", "per-call"}));
	expect_violation(ck, property::no_loss, 9, "young");
	expect_violation(ck, property::per_call, 9, "young");
}

// |C . . . . . Y . ...|  reclaim ages #3: young reported and cleared for the
// whole run; the rest of the run need not read young any more.
TEST(checker_widening, test_and_clear_young_hands_off_for_the_folded_run)
{
	hist h(table({0, 1}));
	h.hw(3, 6);
	h.begin(mk(call_kind::ptep_test_and_clear_young, 3));
	for (std::size_t i = 0; i < RUN; i++)
		h.cmpxchg(i, pte_mkold(h.at(i)));
	h.end(young_answer(true));
	h.begin(ptep_get(10)).reads(0, RUN).ret(h.at(10));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.live_events(), 0u);
}

// Same, with the access landing while reclaim runs: ordered before and
// reported, it must not become owed to the rest of the run.
TEST(checker_widening, test_and_clear_young_reporting_a_racing_access_hands_it_off)
{
	hist h(table({0, 1}));
	h.begin(mk(call_kind::ptep_test_and_clear_young, 3)).hw(3, 6);
	for (std::size_t i = 0; i < RUN; i++)
		h.cmpxchg(i, pte_mkold(h.at(i)));
	h.end(young_answer(true));
	h.begin(ptep_get(10)).reads(0, RUN).ret(h.at(10));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// ---- mprotect's transaction and PROT_NONE entries ----

call modify_prot_start_ptes(std::size_t i, std::size_t nr) { return mk(call_kind::modify_prot_start_ptes, i, nr); }
call modify_prot_commit_ptes(std::size_t i, std::uint64_t pte, std::size_t nr)
{
	call c = mk(call_kind::modify_prot_commit_ptes, i, nr);
	c.pte = pte;
	return c;
}

// PROT_NONE for entry i: not valid, PRESENT_INVALID, its pfn kept.
std::uint64_t prot_none(std::uint64_t v) { return pte_modify(v, PTE_TYPE | PTE_PRESENT_INVALID | PTE_RDONLY); }

// |C . . . B . ...|  mprotect(PROT_NONE) of the folded run: start returns
// #0 with the run's young and dirty, commit writes them into every entry
// (CONT kept, as contpte_set_ptes sets it); a later ptep_get of #9 reads
// them from #9's own PROT_NONE entry, which hardware never updates.
TEST(checker_prot_none, a_transaction_that_carries_the_runs_dirty_into_prot_none_is_quiet)
{
	hist h(table({0}));
	h.hw_write(4, 4);
	const std::uint64_t none = prot_none(both(page(0, true)));
	h.begin(modify_prot_start_ptes(0, RUN));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.ret(both(page(0, true)));
	h.begin(modify_prot_commit_ptes(0, none, RUN));
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, pte_advance_pfn(none, i, geo4k));
	h.end();
	h.tlbi(0, RUN);
	h.begin(ptep_get(9)).read(9).ret(h.at(9));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_GT(ck.exercised(property::batch_or), 0u);
	EXPECT_TRUE(pte_present(h.at(9)) && !pte_valid(h.at(9)) && pte_cont(h.at(9)) && pte_dirty(h.at(9)));
}

// The same, but start returns #0 as it was: the dirty recorded in #4 is
// neither returned nor left anywhere.
TEST(checker_prot_none, a_start_returning_its_first_entry_fails_batch_or)
{
	hist h(table({0}));
	h.hw_write(4, 4);
	h.begin(modify_prot_start_ptes(0, RUN));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.ret(page(0, true));
	const checker ck = h.check();
	expect_violation(ck, property::batch_or, 0, "dirty");
}

// | n n w n ...|  munmap of a PROT_NONE range whose #2 is dirty: the batch
// must return the dirty, though no entry of it is valid.
TEST(checker_prot_none, a_batch_dropping_a_prot_none_entrys_dirty_fails_batch_or)
{
	std::vector<std::uint64_t> t = table({});
	for (std::size_t i = 0; i < 4; i++)
		t[i] = prot_none(i == 2 ? dirty(page(i)) : page(i));
	hist h(t);
	h.begin(get_and_clear_full_ptes(0, 4, false));
	for (std::size_t i = 0; i < 4; i++)
		h.xchg(i);
	h.ret(prot_none(page(0)));
	const checker ck = h.check();
	expect_violation(ck, property::batch_or, 0, "dirty");
	expect_violation(ck, property::per_call, 2, "dirty");
}

} // namespace
