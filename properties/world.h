// The world the property suite runs in: a page table of a few runs, the
// folios behind it, and the abstract view the callers keep of it.
//
//   4K, CONT_PTES 16, three runs:
//   |run 0           |run 1           |run 2           |
//   |AAAAAAAAAAAAAAAA|AAAAAAAAAAAAAAAA|BBBBBBBBCCCCDDEF|
//    folio A: two runs (both foldable)  B: half a run; C, D, E, F small
//
// Page p maps pfn pfn_base + p, so a folio's pages are contiguous in both
// spaces.  In an aligned layout pfn_base is a multiple of every folio size
// and any whole run of folio A may fold.  A shifted layout moves every
// folio `pfn_shift` pfns up while the runs stay where they are, as a folio
// mapped at a virtual address of another alignment than its pfn (a file
// mapped at an offset, an mremap) is:
//
//   4K, pfn_shift 8:  the runs       |run 0           |run 1           |
//                     pfns by block  |        |aligned block   |aligned
//
// so no run's pfns form one aligned block, and a fold or a CONT set_ptes
// there would translate the run wrongly.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/geometry.h"
#include "model/hardware_options.h"
#include "model/history.h"

namespace ptespec {

// A world holds this many runs (the drawing above).
inline constexpr std::size_t runs_per_world = 3;
// At most this many kinds of caller action (properties/commands.cpp).
inline constexpr std::size_t max_caller_actions = 20;

struct world_layout {
	geometry geo;
	hardware_options hw;	// the machine's features (--hardware)
	std::size_t nr_entries = 0;
	std::uint64_t pfn_base = 0;
	std::size_t pfn_shift = 0;	// pfn_base mod CONT_PTES: 0 aligned, else shifted
	std::vector<folio_extent> folios;

	bool hugetlb = false;	// every run one contiguous hugetlb folio (make_hugetlb)

	static world_layout make(granule g, std::size_t pfn_shift = 0, hardware_options hw = {});
	// A hugetlb VMA's world: each of its runs one contiguous hugepage (a
	// hugetlb folio, its pfns aligned, as hugetlb folios always are) -- in a
	// pte table a CONT_PTE hugepage of CONT_PTES pages, in a pmd table
	// (`pmd`) a CONT_PMD hugepage of CONT_PMDS blocks.
	static world_layout make_hugetlb(granule g, hardware_options hw = {}, bool pmd = false);
	// "aligned" or "shifted: ...", for a counterexample.
	std::string describe() const;
	// The first pfn entry p maps (in a pmd table each entry maps a block).
	std::uint64_t pfn_of(std::size_t page) const { return pfn_base + page * geo.entry_pages(); }
	// The declared folio holding page p (index into folios).
	std::size_t folio_of_page(std::size_t p) const;
	std::size_t folio_first_page(std::size_t f) const { return (folios[f].first_pfn - pfn_base) / geo.entry_pages(); }
	// The pages [first, last) of the table that folio f's pages sit in.
	std::pair<std::size_t, std::size_t> folio_pages(std::size_t f) const
	{
		const std::size_t first = folio_first_page(f);
		return {first, std::min(first + folios[f].nr_pages / geo.entry_pages(), nr_entries)};
	}
};

// What the callers know of each page: the kernel's own bookkeeping, which
// decides what they may call (e.g. set_ptes with nr > 1 only over entries
// that are not present).  It never looks at the strategy's table.
// migration: a migration entry, until the migration is undone.
enum class page_state : std::uint8_t { none, present, swap, migration };

// One byte-sized value per page of a world, kept inline: RapidCheck copies
// the callers' model for every command it generates, and a heap block per
// copy was a quarter of a sampled run under AddressSanitizer.  An index
// past the world's pages is ptespec's bug and throws (inline storage hides
// it from AddressSanitizer).
template <class T>
class per_page {
public:
	static constexpr std::size_t capacity = runs_per_world * max_cont_ptes;
	void assign(std::size_t n, T v);
	std::size_t size() const { return n_; }
	T& operator[](std::size_t p) { return v_[checked(p)]; }
	const T& operator[](std::size_t p) const { return v_[checked(p)]; }
	const T* begin() const { return v_.data(); }
	const T* end() const { return v_.data() + n_; }

private:
	std::size_t checked(std::size_t p) const
	{
		if (p >= n_)
			out_of_range(p, n_);
		return p;
	}
	[[noreturn]] static void out_of_range(std::size_t p, std::size_t n);
	std::array<T, capacity> v_{};
	std::size_t n_ = 0;
};

struct world_model {
	const world_layout* layout = nullptr;
	per_page<page_state> pages;
	per_page<std::uint8_t> writable;	// per page, for present pages
	// Per page: mapped by a writable fault, so its VMA allows writing even
	// after fork took write permission away.
	per_page<std::uint8_t> vma_writable;
	// Per page: its VMA was made PROT_NONE by mprotect (NUMA balancing does
	// not scan it, an access to it is no hinting fault).
	per_page<std::uint8_t> vma_none;
	// Per page: made PROT_NONE by NUMA balancing's scan, so the next access
	// is a hinting fault.
	per_page<std::uint8_t> numa_hinted;
	// Per page: holds a guard marker (MADV_GUARD_INSTALL).
	per_page<std::uint8_t> guard;
	// MAX_PHYSMEM_BITS, where migration entries keep young and dirty: chosen
	// by the case's first migration (0 until then), one per machine.
	unsigned phys_bits = 0;
	// Callers that keep only the rules the arch code may rely on (see
	// adversarial_rules in properties/commands.h).
	bool adversarial = false;
	bool vary_attributes = true;	// faults map with attributes beyond flags and write
	bool alias_nonpresent = true;	// swap entries may set bits that alias AF and CONT
	bool interleave_lockless = true;	// a racing writer may run primitive by primitive
	bool fault_around = true;	// read faults map every none entry of a run, folio by folio
	bool batch_young = true;	// reclaim clears young a folio batch per call, not an entry
	// mprotect and NUMA balancing change protections (modify_prot_start_ptes /
	// commit); guard pages, MADV_COLD, mremap and migration join with them.
	bool mprotect = false;
	// The hugetlb callers over a world of hugepages (the hugetlb sweep):
	// each command acts on whole hugepages, whose pages share one state.
	bool hugetlb = false;
	// Swarm testing: this case's scale of each caller action's weight (0
	// leaves it out of the case, 1 as drawn, 3 more often), indexed as
	// any_command lists the actions; every one 1 when the case is no swarm.
	std::array<std::uint8_t, max_caller_actions> swarm{};

	std::size_t count(page_state s) const;
	static world_model empty(const world_layout& w, bool adversarial);
	// Sets pages [first, last) to s.
	void set(std::size_t first, std::size_t last, page_state s);
	bool all(std::size_t first, std::size_t last, page_state s) const;
};

} // namespace ptespec
