// Generators that lean on the edges (STYLE habit 5): ranges that start or
// end at align-1 / align / align+1, runs that straddle a range edge,
// non-present values whose bits alias AF and CONT, hardware events aimed at
// the calls and gaps of the command they ride on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "properties/harness.h"
#include "properties/world.h"

namespace ptespec::gen {

// A number in [lo, hi), uniform whatever RapidCheck's size (its inRange
// scales the range with the size, which would starve high indices: late
// calls, later entries of a run); shrinks towards lo.
template <class T>
rc::Gen<T> uniform(T lo, T hi)
{
	return rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

// A page index near a run boundary most of the time.
rc::Gen<std::size_t> edge_page(const world_layout& w);
// [first, last) with 0 <= first < last <= nr_entries, edges near alignment.
rc::Gen<std::pair<std::size_t, std::size_t>> edge_range(const world_layout& w);
// A folio to fault in; the ones that span whole runs (and so fold) half the
// time, since folded runs are where contpte strategies differ.
rc::Gen<std::size_t> folio(const world_layout& w);
// How far past CONT alignment a case's folios sit physically (the world's
// pfn_shift): 0 in two cases of three; otherwise half a run, or one pfn
// either side of alignment.  Shrinks towards 0.
rc::Gen<std::size_t> pfn_shift(const geometry& geo);
// Swarm testing (Groce et al., ISSTA 2012): half the cases keep every
// caller action at its weight (all 1); in the other half each action is
// left out, kept, or made three times as likely, a third of the time
// each, so some cases run long lives of a few actions (no exit, no
// munmap).  Shrinks towards all 1.
rc::Gen<std::array<std::uint8_t, max_caller_actions>> swarm();
// A user mapping's prot bits: valid page, young mostly, dirty sometimes,
// writable or not.
// `vary_attributes` false keeps every attribute but the flags and write
// permission fixed (what the generator did before; for the control test).
rc::Gen<std::uint64_t> user_prot(bool vary_attributes = true);
// A swap entry or marker; about half alias AF (bit 10) and CONT (bit 52)
// (none with `alias` false: the control tests' generator without that
// dimension).
rc::Gen<std::uint64_t> nonpresent_value(bool alias = true);
// Hardware events for a command of about `calls` calls touching pages
// [first, last).
rc::Gen<std::vector<hw_plan_event>> hw_plan(const world_layout& w, std::size_t calls, std::size_t first,
					    std::size_t last);

} // namespace ptespec::gen
