// The bounded scenarios `ptespec explore` and `ptespec cost` drive: one
// core-mm caller over a small table, set up by the strategy's own set_ptes.
//
//   exit       |YYYYYYYYYYYYYYYY|  zap full=1 of the whole run (exit_mmap)
//   dontneed   |YYYYYYYY[YYYYYYYY] zap full=0 of the upper half: the run
//                                   straddles the range edge (a VMA split)
//   fork       wrprotect_ptes over the upper half (copy_pte_range)
//   madv-free  clear_young_dirty_ptes over the upper half
//
// `munmap` is the cost model's name for dontneed over whole runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/geometry.h"
#include "properties/harness.h"
#include "properties/world.h"

namespace ptespec::explore {

enum class scenario { exit, dontneed, munmap, fork, madv_free };

std::string_view to_string(scenario s);
// Throws usage_error naming the input and the accepted names; `allowed`
// lists the scenarios the asking command accepts.
scenario parse_scenario(std::string_view name, std::initializer_list<scenario> allowed);

// A writable, old and clean user mapping: what the fault path maps before
// hardware marks anything.
inline constexpr std::uint64_t scenario_prot =
	PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_PXN | PTE_UXN | PTE_RDONLY | PTE_WRITE;

// `runs` runs of `geo`, one folio per run (a 64K folio at 4K pages), so
// every run may fold and none spans two folios.
world_layout scenario_layout(const geometry& geo, std::size_t runs);

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
// Runs the scenario's caller over the table.
void run_caller(harness& h, scenario s);

} // namespace ptespec::explore
