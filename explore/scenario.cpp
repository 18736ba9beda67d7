#include "explore/scenario.h"

#include <string>

#include "model/errors.h"

namespace ptespec::explore {

std::string_view to_string(scenario s)
{
	switch (s) {
	case scenario::exit: return "exit";
	case scenario::dontneed: return "dontneed";
	case scenario::munmap: return "munmap";
	case scenario::fork: return "fork";
	case scenario::madv_free: return "madv-free";
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
	throw usage_error("--scenario '" + std::string(name) + "': expected one of " + known);
}

world_layout scenario_layout(const geometry& geo, std::size_t runs)
{
	world_layout w;
	w.geo = geo;
	w.nr_entries = runs * geo.cont_ptes;
	w.pfn_base = 0x40000;	// aligned for every run size the tool allows
	for (std::size_t r = 0; r < runs; r++)
		w.folios.push_back({w.pfn_base + r * geo.cont_ptes, geo.cont_ptes});
	return w;
}

range scenario_range(scenario s, const geometry& geo, std::size_t n)
{
	switch (s) {
	case scenario::exit:
	case scenario::munmap:
		return {0, n};
	case scenario::dontneed:
	case scenario::fork:
	case scenario::madv_free:
		// Starts mid-run: the first run straddles the range edge.
		return {geo.cont_ptes / 2, n};
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

void run_caller(harness& h, scenario s)
{
	const range r = scenario_range(s, h.layout().geo, h.layout().nr_entries);
	switch (s) {
	case scenario::exit:
		h.zap(r.first, r.last, true, true, false);
		return;
	case scenario::dontneed:
	case scenario::munmap:
		h.zap(r.first, r.last, false, true, false);
		return;
	case scenario::fork:
		h.fork_wrprotect(r.first, r.last);
		return;
	case scenario::madv_free:
		h.madv_free(r.first, r.last);
		return;
	}
}

} // namespace ptespec::explore
