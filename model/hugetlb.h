// The hugetlb page sizes arm64 maps, and how many table entries each takes.
//
// A contiguous hugepage is a run: CONT_PTES pte entries of one page each
// (CONT_PTE: 64K with 4K pages, 2M with 16K and 64K pages), or CONT_PMDS
// pmd block entries of PMD_SIZE each (CONT_PMD: 32M, 1G, 16G).  A PMD or
// PUD hugepage is one block entry.  Block entries share the pte's
// attribute layout, CONT at bit 52 included; what differs is the level of
// the table they sit in (3 for ptes, 2 for pmds, 1 for puds), which a TLB
// invalidation's level hint must name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "model/geometry.h"

namespace ptespec {

enum class huge_kind { cont_pte, pmd, cont_pmd, pud };

// CONT_PMDS of a granule.
inline std::size_t cont_pmds_of(granule g) { return geometry::pmd_of(g).cont_ptes; }

// Pages a PMD block maps: a table page of 8-byte entries, each a page.
constexpr std::uint64_t pmd_pages(const geometry& g)
{
	return std::uint64_t{1} << (g.page_shift - 3);
}

struct huge_size {
	huge_kind kind = huge_kind::cont_pte;
	std::size_t entries = 1;	// entries of its table the hugepage takes
	std::uint64_t entry_pages = 1;	// pages each entry maps (pgsize / PAGE_SIZE)
	unsigned level = 3;	// the translation level of its entries
	std::uint64_t pages() const { return entries * entry_pages; }
};

// The hugepage of kind k at granule g; nullopt for a PUD hugepage where the
// granule has no PUD blocks (only 4K pages do).
inline std::optional<huge_size> huge_size_of(const geometry& g, huge_kind k)
{
	switch (k) {
	case huge_kind::cont_pte:
		return huge_size{k, cont_ptes_of(g.gran), 1, 3};
	case huge_kind::pmd:
		return huge_size{k, 1, pmd_pages(g), 2};
	case huge_kind::cont_pmd:
		return huge_size{k, cont_pmds_of(g.gran), pmd_pages(g), 2};
	case huge_kind::pud:
		if (g.gran != granule::k4)
			return std::nullopt;
		return huge_size{k, 1, pmd_pages(g) * pmd_pages(g), 1};
	}
	return std::nullopt;
}

// The hugepage kind of granule g that is `pages` pages, if any (no two
// kinds of a granule have one size).
inline std::optional<huge_size> huge_size_for(const geometry& g, std::uint64_t pages)
{
	for (huge_kind k : {huge_kind::cont_pte, huge_kind::pmd, huge_kind::cont_pmd, huge_kind::pud})
		if (const std::optional<huge_size> s = huge_size_of(g, k); s && s->pages() == pages)
			return s;
	return std::nullopt;
}

// num_contig_ptes: the entries and the pages per entry of a hugepage of
// `pages` pages.  Today's arm64 answers one entry of that size for any
// size that is not contiguous; before the 2025 fixes it answered none for
// a size it did not know.
struct contig {
	std::size_t entries = 0;
	std::uint64_t entry_pages = 0;
};
inline contig num_contig_ptes(const geometry& g, std::uint64_t pages, bool before_2025 = false)
{
	// A PMD or PUD hugepage is one entry of its size.
	if (const std::optional<huge_size> s = huge_size_for(g, pages))
		return {s->entries, s->entry_pages};
	return before_2025 ? contig{0, 0} : contig{1, pages};
}

// The TTL level arm64's __flush_hugetlb_tlb_range names for a stride of
// `pages` pages: a PMD or CONT_PMD hugepage's blocks sit at level 2, a
// CONT_PTE hugepage's entries at 3, a PUD block at 1; any other stride
// (PAGE_SIZE: the break of a CONT_PTE hugepage) names none (-1).
inline int hugetlb_flush_level(const geometry& g, std::uint64_t pages)
{
	const std::optional<huge_size> s = huge_size_for(g, pages);
	return s ? static_cast<int>(s->level) : -1;
}

} // namespace ptespec
