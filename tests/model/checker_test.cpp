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
#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/checker.h"
#include "model/hardware.h"
#include "model/observer.h"
#include "model/pte.h"
#include "model/tlb.h"

namespace {

using namespace ptespec;

constexpr std::size_t NR = 32;
constexpr std::size_t RUN = 16;
constexpr std::uint64_t PFN0 = 0x400;	// aligned to CONT_PTES: folio 0 is #0-#15, folio 1 is #16-#31

const geometry geo4k = geometry::of(granule::k4);

// A user page, inner shareable, writable-clean (DBM with RDONLY set).
constexpr std::uint64_t PROT = PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_WRITE | PTE_RDONLY;

// Entry i mapping its own page of its run's folio, old and clean.
std::uint64_t page(std::size_t i, bool cont = false)
{
	return pfn_pte<std::uint64_t>(PFN0 + i, PROT | (cont ? PTE_CONT : 0), geo4k);
}
std::uint64_t young(std::uint64_t v) { return pte_mkyoung(v); }
std::uint64_t dirty(std::uint64_t v) { return pte_mkdirty(v); }
std::uint64_t both(std::uint64_t v) { return pte_mkyoung(pte_mkdirty(v)); }

// |C . . . ... | for every run in `folded`, the rest mapped without CONT.
std::vector<std::uint64_t> table(std::initializer_list<std::size_t> folded_runs)
{
	std::vector<std::uint64_t> t(NR);
	for (std::size_t i = 0; i < NR; i++)
		t[i] = page(i);
	for (std::size_t r : folded_runs)
		for (std::size_t i = r * RUN; i < (r + 1) * RUN; i++)
			t[i] = page(i, true);
	return t;
}

// Builds a history step by step, tracking the table and what the TLB may
// hold exactly as the machine does, so an event can only land where the
// architecture lets it.
class hist {
public:
	explicit hist(std::vector<std::uint64_t> initial, hardware_options hw = {}) : tlb_(hw)
	{
		h_.geo = geo4k;
		h_.hw = hw;
		h_.folios = {{PFN0, RUN}, {PFN0 + RUN, RUN}};
		h_.initial = initial;
		t_ = std::move(initial);
		tlb_.reset(t_);
	}

	hist& begin(call c)
	{
		h_.steps.push_back(call_begin_step{c});
		open_.push_back(c);
		return *this;
	}
	// Ends the innermost open call.
	hist& end(call_result r = {})
	{
		if (open_.empty())
			throw std::logic_error("hist: end() without an open call");
		h_.steps.push_back(call_end_step{open_.back(), r});
		open_.pop_back();
		return *this;
	}
	hist& ret(std::uint64_t pte) { return end(call_result{pte, std::nullopt, std::nullopt}); }

	hist& read(std::size_t i) { return prim(prim_kind::read, i, t_.at(i)); }
	hist& reads(std::size_t first, std::size_t nr)
	{
		for (std::size_t i = first; i < first + nr; i++)
			read(i);
		return *this;
	}
	hist& write(std::size_t i, std::uint64_t v) { return prim(prim_kind::write, i, v); }
	hist& xchg(std::size_t i, std::uint64_t v = 0) { return prim(prim_kind::exchange, i, v); }
	hist& cmpxchg(std::size_t i, std::uint64_t v) { return prim(prim_kind::atomic_update, i, v); }
	hist& tlbi(std::size_t first, std::size_t nr, unsigned flags = 0)
	{
		tlb_.flush(first, nr, t_, flags);
		h_.steps.push_back(primitive_step{prim_kind::tlbi_range, first, nr, 0, 0, flags});
		return *this;
	}

	// Hardware records an access or write to `pg` in entry `landing`.
	hist& hw(std::size_t pg, std::size_t landing, hw_kind kind = hw_kind::access)
	{
		std::vector<std::size_t> cand;
		hw_candidates(t_, tlb_, geo4k, pg, kind, cand, h_.hw);
		bool ok = false;
		for (std::size_t c : cand)
			ok = ok || c == landing;
		if (!ok)
			throw std::logic_error("hist: an event on #" + std::to_string(pg) + " cannot land in #" +
					       std::to_string(landing));
		const std::uint64_t old = t_[landing];
		t_[landing] = hw_update(old, kind);
		tlb_.store(landing, t_[landing]);
		h_.steps.push_back(hw_event{++ids_, kind, pg, landing, old, t_[landing]});
		return *this;
	}
	hist& hw_write(std::size_t pg, std::size_t landing) { return hw(pg, landing, hw_kind::write); }

	std::uint64_t at(std::size_t i) const { return t_.at(i); }
	std::size_t steps() const { return h_.steps.size(); }
	const history& get() const { return h_; }

	checker check() const
	{
		checker ck(h_.geo, h_.folios, h_.initial, h_.hw);
		replay(h_, ck);
		return ck;
	}

private:
	hist& prim(prim_kind k, std::size_t i, std::uint64_t v)
	{
		const std::uint64_t old = t_.at(i);
		if (k != prim_kind::read) {
			t_[i] = v;
			tlb_.store(i, v);
		}
		h_.steps.push_back(primitive_step{k, i, 1, old, k == prim_kind::read ? old : v});
		return *this;
	}

	history h_;
	std::vector<std::uint64_t> t_;
	tlb_shadow tlb_;
	std::vector<call> open_;
	std::uint64_t ids_ = 0;
};

// The calls, spelled as core-mm spells them.
call mk(call_kind k, std::size_t i, std::size_t nr = 1)
{
	call c;
	c.kind = k;
	c.index = i;
	c.nr = nr;
	return c;
}
call ptep_get(std::size_t i) { return mk(call_kind::ptep_get, i); }
call ptep_get_lockless(std::size_t i) { return mk(call_kind::ptep_get_lockless, i); }
call ptep_get_and_clear(std::size_t i) { return mk(call_kind::ptep_get_and_clear, i); }
call ptep_get_and_clear_full(std::size_t i, bool full)
{
	call c = mk(call_kind::ptep_get_and_clear_full, i);
	c.full = full;
	return c;
}
call get_and_clear_full_ptes(std::size_t i, std::size_t nr, bool full)
{
	call c = mk(call_kind::get_and_clear_full_ptes, i, nr);
	c.full = full;
	return c;
}
call clear_young_dirty_ptes(std::size_t i, std::size_t nr, unsigned flags)
{
	call c = mk(call_kind::clear_young_dirty_ptes, i, nr);
	c.flags = flags;
	return c;
}
call ptep_set_access_flags(std::size_t i, std::uint64_t entry, bool dirty_fault)
{
	call c = mk(call_kind::ptep_set_access_flags, i);
	c.pte = entry;
	c.flags = dirty_fault ? 1 : 0;
	return c;
}
call set_ptes(std::size_t i, std::uint64_t pte, std::size_t nr)
{
	call c = mk(call_kind::set_ptes, i, nr);
	c.pte = pte;
	return c;
}

call_result young_answer(bool y) { return call_result{std::nullopt, y, std::nullopt}; }
call_result changed_answer(bool c) { return call_result{std::nullopt, std::nullopt, c}; }

// The names of the properties the checker flagged: a failing EXPECT prints
// the whole set, which says more than one boolean.
std::set<std::string> flagged(const checker& ck)
{
	std::set<std::string> s;
	for (const auto& v : ck.violations())
		s.insert(std::string(to_string(v.prop)));
	return s;
}
using names = std::set<std::string>;

// The checker reported `p` on page `pg`, and `why` is in its message.
void expect_violation(const checker& ck, property p, std::size_t pg, const std::string& why = "")
{
	const violation* v = ck.first(p);
	ASSERT_NE(v, nullptr) << to_string(p) << " not reported";
	EXPECT_EQ(v->page, pg) << v->message;
	if (!why.empty()) {
		EXPECT_NE(v->message.find(why), std::string::npos) << v->message;
	}
}

// Folds run r the legal way: clear all, invalidate, rewrite with CONT; the
// rewrite gives each entry the flags `flags_of(i)`.
template <class F>
hist& fold_run(hist& h, std::size_t r, F&& flags_of)
{
	h.begin(mk(call_kind::contpte_try_fold, r * RUN));
	for (std::size_t i = r * RUN; i < (r + 1) * RUN; i++)
		h.xchg(i);
	h.tlbi(r * RUN, RUN);
	for (std::size_t i = r * RUN; i < (r + 1) * RUN; i++)
		h.write(i, flags_of(i));
	return h.end();
}

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

// ---------------------------------------------------------------- well-formed

// | . . . ... . _|  #15 is none and never cached; mapping it with CONT
// leaves a run of valid entries that disagree on CONT.
TEST(checker_well_formed, a_run_mixing_cont_and_non_cont_entries_fires)
{
	std::vector<std::uint64_t> t = table({});
	t[15] = 0;
	hist h(t);
	h.begin(set_ptes(15, page(15, true), 1)).write(15, page(15, true)).end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"well-formed"});
	expect_violation(ck, property::well_formed, 15, "with and without CONT");
}

// | . _ _ _ ... _|  (#16 mapped alone) CONT written straight over a valid
// non-CONT entry: the TLB may hold both translations.
TEST(checker_well_formed, cont_over_a_valid_entry_without_break_before_make_fires)
{
	std::vector<std::uint64_t> t = table({});
	for (std::size_t i = 17; i < NR; i++)
		t[i] = 0;
	hist h(t);
	h.begin(mk(call_kind::contpte_try_fold, 16)).write(16, page(16, true)).end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"well-formed"});
	expect_violation(ck, property::well_formed, 16, "break-before-make");
}

// The same with a clear first, but no TLB invalidation: still no BBM.
TEST(checker_well_formed, clear_without_invalidation_is_not_break_before_make)
{
	std::vector<std::uint64_t> t = table({});
	for (std::size_t i = 17; i < NR; i++)
		t[i] = 0;
	hist h(t);
	h.begin(mk(call_kind::contpte_try_fold, 16)).xchg(16).write(16, page(16, true)).end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"well-formed"});
	expect_violation(ck, property::well_formed, 16, "break-before-make");
}

// | . . . . . . D . . . . . . . . .|  (no CONT) -> |C ...|: clear all,
// invalidate the range, rewrite with CONT.
TEST(checker_well_formed, fold_through_clear_and_invalidate_is_quiet)
{
	std::vector<std::uint64_t> t = table({});
	t[6] = dirty(t[6]);
	hist h(t);
	fold_run(h, 0, [](std::size_t i) { return dirty(page(i, true)); });
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	for (std::size_t i = 0; i < RUN; i++)
		EXPECT_EQ(ck.pending(i), FLAG_DIRTY) << "#" << i;
}

// |. . . ... .| -> |C . . ...|: clear all, invalidate with `flags` (or
// not at all), repaint with CONT.
hist fold_repainting(hardware_options hw, std::optional<unsigned> flush, std::uint64_t (*repaint)(std::size_t))
{
	hist h(table({}), hw);
	h.begin(mk(call_kind::contpte_try_fold, RUN - 1));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	if (flush)
		h.tlbi(0, RUN, *flush);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, repaint(i));
	h.end();
	return h;
}

std::uint64_t same_page_cont(std::size_t i) { return page(i, true); }

// Only an invalidation that reaches every CPU and completes before the
// repaint is break-before-make.
checker fold_flushing_with(unsigned flags, hardware_options hw = {})
{
	return fold_repainting(hw, flags, same_page_cont).check();
}

TEST(checker_well_formed, a_fold_flushing_this_cpu_only_or_without_sync_fires)
{
	EXPECT_EQ(flagged(fold_flushing_with(0)), names{});
	expect_violation(fold_flushing_with(flush_local), property::well_formed, 0,
			 "the invalidation of #0..#15 local did not reach every CPU");
	expect_violation(fold_flushing_with(flush_nosync), property::well_formed, 0, "break-before-make");
	// With one CPU a local invalidation is every TLB there is; an
	// unfinished one is still unfinished.
	EXPECT_EQ(flagged(fold_flushing_with(flush_local, {.one_cpu = true})), names{});
	expect_violation(fold_flushing_with(flush_nosync, {.one_cpu = true}), property::well_formed, 0,
			 "break-before-make");
}

// A stride of a whole run (one TLBI per run, as for a block) drops the
// first page's translation only; a level hint other than a pte's may drop
// none.  A hint of level 3 is a pte's, as good as none.
TEST(checker_well_formed, a_fold_flushing_with_a_run_stride_or_another_level_fires)
{
	EXPECT_EQ(flagged(fold_flushing_with(flush_level(3))), names{});
	expect_violation(fold_flushing_with(flush_stride(std::countr_zero(RUN))), property::well_formed, 1,
			 "the invalidation of #0..#15 stride 16 issued no TLBI for it");
	expect_violation(fold_flushing_with(flush_level(2)), property::well_formed, 0,
			 "the invalidation of #0..#15 level 2 issued no TLBI for it");
	EXPECT_EQ(flagged(fold_flushing_with(flush_stride(0))), names{});
}

// The fold without the invalidation, repainting the run with CONT and
// nothing else changed.  With BBML2 and no conflict aborts the TLB may hold
// old and new at once and answers with either, both right; without it the
// same history skips break-before-make.
hist fold_without_invalidation(hardware_options hw, std::uint64_t (*repaint)(std::size_t))
{
	return fold_repainting(hw, std::nullopt, repaint);
}

TEST(checker_well_formed, under_bbml2_a_fold_may_skip_the_invalidation)
{
	const checker quiet = fold_without_invalidation({.bbml2_noabort = true}, same_page_cont).check();
	EXPECT_EQ(flagged(quiet), names{});
	const checker plain = fold_without_invalidation({}, same_page_cont).check();
	expect_violation(plain, property::well_formed, 0, "break-before-make");
}

// The same fold repainting the run read-only: under BBML2 a lookup answers
// with the old writable translation or the new read-only one, never a mix,
// and the caller's flush ends the change -- as any permission change before
// its flush.  Without BBML2 it is the same skipped break.
TEST(checker_well_formed, under_bbml2_a_repaint_that_changes_permissions_only_is_legal)
{
	auto wrprotected = [](std::size_t i) { return pte_wrprotect(page(i, true)); };
	const checker ck = fold_without_invalidation({.bbml2_noabort = true}, wrprotected).check();
	EXPECT_FALSE(ck.failed(property::well_formed)) << ck.first(property::well_formed)->message;
	// (isolation still fires: a fold asked about one page took write
	// permission from the others)
	EXPECT_TRUE(ck.failed(property::isolation));
	const checker plain = fold_without_invalidation({}, wrprotected).check();
	expect_violation(plain, property::well_formed, 0, "break-before-make");
}

// A repaint onto other pages (another output address) or another memory
// type is no change of size: even BBML2 needs the break.
TEST(checker_well_formed, under_bbml2_a_repaint_to_another_address_or_memory_type_fires)
{
	auto moved = [](std::size_t i) { return page(i + RUN, true); };
	expect_violation(fold_without_invalidation({.bbml2_noabort = true}, moved).check(), property::well_formed, 0,
			 "maps another address or memory type");
	auto other_type = [](std::size_t i) { return page(i, true) ^ PTE_ATTRINDX_MASK; };
	expect_violation(fold_without_invalidation({.bbml2_noabort = true}, other_type).check(),
			 property::well_formed, 0, "maps another address or memory type");
}

// |C . . . ...|  CONT entries whose pfns are not the run's
TEST(checker_well_formed, a_run_with_non_contiguous_pfns_fires)
{
	hist h(table({}));
	fold_run(h, 0, [](std::size_t i) { return i == 9 ? page(10, true) : page(i, true); });
	const checker ck = h.check();
	EXPECT_TRUE(ck.failed(property::well_formed));
	expect_violation(ck, property::well_formed, 9, "not contiguous");
}

// |C . . . ...|  wrprotect of the first half of a folded run, without
// unfolding: after the call the run disagrees on WRITE.
TEST(checker_well_formed, wrprotect_of_part_of_a_folded_run_fires_at_call_end)
{
	hist h(table({0, 1}));
	h.begin(mk(call_kind::wrprotect_ptes, 0, 8));
	for (std::size_t i = 0; i < 8; i++)
		h.cmpxchg(i, pte_wrprotect(h.at(i)));
	h.end();
	const checker ck = h.check();
	// The protected half may still be written through the CONT
	// translation of the other: permission too.
	EXPECT_EQ(flagged(ck), (names{"well-formed", "permission"}));
	expect_violation(ck, property::well_formed, 8, "write permission");
	EXPECT_EQ(ck.first(property::well_formed)->step, h.steps());
	expect_violation(ck, property::permission, 0, "#8's CONT translation");
}

// |C . . . ...|  the whole run, entry by entry: it disagrees on WRITE only
// while the call runs.
TEST(checker_well_formed, wrprotect_of_a_whole_folded_run_is_quiet)
{
	hist h(table({0, 1}));
	h.begin(mk(call_kind::wrprotect_ptes, 0, RUN));
	for (std::size_t i = 0; i < RUN; i++)
		h.cmpxchg(i, pte_wrprotect(h.at(i)));
	h.end();
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// | . . . ... |  (#16-#31, no CONT) munmap clears run 1; a later fault maps
// a folio there and set_ptes folds it.  Core-mm flushes the range between
// the two (tlb_finish_mmu), which the history must show as a TLBI outside
// any call; without it stale non-CONT translations meet the new CONT run.
hist remap_after_munmap(bool flushed)
{
	hist h(table({}));
	h.begin(get_and_clear_full_ptes(16, RUN, false));
	for (std::size_t i = 16; i < NR; i++)
		h.xchg(i);
	h.ret(page(16));
	if (flushed)
		h.tlbi(16, RUN);
	h.begin(set_ptes(16, page(16), RUN));
	for (std::size_t i = 16; i < NR; i++)
		h.write(i, page(i, true));
	return h.end();
}

TEST(checker_well_formed, remap_with_cont_after_a_flushed_munmap_is_quiet)
{
	const checker ck = remap_after_munmap(true).check();
	EXPECT_EQ(flagged(ck), names{});
}

TEST(checker_well_formed, remap_with_cont_over_stale_translations_fires)
{
	const checker ck = remap_after_munmap(false).check();
	EXPECT_EQ(flagged(ck), names{"well-formed"});
	expect_violation(ck, property::well_formed, 16, "break-before-make");
}

// ---------------------------------------------------------------- lockless

// GUP-fast reads #3 while a fold of run 0 runs under the lock.
hist lockless_across_a_fold()
{
	hist h(table({}));
	h.begin(ptep_get_lockless(3)).read(3);
	fold_run(h, 0, [](std::size_t i) { return page(i, true); });
	h.reads(0, RUN);
	return h;
}

TEST(checker_lockless, a_value_held_mid_fold_is_quiet)
{
	for (std::uint64_t got : {page(3), std::uint64_t{0}, page(3, true)}) {
		hist h = lockless_across_a_fold();
		h.ret(got);
		const checker ck = h.check();
		EXPECT_EQ(flagged(ck), names{}) << std::hex << got;
	}
}

TEST(checker_lockless, a_value_never_held_fires)
{
	hist h = lockless_across_a_fold();
	h.ret(page(4, true));	// #4's pfn: a torn mix of two entries
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"lockless"});
	expect_violation(ck, property::lockless, 3, "never held");
}

TEST(checker_lockless, a_value_with_permissions_never_held_fires)
{
	hist h(table({0, 1}));
	h.begin(ptep_get_lockless(3)).reads(0, RUN).ret(pte_wrprotect(page(3, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"lockless"});
	expect_violation(ck, property::lockless, 3);
}

// |C . . . D . . . ...|  dirty pending for the whole run before GUP-fast
// reads #3 while run 0 is unfolded under it: a reader that ORs only the
// entries it sees after the unfold cleared them misses the dirty.
TEST(checker_lockless, a_torn_read_missing_a_pending_flag_fires)
{
	hist h(table({0}));
	h.hw_write(5, 5);
	h.begin(ptep_get_lockless(3)).read(3);
	h.begin(ptep_get_and_clear(9));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.tlbi(0, RUN);
	for (std::size_t i = 0; i < RUN; i++)
		if (i != 9)
			h.write(i, both(page(i)));
	h.ret(both(page(9)));
	h.reads(0, RUN);
	h.ret(young(page(3, true)));	// young only: the dirty is gone from the value
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"lockless"});
	expect_violation(ck, property::lockless, 3, "throughout");
}

TEST(checker_lockless, a_read_with_the_pending_flag_is_quiet)
{
	hist h(table({0}));
	h.hw_write(5, 5);
	h.begin(ptep_get_lockless(3)).reads(0, RUN).ret(both(page(3, true)));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
}

// A report that maps another page: precise covers the mapping too.
TEST(checker_precise, a_report_mapping_another_page_fires)
{
	hist h(table({}));
	h.begin(ptep_get(3)).read(3).ret(page(4));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"precise"});
	expect_violation(ck, property::precise, 3, "mapped");
}

// ---------------------------------------------------------------- progress

constexpr hardware_options no_hafdbs{false, true};

// | . . . . ...|  (no CONT) a write fault on writable-clean #3 that sets
// the software dirty bit only: the walker still sees RDONLY.  A CPU with
// DBM would clear it on the retry; a walker without hardware dirty
// management (an SMMU without HTTU, or any under no-hafdbs) faults again.
hist leaving_rdonly(hardware_options hw)
{
	hist h(table({}), hw);
	const std::uint64_t want = both(page(3));
	h.begin(ptep_set_access_flags(3, want, true)).cmpxchg(3, page(3) | PTE_AF | PTE_DIRTY);
	return h.end(changed_answer(true));
}

TEST(checker_progress, set_access_flags_leaving_the_entry_rdonly_fires_with_and_without_hafdbs)
{
	ASSERT_TRUE(pte_hw_dirty(both(page(3))));
	for (hardware_options hw : {hardware_options{}, no_hafdbs}) {
		const checker ck = leaving_rdonly(hw).check();
		EXPECT_EQ(flagged(ck), names{"progress"});
		expect_violation(ck, property::progress, 3, "without hardware access/dirty management");
	}
}

TEST(checker_progress, set_access_flags_leaving_the_entry_hw_dirty_and_young_is_quiet)
{
	hist h(table({}));
	const std::uint64_t want = both(page(3));
	h.begin(ptep_set_access_flags(3, want, true)).cmpxchg(3, want).end(changed_answer(true));
	h.begin(ptep_get(3)).read(3).ret(h.at(3));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_EQ(ck.pending(3), FLAG_YOUNG | FLAG_DIRTY);
}

// |C . . . ...|  the flags go into #0 of the folded run: gathering readers
// see them, a walker that reads #3 alone does not.
TEST(checker_progress, flags_stashed_in_another_entry_of_the_run_fire_without_hafdbs)
{
	hist h(table({0, 1}), no_hafdbs);
	h.begin(ptep_set_access_flags(3, both(page(3, true)), true))
		.cmpxchg(0, both(h.at(0)))
		.end(changed_answer(true));
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"progress"});
	expect_violation(ck, property::progress, 3);
}

// ---------------------------------------------------------------- permission

// Fork write-protects a folio batch of two folded runs, #0-#31.
hist fork_wrprotect(std::size_t protected_entries)
{
	hist h(table({0, 1}));
	h.begin(mk(call_kind::wrprotect_ptes, 0, NR));
	for (std::size_t i = 0; i < protected_entries; i++)
		h.cmpxchg(i, pte_wrprotect(h.at(i)));
	return h.end();
}

// |C . . . ...|C . . . ...|  only the first run: #16-#31 stay writable
// though fork asked for them read-only (copy-on-write is broken).
TEST(checker_permission, wrprotect_missing_the_second_run_of_its_batch_fires)
{
	hist h = fork_wrprotect(RUN);
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{"permission"});
	expect_violation(ck, property::permission, 16, "grants write through its own entry");
	EXPECT_GT(ck.exercised(property::permission), 0u);
}

TEST(checker_permission, wrprotect_of_the_whole_batch_is_quiet)
{
	hist h = fork_wrprotect(NR);
	const checker ck = h.check();
	EXPECT_EQ(flagged(ck), names{});
	EXPECT_GT(ck.exercised(property::permission), 0u);
}

// | . . . . . R . ...|  (no CONT, #5 read-only) a fault maps #3 and the
// fold repaints the run with #3's permissions: #5 becomes writable at the
// store, though no call asked for it.
TEST(checker_permission, a_fold_repainting_a_read_only_entry_writable_fires_at_the_store)
{
	std::vector<std::uint64_t> t = table({});
	t[5] = pte_wrprotect(t[5]);
	t[3] = 0;
	hist h(t);
	h.begin(set_ptes(3, page(3), 1)).write(3, page(3));
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.tlbi(0, RUN);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, page(i, true));
	h.end();
	const checker ck = h.check();
	expect_violation(ck, property::permission, 5, "when set_ptes");
	EXPECT_LT(ck.first(property::permission)->step, h.steps());
}

// A write fault that reuses a read-only page asks for write: granting it
// is what was asked.  The same entry made writable by a read fault was not.
hist access_fault_on_read_only(bool asks_write)
{
	std::vector<std::uint64_t> t = table({});
	t[3] = pte_wrprotect(t[3]);
	hist h(t);
	const std::uint64_t entry = asks_write ? both(page(3)) : young(t[3]);
	h.begin(ptep_set_access_flags(3, entry, asks_write)).cmpxchg(3, both(page(3)));
	return h.end(changed_answer(true));
}

TEST(checker_permission, set_access_flags_granting_the_write_a_fault_asked_for_is_quiet)
{
	const checker ck = access_fault_on_read_only(true).check();
	EXPECT_EQ(flagged(ck), names{});
}

TEST(checker_permission, set_access_flags_granting_write_to_a_read_fault_fires)
{
	const checker ck = access_fault_on_read_only(false).check();
	EXPECT_EQ(flagged(ck), names{"permission"});
	expect_violation(ck, property::permission, 3, "grants write");
}

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
