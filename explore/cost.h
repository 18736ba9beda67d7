// The cost model: how many primitives a strategy spends on a workload, by
// kind, counted by the machine (model/machine.h cost_counters) on a bare
// harness -- the same core-mm callers the properties drive, with no checker
// and no racing hardware, so the counts are the strategy's alone.
//
// The workload is a process of M 64K folios (M folded runs at 4K), mapped
// young and dirty (it ran and wrote its memory), torn down, unmapped,
// forked or MADV_FREEd as a whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "explore/profile.h"
#include "explore/scenario.h"
#include "impl/strategy.h"

namespace ptespec::explore {

struct cost_options {
	scenario scen = scenario::exit;
	granule gran = granule::k4;
	hardware_options hw;	// BBML2 saves contpte_convert's flush
	std::size_t folios = 256;	// folios of one run each
	const mm::caller* caller = nullptr;	// the caller variant (--caller); nullptr: core-mm
};

struct cost_row {
	std::string strategy;
	cost_counters counts;	// the caller's walk, including zap's final flush
	std::uint64_t pages = 0;
	std::uint64_t calls = 0;
	// The caller broke a caller rule (caller_preflight): nothing counted.
	std::optional<mm::caller_breach> breach;
	// Without hardware access/dirty management only: the faults the process
	// takes writing each page once after its memory was mapped old and
	// clean (each resolved by core-mm's fault path before the workload).
	std::uint64_t faults = 0;
};

// Throws usage_error for a scenario the cost model lacks (dontneed: use
// munmap) or a folio count outside 1..65536.
cost_row measure(strategy& s, const cost_options& o);

// Weighted cost of `row` under `p`, as percent over `baseline`'s.
double percent_over(const cost_row& row, const cost_row& baseline, const cost_profile& p);

} // namespace ptespec::explore
