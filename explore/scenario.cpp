#include "explore/scenario.h"

#include <algorithm>
#include <string>

#include "model/errors.h"

namespace ptespec::explore {

std::string_view to_string(scenario s)
{
	switch (s) {
	case scenario::exit: return "exit";
	case scenario::exit_per_entry: return "exit-per-entry";
	case scenario::exit_split: return "exit-split";
	case scenario::dontneed_start: return "dontneed-start";
	case scenario::dontneed_end: return "dontneed-end";
	case scenario::dontneed_inner: return "dontneed-inner";
	case scenario::munmap: return "munmap";
	case scenario::fork: return "fork";
	case scenario::madv_free: return "madv-free";
	case scenario::mprotect: return "mprotect";
	}
	return "?";
}

scenario parse_scenario(std::string_view name, std::initializer_list<scenario> allowed)
{
	std::string known;
	for (scenario s : allowed) {
		if (to_string(s) == name)
			return s;
		known += (known.empty() ? "" : ", ") + std::string(to_string(s));
	}
	throw usage_error("scenario '" + std::string(name) + "': expected one of " + known);
}

const std::vector<scenario>& explored_scenarios()
{
	static const std::vector<scenario> all = {scenario::exit,	    scenario::exit_per_entry, scenario::exit_split,
						  scenario::dontneed_start, scenario::dontneed_end,
						  scenario::dontneed_inner, scenario::fork,
						  scenario::madv_free};
	return all;
}

std::string_view scenario_calls(scenario s)
{
	switch (s) {
	case scenario::exit: return "zap full=1, batched: ptep_get + get_and_clear_full_ptes";
	case scenario::exit_per_entry: return "zap full=1, per entry: ptep_get + ptep_get_and_clear_full";
	case scenario::exit_split: return "zap full=1, batched, one zap per VMA: ptep_get + get_and_clear_full_ptes";
	case scenario::dontneed_start:
	case scenario::dontneed_end:
	case scenario::dontneed_inner:
	case scenario::munmap: return "zap full=0, batched: ptep_get + get_and_clear_full_ptes";
	case scenario::fork: return "copy_pte_range: ptep_get + wrprotect_ptes";
	case scenario::madv_free: return "madvise_free_pte_range: ptep_get + clear_young_dirty_ptes";
	case scenario::mprotect:
		return "change_pte_range to read-only over an unfolded whole run: modify_prot_start_ptes + "
		       "modify_prot_commit_ptes";
	}
	return "?";
}

world_layout scenario_layout(const geometry& geo, std::size_t runs, hardware_options hw)
{
	world_layout w;
	w.geo = geo;
	w.hw = hw;
	w.nr_entries = runs * geo.cont_ptes;
	w.pfn_base = 0x40000;	// aligned for every run size the tool allows
	for (std::size_t r = 0; r < runs; r++)
		w.folios.push_back({w.pfn_base + r * geo.cont_ptes, geo.cont_ptes});
	return w;
}

std::size_t scenario_runs(scenario s)
{
	return s == scenario::dontneed_inner ? 2 : 1;
}

std::size_t explored_cont_ptes(scenario s, const geometry& geo)
{
	if (s == scenario::exit_per_entry || s == scenario::dontneed_inner)
		return std::min<std::size_t>(geo.cont_ptes, 8);
	return geo.cont_ptes;
}

range scenario_range(scenario s, const geometry& geo, std::size_t n)
{
	const std::size_t half = geo.cont_ptes / 2;
	switch (s) {
	case scenario::exit:
	case scenario::exit_per_entry:
	case scenario::exit_split:
	case scenario::munmap:
	case scenario::mprotect:
		return {0, n};
	case scenario::dontneed_start:
	case scenario::fork:
	case scenario::madv_free:
		// Starts mid-run: the first run straddles the range edge.  (MADV_FREE
		// leaves that run's folio alone, as the kernel does when its split
		// of a folio mapped in part fails, and frees the runs after it.)
		return {half, n};
	case scenario::dontneed_end:
		// Ends mid-run: the last run straddles the range edge.
		return {0, n - half};
	case scenario::dontneed_inner:
		// Both edges mid-run: the first run straddles the start, the last
		// the end, and the range still covers whole entries of each.
		return {half, n - half};
	}
	return {0, n};
}

void map_folios(harness& h, std::uint64_t prot)
{
	const world_layout& w = h.layout();
	for (const folio_extent& f : w.folios)
		h.fault_map(static_cast<std::size_t>(f.first_pfn - w.pfn_base), static_cast<std::size_t>(f.nr_pages),
			    prot);
}

void map_scenario(harness& h, scenario s, std::uint64_t prot)
{
	if (s != scenario::mprotect) {
		map_folios(h, prot);
		return;
	}
	const std::size_t n = h.layout().nr_entries;
	h.fault_pages(1, 1, prot);
	h.fault_around(0, n, prot);
}

// The protection mprotect(PROT_READ) gives a user mapping.
constexpr std::uint64_t read_only_prot = PTE_VALID | PTE_TYPE | PTE_USER | PTE_NG | PTE_PXN | PTE_UXN | PTE_RDONLY;

void run_caller(harness& h, scenario s)
{
	const range r = scenario_range(s, h.layout().geo, h.layout().nr_entries);
	switch (s) {
	case scenario::exit:
		h.zap(r.first, r.last, true, true, false);
		return;
	case scenario::exit_per_entry:
		h.zap(r.first, r.last, true, false, false);
		return;
	case scenario::exit_split: {
		// exit_mmap zaps VMA by VMA: the run is cut where one ends.
		const std::size_t cut = r.first + h.layout().geo.cont_ptes / 2;
		h.zap(r.first, cut, true, true, false);
		h.zap(cut, r.last, true, true, false);
		return;
	}
	case scenario::dontneed_start:
	case scenario::dontneed_end:
	case scenario::dontneed_inner:
	case scenario::munmap:
		h.zap(r.first, r.last, false, true, false);
		return;
	case scenario::fork:
		h.fork_wrprotect(r.first, r.last);
		return;
	case scenario::madv_free:
		h.madv_free(r.first, r.last);
		return;
	case scenario::mprotect:
		h.mprotect(r.first, r.last, read_only_prot);
		return;
	}
}

std::optional<mm::caller_breach> caller_preflight(strategy& s, const world_layout& w, scenario sc,
						  const mm::caller& via, std::uint64_t prot)
{
	harness h(s, w, std::nullopt);
	h.set_caller(via);
	map_scenario(h, sc, prot);
	try {
		run_caller(h, sc);
	} catch (const property_failed& f) {
		return f.breach;
	}
	return std::nullopt;
}

} // namespace ptespec::explore
