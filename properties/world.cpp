#include "properties/world.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec {

world_layout world_layout::make(granule g, std::size_t pfn_shift, hardware_options hw)
{
	world_layout w;
	w.geo = geometry::of(g);
	w.hw = hw;
	const std::size_t n = w.geo.cont_ptes;
	if (pfn_shift >= n)
		throw internal_error("world: pfn shift " + std::to_string(pfn_shift) + " is not below CONT_PTES");
	w.nr_entries = runs_per_world * n;
	w.pfn_shift = pfn_shift;
	w.pfn_base = 0x40000 + pfn_shift;	// 0x40000 is aligned to every folio size used here
	const std::uint64_t b = w.pfn_base;
	w.folios.push_back({b, 2 * n});	// A: runs 0 and 1
	w.folios.push_back({b + 2 * n, n / 2});	// B: half of run 2
	w.folios.push_back({b + 2 * n + n / 2, n / 4});	// C
	w.folios.push_back({b + 2 * n + 3 * n / 4, n / 8});	// D
	w.folios.push_back({b + 2 * n + 7 * n / 8, n / 16});	// E
	w.folios.push_back({b + 2 * n + 15 * n / 16, n / 16});	// F
	return w;
}

world_layout world_layout::make_hugetlb(granule g, hardware_options hw, bool pmd)
{
	world_layout w;
	w.geo = pmd ? geometry::pmd_of(g) : geometry::of(g);
	w.hw = hw;
	w.hugetlb = true;
	const std::size_t n = w.geo.cont_ptes;
	const std::uint64_t pages = n * w.geo.entry_pages();
	w.nr_entries = runs_per_world * n;
	w.pfn_base = 0x40000;	// aligned to the largest hugepage here (16G at 64K: 0x40000 pages)
	for (std::size_t r = 0; r < runs_per_world; r++)
		w.folios.push_back({w.pfn_base + r * pages, pages});
	return w;
}

std::string world_layout::describe() const
{
	if (hugetlb && geo.pmd_table())
		return fmt::format("hugetlb: a pmd table of {} CONT_PMD hugepages of {} PMD blocks ({} pages each), one "
				   "hugetlb folio each",
				   runs_per_world, geo.cont_ptes, geo.cont_ptes * geo.entry_pages());
	if (hugetlb)
		return fmt::format("hugetlb: {} CONT_PTE hugepages of {} pages, one hugetlb folio each", runs_per_world,
				   geo.cont_ptes);
	if (pfn_shift == 0)
		return "aligned (every run's pfns one aligned block)";
	return fmt::format("shifted: page #p maps pfn {:#x}+p, {} past CONT alignment, so no run's pfns are one "
			   "aligned block",
			   pfn_base, pfn_shift);
}

std::size_t world_layout::folio_of_page(std::size_t p) const
{
	const long f = ptespec::folio_of(folios, pfn_of(p));
	if (f < 0)
		throw internal_error("world: page " + std::to_string(p) + " has no folio");
	return static_cast<std::size_t>(f);
}

template <class T>
void per_page<T>::assign(std::size_t n, T v)
{
	if (n > capacity)
		throw internal_error("world: " + std::to_string(n) + " pages, more than the " + std::to_string(capacity) +
				     " a world holds");
	n_ = n;
	std::fill_n(v_.begin(), n, v);
}
template <class T>
void per_page<T>::out_of_range(std::size_t p, std::size_t n)
{
	throw internal_error("world: page " + std::to_string(p) + " of a world of " + std::to_string(n) + " pages");
}
template class per_page<page_state>;
template class per_page<std::uint8_t>;

world_model world_model::empty(const world_layout& w, bool adversarial)
{
	world_model m;
	m.layout = &w;
	m.pages.assign(w.nr_entries, page_state::none);
	m.writable.assign(w.nr_entries, 0);
	m.vma_writable.assign(w.nr_entries, 0);
	m.vma_none.assign(w.nr_entries, 0);
	m.numa_hinted.assign(w.nr_entries, 0);
	m.guard.assign(w.nr_entries, 0);
	m.swarm.fill(1);
	m.adversarial = adversarial;
	return m;
}

void world_model::set(std::size_t first, std::size_t last, page_state s)
{
	for (std::size_t p = first; p < last && p < pages.size(); p++) {
		pages[p] = s;
		numa_hinted[p] = guard[p] = 0;
	}
}

bool world_model::all(std::size_t first, std::size_t last, page_state s) const
{
	for (std::size_t p = first; p < last; p++)
		if (p >= pages.size() || pages[p] != s)
			return false;
	return true;
}

std::size_t world_model::count(page_state s) const
{
	return static_cast<std::size_t>(std::count(pages.begin(), pages.end(), s));
}

} // namespace ptespec
