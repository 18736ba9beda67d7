// The world the property suite runs in: a page table of a few runs, the
// folios behind it, and the abstract view the callers keep of it.
//
//   4K, CONT_PTES 16, three runs:
//   |run 0           |run 1           |run 2           |
//   |AAAAAAAAAAAAAAAA|AAAAAAAAAAAAAAAA|BBBBBBBBCCCCDDEF|
//    folio A: two runs (both foldable)  B: half a run; C, D, E, F small
//
// Page p maps pfn pfn_base + p, so a folio's pages are contiguous in both
// spaces and any whole run of folio A may fold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "model/history.h"

namespace ptespec {

struct world_layout {
	geometry geo;
	std::size_t nr_entries = 0;
	std::uint64_t pfn_base = 0;
	std::vector<folio_extent> folios;

	static world_layout make(granule g);
	std::uint64_t pfn_of(std::size_t page) const { return pfn_base + page; }
	// The declared folio holding page p (index into folios).
	std::size_t folio_of_page(std::size_t p) const;
	std::size_t folio_first_page(std::size_t f) const { return folios[f].first_pfn - pfn_base; }
};

// What the callers know of each page: the kernel's own bookkeeping, which
// decides what they may call (e.g. set_ptes with nr > 1 only over entries
// that are not present).  It never looks at the strategy's table.
enum class page_state : std::uint8_t { none, present, swap };

struct world_model {
	const world_layout* layout = nullptr;
	std::vector<page_state> pages;
	std::vector<std::uint8_t> writable;	// per page, for present pages (bytes: cheap to copy)
	// Per page: mapped by a writable fault, so its VMA allows writing even
	// after fork took write permission away.
	std::vector<std::uint8_t> vma_writable;
	// Callers that keep only the rules the arch code may rely on (see
	// adversarial_rules in properties/commands.h).
	bool adversarial = false;
	bool vary_attributes = true;	// faults map with attributes beyond flags and write
	bool alias_nonpresent = true;	// swap entries may set bits that alias AF and CONT
	bool interleave_lockless = true;	// a racing writer may run primitive by primitive

	std::size_t count(page_state s) const;
	static world_model empty(const world_layout& w, bool adversarial);
	// Sets pages [first, last) to s.
	void set(std::size_t first, std::size_t last, page_state s);
	bool all(std::size_t first, std::size_t last, page_state s) const;
};

} // namespace ptespec
