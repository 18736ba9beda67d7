// The core-mm callers: which calls each path makes over a hand-made table,
// run on mainline through a sink that writes them down.

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "mm/callers.h"
#include "../impl/table.h"

namespace ptespec::test {
namespace {

class recording_sink final : public mm::call_sink {
public:
	explicit recording_sink(machine& m) : s_(registry::global().get("mainline")), m_(m) {}
	bool implements(call_kind k) const override { return s_.implements(k); }
	std::optional<call_result> run(const call& c) override
	{
		log.push_back(describe(c));
		return run_call(s_, m_, c);
	}
	void flush_range(std::size_t first, std::size_t nr) override
	{
		log.push_back("flush #" + std::to_string(first) + "+" + std::to_string(nr));
		m_.flush_tlb_range(first, nr);
	}
	std::vector<std::string> log;

private:
	strategy& s_;
	machine& m_;
};

using calls = std::vector<std::string>;

TEST(callers, exit_over_a_folded_run_reads_one_entry_and_clears_the_run_in_one_batch)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	recording_sink s(m);
	mm::zap_pte_range(s, {geo4k, m.folios()}, 0, CONT, {.full = true});
	EXPECT_EQ(s.log, (calls{"ptep_get(#0)", "get_and_clear_full_ptes(#0, nr=16, full=1)", "flush #0+16"}));
	EXPECT_EQ(ruler(m.table()), "|................|");
}

TEST(callers, a_batch_ends_where_the_folio_of_its_first_pfn_ends)
{
	// #0-#3 map the last four pages of folio 0x100 (64 pages), #4-#7 the
	// first of folio 0x140: physically contiguous, but two folios.
	machine m = make_machine(1);
	m.set_folios({{0x100, 64}, {0x140, 64}});
	map(m, 0, 8, 0x13c);
	recording_sink s(m);
	mm::zap_pte_range(s, {geo4k, m.folios()}, 0, 8, {});
	EXPECT_EQ(s.log, (calls{"ptep_get(#0)", "ptep_get(#1)", "ptep_get(#2)", "ptep_get(#3)",
				"get_and_clear_full_ptes(#0, nr=4, full=0)", "ptep_get(#4)", "ptep_get(#5)",
				"ptep_get(#6)", "ptep_get(#7)", "get_and_clear_full_ptes(#4, nr=4, full=0)",
				"flush #0+8"}));
}

TEST(callers, fault_around_maps_each_folios_stretch_of_none_entries_with_one_set_ptes)
{
	// #0-#7 one folio, #8-#15 another; #3 is mapped, #5 holds a swap entry.
	machine m = make_machine(1);
	m.set_folios({{0x100, 8}, {0x108, 8}});
	map(m, 3, 1, 0x103);
	m.poke(5, SWP_ALIAS);
	recording_sink s(m);
	mm::fault_around(s, {geo4k, m.folios()}, 0, CONT, page(0x100));
	calls want;
	for (std::size_t i = 0; i < CONT; i++) {
		want.push_back("ptep_get(#" + std::to_string(i) + ")");
		if (i == 3)
			want.push_back(describe({call_kind::set_ptes, 0, 3, false, page(0x100), 0}));
		if (i == 5)
			want.push_back(describe({call_kind::set_ptes, 4, 1, false, page(0x104), 0}));
		if (i == 8)
			want.push_back(describe({call_kind::set_ptes, 6, 2, false, page(0x106), 0}));
	}
	want.push_back(describe({call_kind::set_ptes, 8, 8, false, page(0x108), 0}));
	EXPECT_EQ(s.log, want);
}

TEST(callers, swap_entries_that_follow_each_other_go_in_one_non_present_clear)
{
	machine m = make_machine(1);
	const std::uint64_t swp = mk_swp_entry(1, 0x40);
	m.poke(2, swp);
	m.poke(3, mk_swp_entry(1, 0x41));
	m.poke(4, mk_swp_entry(1, 0x77));	// not the next offset: a batch of its own
	recording_sink s(m);
	mm::zap_pte_range(s, {geo4k, m.folios()}, 1, 6, {});
	EXPECT_EQ(s.log, (calls{"ptep_get(#1)", "ptep_get(#2)", "ptep_get(#3)", "ptep_get(#4)",
				"clear_non_present_ptes(#2, nr=2)", "ptep_get(#4)", "ptep_get(#5)",
				"clear_non_present_ptes(#4, nr=1)", "ptep_get(#5)", "flush #1+5"}));
	EXPECT_EQ(ruler(m.table()), "|................|");
}

TEST(callers, per_entry_zap_and_anon_zap_use_their_own_calls)
{
	machine m = make_machine(1);
	map(m, 0, 2, 0x100);
	recording_sink per(m);
	mm::zap_pte_range(per, {geo4k, m.folios()}, 0, 2, {.full = true, .batched = false});
	EXPECT_EQ(per.log, (calls{"ptep_get(#0)", "ptep_get_and_clear_full(#0, full=1)", "ptep_get(#1)",
				  "ptep_get_and_clear_full(#1, full=1)", "flush #0+2"}));

	map(m, 0, 2, 0x100);
	recording_sink anon(m);
	mm::zap_pte_range(anon, {geo4k, m.folios()}, 0, 2, {.anon = true});
	EXPECT_EQ(anon.log, (calls{"ptep_get(#0)", "ptep_get(#1)", "clear_full_ptes(#0, nr=2, full=0)", "flush #0+2"}));
}

TEST(callers, a_batch_limit_cuts_a_folded_run_into_pieces)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	recording_sink s(m);
	mm::zap_pte_range(s, {geo4k, m.folios()}, 0, CONT, {.batch_limit = 10});
	ASSERT_GE(s.log.size(), 2u);
	EXPECT_EQ(s.log[1], "get_and_clear_full_ptes(#0, nr=10, full=0)");
	EXPECT_EQ(s.log.back(), "flush #0+16");
	EXPECT_EQ(ruler(m.table()), "|................|");
}

// Reclaim over #4..#23 of one folio: a batch from inside the folded run to
// where the mapping stops, then one after the hole.
//   |FFFFFFFFFFFFFFFF|oooo.ooo........|
//        [4                  24)
TEST(callers, reclaim_clears_young_a_folio_batch_at_a_time)
{
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	map(m, CONT, 4, 0x110);
	map(m, 21, 3, 0x115);
	recording_sink s(m);
	mm::folio_referenced_one(s, {geo4k, m.folios()}, 4, 24, {});
	EXPECT_EQ(s.log, (calls{"ptep_get(#4)", "ptep_get(#16)", "ptep_get(#17)", "ptep_get(#18)", "ptep_get(#19)",
				"ptep_get(#20)", "clear_flush_young_ptes(#4, nr=16)", "ptep_get(#20)", "ptep_get(#21)",
				"ptep_get(#22)", "ptep_get(#23)", "clear_flush_young_ptes(#21, nr=3)"}));
}

// Entry by entry (reclaim before the batched calls), MGLRU's form without
// the flush; an entry of another folio is passed over.
TEST(callers, reclaim_entry_by_entry_makes_the_one_entry_calls)
{
	machine m = make_machine(1);
	map(m, 0, 2, 0x100);
	map(m, 2, 1, 0x200);
	recording_sink s(m);
	mm::folio_referenced_one(s, {geo4k, m.folios()}, 0, 3, {.flush = false, .batched = false});
	EXPECT_EQ(s.log, (calls{"ptep_get(#0)", "ptep_test_and_clear_young(#0)", "ptep_get(#1)",
				"ptep_test_and_clear_young(#1)", "ptep_get(#2)"}));
}

TEST(callers, fork_write_protects_only_writable_batches)
{
	machine m = make_machine(1);
	map(m, 0, 2, 0x100);
	map(m, 2, 1, 0x102, PROT_RO);
	map(m, 3, 1, 0x103);
	recording_sink s(m);
	mm::copy_pte_range(s, {geo4k, m.folios()}, 0, 4);
	EXPECT_EQ(s.log, (calls{"ptep_get(#0)", "ptep_get(#1)", "ptep_get(#2)", "wrprotect_ptes(#0, nr=2)",
				"ptep_get(#2)", "ptep_get(#3)", "wrprotect_ptes(#3, nr=1)"}));
}

TEST(callers, a_write_fault_through_a_read_only_entry_of_a_writable_vma_makes_it_writable_and_dirty)
{
	machine m = make_machine(1);
	map(m, 0, 1, 0x100, PROT_RO);
	recording_sink s(m);
	mm::access_fault(s, 0, true, true);
	ASSERT_EQ(s.log.size(), 2u);
	const std::uint64_t want = pte_mkwrite(pte_mkdirty(pte_mkyoung(page(0x100, PROT_RO))));
	EXPECT_EQ(s.log[1], describe({call_kind::ptep_set_access_flags, 0, 1, false, want, 1}));
}

TEST(callers, the_planned_exit_of_a_folded_run_is_the_call_sequence_the_strategy_would_get)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	auto all = [](call_kind) { return true; };
	std::vector<std::string> batched, per_entry;
	for (const call& c : mm::planned_zap({geo4k, m.folios()}, m.table(), 0, CONT, {.full = true}, all))
		batched.push_back(describe(c));
	EXPECT_EQ(batched, (calls{"ptep_get(#0)", "get_and_clear_full_ptes(#0, nr=16, full=1)"}));
	for (const call& c :
	     mm::planned_zap({geo4k, m.folios()}, m.table(), 0, CONT, {.full = true, .batched = false}, all))
		per_entry.push_back(describe(c));
	ASSERT_EQ(per_entry.size(), 2 * CONT);
	EXPECT_EQ(per_entry[30], "ptep_get(#15)");
	EXPECT_EQ(per_entry[31], "ptep_get_and_clear_full(#15, full=1)");
	// The table itself is the caller's copy: planning changes nothing.
	EXPECT_EQ(ruler(m.table()), "|OOOOOOOOOOOOOOOO|");
}

// mprotect over a folded run whose dirty sits in one entry: one
// transaction for the run, and every new entry keeps the run's dirty.
//   |OOOODOOOOOOOOOOO| -> read-only -> |DDDDDDDDDDDDDDDD|
TEST(callers, mprotect_takes_a_folded_run_out_in_one_transaction_and_keeps_its_dirty)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 4, false, true);
	recording_sink s(m);
	mm::change_pte_range(s, {geo4k, m.folios()}, 0, CONT, PROT_RO);
	const std::uint64_t want = pte_modify(cont(dirty(page(0x100))), PROT_RO);
	EXPECT_EQ(s.log, (calls{"ptep_get(#0)", "modify_prot_start_ptes(#0, nr=16)",
				describe({call_kind::modify_prot_commit_ptes, 0, CONT, false, want, 0}),
				"flush #0+16"}));
	EXPECT_EQ(ruler(m.table()), "|DDDDDDDDDDDDDDDD|");
	for (std::size_t k = 0; k < CONT; k++)
		EXPECT_FALSE(pte_write(m.table()[k])) << k;
}

// A range that ends inside a folded run: the batch stops at the range's
// end, and the run is unfolded so its halves may differ.
TEST(callers, mprotect_of_part_of_a_run_batches_up_to_the_range_end)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	recording_sink s(m);
	mm::change_pte_range(s, {geo4k, m.folios()}, 0, 6, PROT_RO);
	ASSERT_EQ(s.log.size(), 4u);
	EXPECT_EQ(s.log[1], "modify_prot_start_ptes(#0, nr=6)");
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
	EXPECT_FALSE(pte_write(m.table()[5]));
	EXPECT_TRUE(pte_write(m.table()[6]));
}

// Swap entries are passed over; with nothing present nothing is flushed.
TEST(callers, mprotect_passes_over_swap_entries)
{
	machine m = make_machine(1);
	m.poke(0, SWP_ALIAS);
	recording_sink s(m);
	mm::change_pte_range(s, {geo4k, m.folios()}, 0, 2, PROT_RO);
	EXPECT_EQ(s.log, (calls{"ptep_get(#0)", "ptep_get(#1)"}));
}

// mprotect(PROT_NONE) of a folded run with young in #3, then back: the
// PROT_NONE entries stay present with the run's young in each (CONT too, as
// contpte_set_ptes sets it); back to read-write, the batch is the whole
// run again (read entry by entry: pte_batch_hint trusts valid CONT only).
//   |OOOYOOOOOOOOOOOO| -> |RRRRRRRRRRRRRRRR| -> |YYYYYYYYYYYYYYYY|
TEST(callers, mprotect_to_prot_none_and_back_keeps_the_runs_young_in_every_entry)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 3, true, false);
	recording_sink s(m);
	mm::change_pte_range(s, {geo4k, m.folios()}, 0, CONT, PAGE_NONE);
	EXPECT_EQ(ruler(m.table()), "|RRRRRRRRRRRRRRRR|");
	for (std::size_t k = 0; k < CONT; k++)
		EXPECT_TRUE(pte_present(m.table()[k]) && !pte_valid(m.table()[k])) << k;
	s.log.clear();
	mm::change_pte_range(s, {geo4k, m.folios()}, 0, CONT, PROT_RW);
	ASSERT_EQ(s.log.size(), CONT + 3);
	EXPECT_EQ(s.log[CONT], "modify_prot_start_ptes(#0, nr=16)");
	EXPECT_EQ(ruler(m.table()), "|YYYYYYYYYYYYYYYY|");
}

// munmap of a PROT_NONE range: zap takes the entries as present, one
// batch, and the batch returns the dirty one of them holds.
TEST(callers, zap_clears_prot_none_entries_as_a_present_batch)
{
	machine m = make_machine(1);
	map(m, 0, 4, 0x100);
	mark(m, 2, false, true);
	recording_sink s(m);
	mm::change_pte_range(s, {geo4k, m.folios()}, 0, 4, PAGE_NONE);
	EXPECT_EQ(ruler(m.table()), "|wwww............|");
	s.log.clear();
	mm::zap_pte_range(s, {geo4k, m.folios()}, 0, 4, {});
	ASSERT_EQ(s.log.size(), 6u);
	EXPECT_EQ(s.log[4], "get_and_clear_full_ptes(#0, nr=4, full=0)");
	EXPECT_EQ(ruler(m.table()), "|................|");
}

// NUMA balancing's scan over a folded run, then the hinting fault on one of
// its pages: the scan commits the run PROT_NONE in one transaction (CONT
// kept) and passes over it the second time; the fault gives back each
// PROT_NONE entry of the folio one entry at a time, read-only and young.
TEST(callers, numa_hinting_makes_a_run_prot_none_once_and_the_fault_restores_its_folio_entry_by_entry)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	recording_sink s(m);
	mm::change_prot_numa(s, {geo4k, m.folios()}, 0, CONT);
	EXPECT_EQ(s.log[1], "modify_prot_start_ptes(#0, nr=16)");
	EXPECT_EQ(ruler(m.table()), "|NNNNNNNNNNNNNNNN|");
	for (std::size_t k = 0; k < CONT; k++)
		EXPECT_TRUE(pte_present_invalid(m.table()[k])) << k;
	s.log.clear();
	mm::change_prot_numa(s, {geo4k, m.folios()}, 0, CONT);
	EXPECT_EQ(s.log.size(), CONT) << "only reads: every entry is PROT_NONE already";
	m.poke(5, 0);	// a page of the run zapped meanwhile
	s.log.clear();
	mm::do_numa_page(s, {geo4k, m.folios()}, 3, 0, CONT, PROT_RO);
	EXPECT_EQ(s.log[0], "ptep_get(#3)");
	EXPECT_EQ(s.log[2], "modify_prot_start_ptes(#0, nr=1)");
	EXPECT_EQ(std::count_if(s.log.begin(), s.log.end(),
				[](const std::string& c) { return c.rfind("modify_prot_commit_ptes", 0) == 0; }),
		  CONT - 1);
	EXPECT_EQ(ruler(m.table()), "|yyyyy.yyyyyyyyyy|");
	for (std::size_t k = 0; k < CONT; k++)
		EXPECT_TRUE(k == 5 || (pte_valid(m.table()[k]) && !pte_write(m.table()[k]))) << k;
	s.log.clear();
	mm::do_numa_page(s, {geo4k, m.folios()}, 3, 0, CONT, PROT_RO);
	EXPECT_EQ(s.log, (calls{"ptep_get(#3)"})) << "a valid entry takes no hinting fault";
}

// MADV_GUARD_INSTALL over none, a guard marker, a mapped page and none: a
// marker goes into the first none entry as the walk meets it; the mapped
// page makes it zap the rest of the range (the marker stays) and walk it
// again. MADV_GUARD_REMOVE clears the markers and nothing else.
TEST(callers, guard_install_zaps_what_is_populated_and_keeps_markers_guard_remove_clears_only_markers)
{
	machine m = make_machine(1);
	m.poke(1, mm::guard_marker());
	map(m, 2, 1, 0x102);
	m.poke(5, SWP_ALIAS);
	recording_sink s(m);
	mm::guard_install(s, {geo4k, m.folios()}, 0, 4);
	EXPECT_EQ(s.log[1], describe({call_kind::set_ptes, 0, 1, false, mm::guard_marker(), 0}));
	EXPECT_NE(std::find(s.log.begin(), s.log.end(), "get_and_clear_full_ptes(#2, nr=1, full=0)"), s.log.end());
	EXPECT_EQ(ruler(m.table()), "|ssss.s..........|");
	for (std::size_t k = 0; k < 4; k++)
		EXPECT_EQ(m.table()[k], mm::guard_marker()) << k;
	EXPECT_EQ(nonpresent_kind(mm::guard_marker()), "guard marker");
	s.log.clear();
	mm::guard_remove(s, 0, 6);
	EXPECT_EQ(ruler(m.table()), "|.....s..........|");
	EXPECT_EQ(m.table()[5], SWP_ALIAS);
}

// MADV_COLD over a folded run and one page of another folio's part: the
// run, a whole folio here, is one young-only clear; the part of a folio
// the range maps is left alone; the range is flushed at the end.
TEST(callers, madv_cold_clears_young_alone_over_each_whole_folio_and_flushes)
{
	machine m = make_machine(2);
	m.set_folios({{0x100, 16}, {0x200, 16}});
	fold(m, 0, 0x100);
	map(m, 16, 4, 0x200);
	for (std::size_t k : {3, 17})
		mark(m, k, true, true);
	recording_sink s(m);
	mm::madvise_cold_pte_range(s, {geo4k, m.folios()}, 0, 18);
	EXPECT_NE(std::find(s.log.begin(), s.log.end(), describe({call_kind::clear_young_dirty_ptes, 0, CONT, false, 0,
								   CYDP_CLEAR_YOUNG})),
		  s.log.end());
	EXPECT_EQ(s.log.back(), "flush #0+18");
	// The run's young is gone, its dirty (in #3) kept; #17 keeps both.
	EXPECT_EQ(ruler(m.table()), "|OOODOOOOOOOOOOOO| |oboo............|");
}

// mremap's move_ptes over a folded run's first half, a guard marker and a
// swap entry that aliases CONT: each entry but none is taken out alone with
// ptep_get_and_clear, present or not, and the range flushed once; the rest
// of the run is left as mainline's unfold left it.
TEST(callers, mremap_takes_out_every_entry_but_none_with_ptep_get_and_clear_and_flushes)
{
	machine m = make_machine(2);
	fold(m, 0, 0x100);
	m.poke(17, mm::guard_marker());
	m.poke(19, SWP_ALIAS);
	recording_sink s(m);
	mm::move_ptes(s, 14, 20);
	const calls takes = {"ptep_get_and_clear(#14)", "ptep_get_and_clear(#15)", "ptep_get_and_clear(#17)",
			     "ptep_get_and_clear(#19)"};
	calls made;
	std::copy_if(s.log.begin(), s.log.end(), std::back_inserter(made),
		     [](const std::string& c) { return c.starts_with("ptep_get_and_clear"); });
	EXPECT_EQ(made, takes);
	EXPECT_EQ(s.log.back(), "flush #14+6");
	for (std::size_t k = 14; k < 20; k++)
		EXPECT_EQ(m.table()[k], 0u) << k;
	for (std::size_t k = 0; k < 14; k++)
		EXPECT_TRUE(pte_valid(m.table()[k])) << k;
}

// Nothing present moved: no flush.
TEST(callers, mremap_of_non_present_entries_alone_does_not_flush)
{
	machine m = make_machine(1);
	m.poke(3, mm::guard_marker());
	recording_sink s(m);
	mm::move_ptes(s, 2, 5);
	EXPECT_NE(std::find(s.log.begin(), s.log.end(), "ptep_get_and_clear(#3)"), s.log.end());
	EXPECT_TRUE(std::none_of(s.log.begin(), s.log.end(), [](const std::string& c) { return c.starts_with("flush"); }));
	EXPECT_EQ(m.table()[3], 0u);
}

// Migration of a folded run: each entry read, taken out with
// ptep_get_and_clear (the run unfolds at the first) and given a migration
// entry that keeps its write, young and dirty; one flush at the end.  The
// undo maps the pages back entry by entry, and the last one folds the run.
TEST(callers, migration_replaces_each_entry_by_a_migration_entry_and_the_undo_maps_the_folio_back)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 3, true, false);
	mark(m, 5, false, true);
	recording_sink s(m);
	const folio_extent folio{0x100, 64};
	mm::try_to_migrate(s, {geo4k, m.folios()}, 0, CONT, folio, 48, true);
	EXPECT_EQ(s.log.back(), "flush #0+16");
	EXPECT_EQ(std::count_if(s.log.begin(), s.log.end(), [](const std::string& c) { return c.starts_with("ptep_get_and_clear"); }),
		  CONT);
	for (std::size_t k = 0; k < CONT; k++) {
		const std::optional<mm::migration_entry> e = mm::read_migration_entry(geo4k, 48, m.table()[k]);
		ASSERT_TRUE(e) << k;
		EXPECT_EQ(e->pfn, 0x100 + k);
		EXPECT_TRUE(e->write);
		// The unfold gathered the run's young and dirty into every entry.
		EXPECT_TRUE(e->young) << k;
		EXPECT_TRUE(e->dirty) << k;
		EXPECT_EQ(nonpresent_kind(m.table()[k]), "migration-write");
	}
	mm::remove_migration_ptes(s, {geo4k, m.folios()}, 0, CONT, folio, 48, PAGE_READONLY);
	for (std::size_t k = 0; k < CONT; k++) {
		EXPECT_TRUE(pte_valid_cont(m.table()[k])) << k;
		EXPECT_EQ(pte_pfn(m.table()[k], geo4k), 0x100 + k);
		EXPECT_TRUE(pte_write(m.table()[k]) && pte_young(m.table()[k]) && pte_dirty(m.table()[k])) << k;
	}
}

// Where a migration entry keeps young: just above the pfn's bits.  With 4K
// pages and 52-bit physical addresses that is bit 52, CONT's place, and
// arm64's set_ptes strips CONT from every value it writes -- so the entry
// is stored without its young, and the page comes back old.  At 48 bits,
// or with 16K pages, the bit is elsewhere and survives.
TEST(callers, a_young_migration_entry_loses_its_young_to_set_ptes_with_4k_pages_and_52_bit_addresses)
{
	const mm::migration_entry young{0x100, false, true, true, false};
	EXPECT_EQ(mm::make_migration_entry(geo4k, 52, young) >> 52 & 1, 1u);
	EXPECT_EQ(mm::make_migration_entry(geo4k, 48, young) >> 48 & 1, 1u);
	EXPECT_EQ(mm::make_migration_entry(geometry::of(granule::k16), 52, young) >> 50 & 1, 1u);
	for (const unsigned bits : {48u, 52u}) {
		SCOPED_TRACE(bits);
		machine m = make_machine(1);
		map(m, 0, 1, 0x100, PROT_RO);
		mark(m, 0, true, false);
		recording_sink s(m);
		mm::try_to_migrate(s, {geo4k, m.folios()}, 0, 1, folio_extent{0x100, 64}, bits, true);
		const std::optional<mm::migration_entry> e = mm::read_migration_entry(geo4k, bits, m.table()[0]);
		ASSERT_TRUE(e);
		EXPECT_EQ(e->young, bits == 48);
		mm::remove_migration_ptes(s, {geo4k, m.folios()}, 0, 1, folio_extent{0x100, 64}, bits, PAGE_READONLY);
		EXPECT_EQ(pte_young(m.table()[0]), bits == 48);
	}
}

// mprotect and fork make a writable migration entry readable, with
// set_pte_at over the non-present entry; other entries are passed over.
TEST(callers, mprotect_and_fork_make_writable_migration_entries_readable)
{
	const mm::migration_entry w{0x100, true, true, false, true};
	for (const bool fork : {false, true}) {
		SCOPED_TRACE(fork ? "fork" : "mprotect");
		machine m = make_machine(1);
		m.poke(2, mm::make_migration_entry(geo4k, 48, w));
		m.poke(3, mk_swp_entry(SWP_MIGRATION_READ, 0x101));
		recording_sink s(m);
		if (fork)
			mm::copy_pte_range(s, {geo4k, m.folios()}, 0, CONT);
		else
			mm::change_pte_range(s, {geo4k, m.folios()}, 0, CONT, PROT_RO);
		const std::uint64_t sets = std::count_if(s.log.begin(), s.log.end(), [](const std::string& c) { return c.starts_with("set_ptes"); });
		EXPECT_EQ(sets, 1u);
		const std::optional<mm::migration_entry> e = mm::read_migration_entry(geo4k, 48, m.table()[2]);
		ASSERT_TRUE(e);
		EXPECT_FALSE(e->write);
		EXPECT_EQ(e->exclusive, !fork);
		EXPECT_TRUE(e->dirty);
		EXPECT_EQ(e->pfn, 0x100u);
		EXPECT_EQ(m.table()[3], mk_swp_entry(SWP_MIGRATION_READ, 0x101));
	}
}

} // namespace
} // namespace ptespec::test
