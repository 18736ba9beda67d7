// The bounded scenarios `ptespec explore` and `ptespec cost` drive: one
// core-mm caller over a small table of one or two runs, set up by the
// strategy's own set_ptes.  Rulers at CONT_PTES 16, `#` the caller's range:
//
//   exit            |################|  zap full=1 (exit_mmap), batched
//   exit-per-entry  |################|  zap full=1, one ptep_get_and_clear_full
//                                        per entry (core-mm before the batch API)
//   exit-split      |########^#######|  zap full=1, batched, over two VMAs that
//                                        split the run (^): one zap each side
//   dontneed-start  |........########|  zap full=0 starting mid-run
//   dontneed-end    |########........|  zap full=0 ending mid-run
//   dontneed-inner  |........########|########........|  both edges inside a run
//   fork            |........########|  wrprotect_ptes (copy_pte_range)
//   madv-free       |........########|  clear_young_dirty_ptes
//
// A range edge inside a run is what a VMA split leaves: the run straddles
// two VMAs and the caller may touch only its own side.
//
// `munmap` is the cost model's: zap full=0 over whole runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "model/geometry.h"
#include "properties/harness.h"
#include "properties/world.h"

namespace ptespec::explore {

enum class scenario {
	exit,
	exit_per_entry,
	exit_split,
	dontneed_start,
	dontneed_end,
	dontneed_inner,
	munmap,
	fork,
	madv_free,
	// Not among explored_scenarios(): named with --scenario mprotect.
	mprotect,
};

std::string_view to_string(scenario s);
// Throws usage_error naming the input and the accepted names; `allowed`
// lists the scenarios the asking command accepts.
scenario parse_scenario(std::string_view name, std::initializer_list<scenario> allowed);

// What `ptespec explore` runs when no scenario is named, in the order it
// runs them.
const std::vector<scenario>& explored_scenarios();

// The caller and the calls it makes, for a reader of the report:
// "zap full=1, batched: ptep_get + get_and_clear_full_ptes".
std::string_view scenario_calls(scenario s);

// A writable, old and clean user mapping: what the fault path maps before
// hardware marks anything.
inline constexpr std::uint64_t scenario_prot =
	PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_PXN | PTE_UXN | PTE_RDONLY | PTE_WRITE;

// `runs` runs of `geo`, one folio per run (a 64K folio at 4K pages), so
// every run may fold and none spans two folios.
world_layout scenario_layout(const geometry& geo, std::size_t runs, hardware_options hw = {});

// How many runs the explorer's table for `s` has: two only where one range
// must cut two runs.
std::size_t scenario_runs(scenario s);

// The run size the default sweep gives `s` at `geo`: the granule's
// CONT_PTES, except for the walks that read the whole run per entry
// (exit-per-entry: every ptep_get of a CONT entry gathers the run) or cover
// two runs (dontneed-inner), which are held to 8 entries.  Their schedules
// grow as about the fifth power of the run at K=2 (at 16: 11.6 M schedules
// for exit-per-entry on mainline, some 4 minutes); a run of 8 still has
// entries on both sides of every range edge and between the first and the
// last entry of a walk.
std::size_t explored_cont_ptes(scenario s, const geometry& geo);

// The range a scenario's caller covers in a table of `n` entries.
struct range {
	std::size_t first = 0, last = 0;
};
range scenario_range(scenario s, const geometry& geo, std::size_t n);

// A process that ran: its pages were accessed and written, so the fault
// path mapped them young and dirty -- what exit() and the cost model see.
inline constexpr std::uint64_t touched_prot = scenario_prot | PTE_AF | PTE_DIRTY;

// Maps every entry with the strategy's set_ptes, one call per folio, as
// the fault path maps a large folio.
void map_folios(harness& h, std::uint64_t prot = scenario_prot);
// The scenario's table before its caller runs, mapped by the strategy's
// own set_ptes: each folio in one call (map_folios), but for mprotect a
// fault on one page then fault-around over the rest, which leaves the run
// whole but unfolded (set_ptes folds only an aligned run it maps at once).
void map_scenario(harness& h, scenario s, std::uint64_t prot = scenario_prot);
// Runs the scenario's caller over the table.
void run_caller(harness& h, scenario s);

// The scenario's caller over its table as map_folios leaves it, on a
// checked harness with no hardware: the first call that breaks a caller
// rule (mm/caller_rules.h), if one does.  Explore and cost run on bare
// harnesses, which check nothing, so they ask this first.  Hardware only
// adds access and dirty, which core-mm's batches never depend on, so the
// calls are those of every schedule.
std::optional<mm::caller_breach> caller_preflight(strategy& s, const world_layout& w, scenario sc,
						  const mm::caller& via, std::uint64_t prot = scenario_prot);

} // namespace ptespec::explore
