#include "explore/cost.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/errors.h"
#include "model/hardware.h"
#include "model/pte.h"
#include "properties/harness.h"

namespace ptespec::explore {

namespace {

// Without hardware access/dirty management the first write to each page
// faults unless the entry a walker reads for it is already young and
// writable-dirty; core-mm's fault path (handle_pte_fault) resolves each
// with ptep_set_access_flags.  Mainline's contpte_ptep_set_access_flags
// updates the whole run for exactly this: one fault per run, not per page.
std::uint64_t faults_writing_every_page(harness& h)
{
	std::uint64_t faults = 0;
	for (std::size_t p = 0; p < h.layout().nr_entries; p++) {
		if (!pte_valid(h.mach().table()[p]) || !walker_faults(h.mach().table()[p], hw_kind::write))
			continue;
		faults++;
		h.access_fault(p, true);
	}
	return faults;
}

// Folios the checked preflight runs on.
constexpr std::size_t preflight_folios = 8;

// The workload on a bare harness: its primitives, calls and (without
// hardware access/dirty management) the faults that set it up.
cost_row count(harness& h, strategy& s, const cost_options& o)
{
	const world_layout& w = h.layout();
	std::uint64_t faults = 0;
	if (o.hw.no_hafdbs) {
		map_folios(h, pte_mkclean(pte_mkold(touched_prot)));
		faults = faults_writing_every_page(h);
	} else {
		map_folios(h, pte_mkdirty(touched_prot));
	}
	// Only the workload counts, not the faults that set it up.
	h.cost() = cost_counters{};
	const std::uint64_t calls0 = h.calls();
	const std::size_t n = w.nr_entries;
	switch (o.scen) {
	case scenario::exit:
		h.zap(0, n, true, true, false);
		break;
	case scenario::exit_per_entry:
		h.zap(0, n, true, false, false);
		break;
	case scenario::munmap:
	case scenario::dontneed_start:
	case scenario::dontneed_end:
	case scenario::dontneed_inner:
		h.zap(0, n, false, true, false);
		break;
	case scenario::fork:
		h.fork_wrprotect(0, n);
		break;
	case scenario::madv_free:
		h.madv_free(0, n);
		break;
	case scenario::exit_split:
	case scenario::mprotect:
		// Not cost workloads (cost's --scenario refuses them).
		break;
	}
	return {s.info().name, h.cost(), n, h.calls() - calls0, std::nullopt, faults};
}

} // namespace

cost_row measure(strategy& s, const cost_options& o)
{
	if (o.scen == scenario::dontneed_start || o.scen == scenario::dontneed_end ||
	    o.scen == scenario::dontneed_inner)
		throw usage_error(fmt::format("scenario {}: the cost model unmaps whole folios; expected exit, munmap, "
					      "fork or madv-free",
					      to_string(o.scen)));
	if (o.folios < 1 || o.folios > 65536)
		throw usage_error(fmt::format("{} folios: expected 1 to 65536", o.folios));
	const world_layout w = scenario_layout(geometry::of(o.gran), o.folios, o.hw);
	const mm::caller& via = o.caller ? *o.caller : mm::core_mm();
	auto breached = [&](mm::caller_breach b) {
		cost_row none{s.info().name, {}, w.nr_entries, 0, {}, 0};
		none.breach = std::move(b);
		return none;
	};
	// The checked preflight tells a caller's breach from one a strategy
	// provoked by breaking a property first; its checker costs time linear
	// in the table per call, so it runs on a few folios: the workload is
	// the same whole-folio walk over each, and what the strategy does to one
	// folio it does to every other.  The counted run below then checks the
	// caller rules itself over every folio, so a caller that breaks them
	// only past the first few is still refused.
	const world_layout few = scenario_layout(geometry::of(o.gran), std::min(o.folios, preflight_folios), o.hw);
	if (std::optional<mm::caller_breach> b = caller_preflight(s, few, o.scen, via, pte_mkdirty(touched_prot)))
		return breached(std::move(*b));
	harness h(s, w, std::nullopt, nullptr, true);
	h.set_caller(via);
	h.set_bare_caller_rules(true);
	try {
		return count(h, s, o);
	} catch (const property_failed& f) {
		if (!f.breach)
			throw;
		return breached(*f.breach);
	}
}

double percent_over(const cost_row& row, const cost_row& baseline, const cost_profile& p)
{
	const double base = p.weigh(baseline.counts, baseline.pages);
	if (base <= 0)
		return 0;
	return 100.0 * (p.weigh(row.counts, row.pages) - base) / base;
}

} // namespace ptespec::explore
