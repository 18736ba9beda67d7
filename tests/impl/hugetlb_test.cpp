// arm64's contiguous hugetlb calls (impl/hugetlb.h) and their geometry
// (model/hugetlb.h), on quiet tables: a CONT_PTE hugepage is one run.
#include <gtest/gtest.h>

#include "impl/mainline.h"
#include "model/hugetlb.h"
#include "tests/impl/hugetlb_controls.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

mainline<machine> s;
controls::hugetlb_get_and_clear_before_2025<machine> before;

// A CONT_PTE hugepage at 4K is 16 pages.
constexpr std::uint64_t HPAGE = CONT;

TEST(hugetlb_geometry, each_granules_hugepage_sizes)
{
	const geometry g4 = geometry::of(granule::k4), g16 = geometry::of(granule::k16),
		       g64 = geometry::of(granule::k64);
	// 4K: 64K, 2M, 32M, 1G.
	EXPECT_EQ(huge_size_of(g4, huge_kind::cont_pte)->pages() << 12, 64u << 10);
	EXPECT_EQ(huge_size_of(g4, huge_kind::pmd)->pages() << 12, 2u << 20);
	EXPECT_EQ(huge_size_of(g4, huge_kind::cont_pmd)->pages() << 12, 32u << 20);
	EXPECT_EQ(huge_size_of(g4, huge_kind::pud)->pages() << 12, std::uint64_t{1} << 30);
	// 16K: 2M, 32M, 1G, no PUD blocks.
	EXPECT_EQ(huge_size_of(g16, huge_kind::cont_pte)->pages() << 14, 2u << 20);
	EXPECT_EQ(huge_size_of(g16, huge_kind::pmd)->pages() << 14, 32u << 20);
	EXPECT_EQ(huge_size_of(g16, huge_kind::cont_pmd)->pages() << 14, std::uint64_t{1} << 30);
	EXPECT_FALSE(huge_size_of(g16, huge_kind::pud));
	// 64K: 2M, 512M, 16G.
	EXPECT_EQ(huge_size_of(g64, huge_kind::cont_pte)->pages() << 16, 2u << 20);
	EXPECT_EQ(huge_size_of(g64, huge_kind::pmd)->pages() << 16, 512u << 20);
	EXPECT_EQ(huge_size_of(g64, huge_kind::cont_pmd)->pages() << 16, std::uint64_t{16} << 30);
	EXPECT_EQ(huge_size_of(g64, huge_kind::cont_pmd)->level, 2u);
}

TEST(hugetlb_geometry, num_contig_ptes_by_size)
{
	const geometry g = geometry::of(granule::k4);
	EXPECT_EQ(num_contig_ptes(g, 16).entries, 16u);
	EXPECT_EQ(num_contig_ptes(g, 16).entry_pages, 1u);
	EXPECT_EQ(num_contig_ptes(g, 16 * 512).entries, 16u);
	EXPECT_EQ(num_contig_ptes(g, 16 * 512).entry_pages, 512u);
	EXPECT_EQ(num_contig_ptes(g, 512).entries, 1u);
	// A size arm64 does not map: one entry today, none before 2025.
	EXPECT_EQ(num_contig_ptes(g, 3).entries, 1u);
	EXPECT_EQ(num_contig_ptes(g, 3, true).entries, 0u);
}

// A hugepage of young and dirty spread over its entries reads as one page
// with both.
//   |OOYOOOOOOOOOODOO|
TEST(hugetlb_calls, get_gathers_the_runs_flags)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 2, true, false);
	mark(m, 13, false, true);
	EXPECT_EQ(s.huge_ptep_get(m, 0), dirty(young(cont(page(0x100)))));
	EXPECT_EQ(m.cost().writes + m.cost().atomics, 0u);
}

TEST(hugetlb_calls, get_and_clear_takes_the_whole_hugepage_without_a_flush)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 5, true, true);
	EXPECT_EQ(s.huge_ptep_get_and_clear(m, 0, HPAGE), dirty(young(cont(page(0x100)))));
	EXPECT_EQ(ruler(m.table()), "|................|");
	EXPECT_EQ(m.cost().tlbis(), 0u);
	EXPECT_EQ(s.huge_ptep_clear_flush(m, 0, HPAGE), 0u);
	EXPECT_EQ(m.cost().tlbi_range, 1u);
}

// A hugepage being migrated holds its migration entry in every slot (a
// hugetlb page is never swapped; its non-present entries are migration,
// hwpoison and marker entries), and mremap moves it with
// huge_ptep_get_and_clear.  The offset is the pfn, whose bit 40 -- pte bit
// 52, CONT -- is clear.  Today's code sizes the hugepage from the size it
// is given and clears every slot; the code before the 2025 fix sized it
// from CONT and cleared one, leaving the rest behind.
TEST(hugetlb_calls, get_and_clear_of_a_migrating_hugepage_clears_every_slot_and_did_not_before_2025)
{
	const std::uint64_t swp = mk_swp_entry(SWP_MIGRATION_READ, 0x100);
	ASSERT_EQ(swp & PTE_CONT, 0u);
	machine a = make_machine(1), b = make_machine(1);
	for (std::size_t k = 0; k < CONT; k++) {
		a.poke(k, swp);
		b.poke(k, swp);
	}
	EXPECT_EQ(s.huge_ptep_get_and_clear(a, 0, HPAGE), swp);
	EXPECT_EQ(ruler(a.table()), "|................|");
	EXPECT_EQ(before.huge_ptep_get_and_clear(b, 0, HPAGE), swp);
	EXPECT_EQ(ruler(b.table()), "|.sssssssssssssss|");
}

// With bit 40 of the offset set (a marker or migration entry never has it;
// written here to show the other half of the old code), it took the entry
// for a run and ORed into it what every slot held.
TEST(hugetlb_calls, a_non_present_entry_whose_offset_sets_cont_was_taken_for_a_run)
{
	const std::uint64_t swp = mk_swp_entry(3, std::uint64_t{1} << 40);
	ASSERT_NE(swp & PTE_CONT, 0u);
	machine m = make_machine(1);
	for (std::size_t k = 0; k < CONT; k++)
		m.poke(k, swp);
	m.poke(7, swp | PTE_AF);	// a slot that reads as young
	EXPECT_EQ(before.huge_ptep_get_and_clear(m, 0, HPAGE), swp | PTE_AF);
	machine t = make_machine(1);
	for (std::size_t k = 0; k < CONT; k++)
		t.poke(k, k == 7 ? swp | PTE_AF : swp);
	EXPECT_EQ(s.huge_ptep_get_and_clear(t, 0, HPAGE), swp);
}

// Mapping over a valid hugepage breaks before it makes; over an empty one
// it only writes, each entry its page.
TEST(hugetlb_calls, set_breaks_before_making_only_over_a_valid_hugepage)
{
	machine m = make_machine(1);
	s.set_huge_pte_at(m, 0, cont(page(0x100)), HPAGE);
	EXPECT_EQ(m.cost().tlbis(), 0u);
	for (std::size_t k = 0; k < CONT; k++)
		EXPECT_EQ(m.table()[k], cont(page(0x100 + k))) << k;
	s.set_huge_pte_at(m, 0, cont(page(0x100, PROT_RO)), HPAGE);
	EXPECT_EQ(m.cost().tlbi_range, 1u);
	EXPECT_EQ(m.table()[15], cont(page(0x10f, PROT_RO)));
	// A non-present value goes into every slot as it is.
	const std::uint64_t swp = mk_swp_entry(3, 0x1234);
	machine n = make_machine(1);
	s.set_huge_pte_at(n, 0, swp, HPAGE);
	EXPECT_EQ(ruler(n.table()), "|ssssssssssssssss|");
	EXPECT_EQ(n.table()[15], swp);
}

TEST(hugetlb_calls, set_access_flags_does_nothing_when_every_entry_has_them_and_else_breaks_and_ors)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	for (std::size_t k = 0; k < CONT; k++)
		mark(m, k, true, false);
	EXPECT_FALSE(s.huge_ptep_set_access_flags(m, 0, young(cont(page(0x100))), false, HPAGE));
	EXPECT_EQ(m.cost().writes + m.cost().atomics + m.cost().tlbis(), 0u);
	// A dirty fault: the hugepage broken, remade dirty and young.
	mark(m, 9, false, true);
	EXPECT_TRUE(s.huge_ptep_set_access_flags(m, 0, dirty(young(cont(page(0x100)))), true, HPAGE));
	EXPECT_EQ(m.cost().tlbi_range, 1u);
	EXPECT_EQ(m.table()[3], dirty(young(cont(page(0x103)))));
}

TEST(hugetlb_calls, wrprotect_breaks_and_rewrites_without_write_keeping_dirty)
{
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 4, false, true);
	s.huge_ptep_set_wrprotect(m, 0, HPAGE);
	EXPECT_EQ(m.cost().tlbi_range, 1u);
	for (std::size_t k = 0; k < CONT; k++) {
		EXPECT_FALSE(pte_write(m.table()[k])) << k;
		EXPECT_TRUE(pte_dirty(m.table()[k])) << k;
		EXPECT_EQ(pte_pfn(m.table()[k], geo4k), 0x100 + k) << k;
	}
}

} // namespace
} // namespace ptespec::test
