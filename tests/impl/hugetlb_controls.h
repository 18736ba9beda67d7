// Hugetlb controls: arm64's hugetlb calls with one real mistake each.
#pragma once

#include <cstddef>
#include <cstdint>

#include "impl/mainline.h"

namespace ptespec::controls {

// huge_ptep_get_and_clear before the 2025 fix: the hugepage's size taken
// from CONT on entry 0, whatever entry 0 holds (bit 52 of a swap entry is
// offset bit 40), so a swapped hugepage loses one slot of its CONT_PTES
// and the rest stay behind; and every entry's young and dirty ORed into
// the value read before the clear, present or not.
template <class M>
struct hugetlb_get_and_clear_before_2025 : mainline_ops<M, hugetlb_get_and_clear_before_2025<M>> {
	using W = typename M::word;

	W get_clear_contig(M& m, std::size_t i, const contig& c)
	{
		W orig = this->self().__ptep_get(m, i);
		for (std::size_t k = 0; k < c.entries; k++)
			orig = pte_or_flags(orig, this->self().__ptep_get_and_clear(m, i + k));
		return orig;
	}

	W huge_ptep_get_and_clear(M& m, std::size_t i, std::uint64_t /*pages: unused*/)
	{
		if (!m.branch(pte_cont(this->self().__ptep_get(m, i))))
			return this->self().__ptep_get_and_clear(m, i);
		return get_clear_contig(m, i, contig{m.geo().cont_ptes, m.geo().entry_pages()});
	}
};

// huge_ptep_get reading entry 0 alone, as for a hugepage of one entry:
// the young and dirty the MMU recorded in the other entries of a CONT_PTE
// hugepage are never reported (arm64's generic huge_ptep_get before its
// contiguous hugetlb support gathered them).
template <class M>
struct hugetlb_get_first_entry_only : mainline_ops<M, hugetlb_get_first_entry_only<M>> {
	using W = typename M::word;
	W huge_ptep_get(M& m, std::size_t i) { return this->self().__ptep_get(m, i); }
};

// flush_hugetlb_tlb_range as arm64 had it before its 2025 level fix: for a
// CONT_PTE hugepage the fallback passed level 0 where "level unknown" had
// become TLBI_TTL_UNKNOWN, so each TLBI names level 0.  With 4K pages
// level 0 is a level, and a TLB may keep the pte-level translations; with
// 16K and 64K pages that TTL encoding is reserved and taken as no hint.
template <class M>
struct hugetlb_flush_at_level_0 : mainline_ops<M, hugetlb_flush_at_level_0<M>> {
	void flush_hugetlb_tlb_range(M& m, std::size_t i, std::size_t nr, std::uint64_t /*pages*/)
	{
		m.flush_tlb_range(i, nr, flush_level(0));
	}
};

// flush_hugetlb_tlb_range naming a pte's level for every hugepage size:
// right for a CONT_PTE hugepage, whose entries are ptes, wrong for a
// CONT_PMD one, whose blocks sit at level 2 -- a TLB with FEAT_TTL may keep
// them.  (ptespec's own template had it so before it modelled pmd tables.)
template <class M>
struct hugetlb_flush_at_pte_level : mainline_ops<M, hugetlb_flush_at_pte_level<M>> {
	void flush_hugetlb_tlb_range(M& m, std::size_t i, std::size_t nr, std::uint64_t /*pages*/)
	{
		m.flush_tlb_range(i, nr, flush_level(3));
	}
};

// A hugepage's entries written with the pfn advancing one page per entry
// whatever the entry maps (pgsize taken for PAGE_SIZE): right for a
// CONT_PTE hugepage; a CONT_PMD one's blocks map overlapping ranges of the
// first block instead of the folio's blocks.
template <class M>
struct hugetlb_pfn_step_of_a_page : mainline_ops<M, hugetlb_pfn_step_of_a_page<M>> {
	using W = typename M::word;
	static W next_entry(M& m, const W& pte, const contig&) { return pte_advance_pfn(pte, 1, m.geo()); }
};

// The break of break-before-make naming a pte's level whatever the
// hugepage's entries are: a CONT_PMD hugepage's old blocks stay cached
// while its new ones are written.
template <class M>
struct hugetlb_break_at_pte_level : mainline_ops<M, hugetlb_break_at_pte_level<M>> {
	void flush_contig(M& m, std::size_t i, const contig& c) { m.flush_tlb_range(i, c.entries, flush_level(3)); }
};

} // namespace ptespec::controls
