// The checker judged on histories written by hand (tests/model/checker_history.h):
// well-formed (the TLB and break-before-make), lockless, progress and permission.

#include <gtest/gtest.h>

#include "tests/model/checker_history.h"

namespace {

using namespace ptespec;
using namespace ptespec::checker_test;

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
// none in a pte table.  A hint of level 3 is a pte's, as good as none there.
TEST(checker_well_formed, a_fold_flushing_with_a_run_stride_or_another_level_fires)
{
	EXPECT_EQ(flagged(fold_flushing_with(flush_level(3))), names{});
	expect_violation(fold_flushing_with(flush_stride(std::countr_zero(RUN))), property::well_formed, 1,
			 "the invalidation of #0..#15 stride 16 issued no TLBI for it");
	expect_violation(fold_flushing_with(flush_level(2)), property::well_formed, 0,
			 "the invalidation of #0..#15 level 2 issued no TLBI for it");
	EXPECT_EQ(flagged(fold_flushing_with(flush_stride(0))), names{});
}

// hugetlb's mprotect of the CONT_PTE hugepage #0..#15 to read-only: taken
// out with no flush, written back read-only (no break: it was not valid),
// then flush_hugetlb_tlb_range over it.  Until that flush some CPU may
// still hold the writable translations; one that names level 0 (with 4K
// pages a level, not a pte's) leaves them there.
hist hugetlb_mprotect_flushing_with(unsigned flags)
{
	hist h(table({0}));
	call start = mk(call_kind::huge_ptep_modify_prot_start, 0, RUN);
	h.begin(start);
	for (std::size_t i = 0; i < RUN; i++)
		h.xchg(i);
	h.ret(page(0, true));
	call commit = mk(call_kind::huge_ptep_modify_prot_commit, 0, RUN);
	commit.pte = page(0, true) & ~PTE_WRITE;
	h.begin(commit);
	for (std::size_t i = 0; i < RUN; i++)
		h.write(i, page(i, true) & ~PTE_WRITE);
	h.end();
	call flush = mk(call_kind::flush_hugetlb_tlb_range, 0, RUN);
	flush.flags = RUN;
	h.begin(flush).tlbi(0, RUN, flags).end();
	return h;
}

TEST(checker_well_formed, a_hugetlb_range_flush_that_leaves_a_writable_translation_fires)
{
	EXPECT_EQ(flagged(hugetlb_mprotect_flushing_with(0).check()).count("well-formed"), 0u);
	EXPECT_EQ(flagged(hugetlb_mprotect_flushing_with(flush_level(3)).check()).count("well-formed"), 0u);
	expect_violation(hugetlb_mprotect_flushing_with(flush_level(0)).check(), property::well_formed, 0,
			 "left #0's translation");
	expect_violation(hugetlb_mprotect_flushing_with(flush_level(0)).check(), property::well_formed, 0,
			 "grants write");
	expect_violation(hugetlb_mprotect_flushing_with(flush_nosync).check(), property::well_formed, 0,
			 "did not reach every CPU's TLB");
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

} // namespace
