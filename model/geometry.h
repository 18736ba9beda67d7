// Translation granule and the contiguous-run size it implies.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptespec {

enum class granule { k4, k16, k64 };

// CONT_PTES of a granule: 4K pages fold 16 entries (64K), 16K pages fold
// 128 (2M), 64K pages fold 32 (2M).
constexpr std::size_t cont_ptes_of(granule g)
{
	switch (g) {
	case granule::k4: return 16;
	case granule::k16: return 128;
	case granule::k64: return 32;
	}
	return 0;
}
// The longest run of any granule.
inline constexpr std::size_t max_cont_ptes =
	std::max({cont_ptes_of(granule::k4), cont_ptes_of(granule::k16), cont_ptes_of(granule::k64)});

// The run geometry of one table of a granule.  The table is a pte table
// (level 3: each entry maps a page, a run is CONT_PTES entries) unless it
// is a pmd table of block entries (level 2: each entry maps PMD_SIZE, a run
// is CONT_PMDS entries), which only hugetlb fills.  Both hold the same
// words: a block descriptor has the pte's attribute layout, CONT included.
struct geometry {
	granule gran = granule::k4;
	unsigned page_shift = 12;
	std::size_t cont_ptes = 16;	// entries of a contiguous run of this table
	unsigned level = 3;	// the translation level of the table's entries
	unsigned entry_shift = 12;	// log2 of the bytes an entry maps

	// A pte table.
	static geometry of(granule g);
	// A pmd table of PMD-size blocks.
	static geometry pmd_of(granule g);
	bool pmd_table() const { return level == 2; }
	// Pages an entry maps: 1 in a pte table.
	std::uint64_t entry_pages() const { return std::uint64_t{1} << (entry_shift - page_shift); }
	std::size_t run_of(std::size_t index) const { return index / cont_ptes; }
	std::size_t run_start(std::size_t index) const { return index - index % cont_ptes; }
	bool run_aligned(std::size_t index) const { return index % cont_ptes == 0; }
	// Address field: bits [47:page_shift].
	std::uint64_t addr_mask() const
	{
		return ((std::uint64_t{1} << 48) - 1) & ~((std::uint64_t{1} << page_shift) - 1);
	}
	std::uint64_t max_pfn() const { return (std::uint64_t{1} << (48 - page_shift)) - 1; }
};

std::string_view to_string(granule g);
// Parses "4k", "16k", "64k" (any case).  Throws usage_error otherwise.
granule parse_granule(std::string_view text);

} // namespace ptespec
