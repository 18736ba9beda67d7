// "simple" -- v2 of the contpte series, patch 14/14 (Nov 2023), the version
// the thread calls "simple-ptep_get_clear_full" (+8% / +29% on exit()).
//
// Argument its author made: on a full teardown just clear the entry, leaving
// its neighbours folded; every entry is cleared before the final TLB
// invalidation.  Return the entry's own flags without gathering the run:
// core-mm uses them to mark the folio, the whole run is one folio, so the
// flags "will make it to the folio eventually once all the ptes have been
// cleared".  ptep_get keeps ORing over the run (a cleared entry adds
// nothing).  The author conceded an interleaved ptep_get "may lack correct
// access/dirty information if we have already cleared the pte that happened
// to store it. The core code does not rely on this though."  Alistair Popple:
// "Does not *currently* rely on this."
//
// Not full, or not a valid CONT entry: unfold and clear, as mainline.
// ptep_get_lockless is mainline's (the patch did not change it).
#pragma once

#include <cstddef>

#include "impl/generic.h"

namespace ptespec::variants {

template <class M>
struct simple : generic_batch_ops<M, simple<M>> {
	using W = typename M::word;

	W ptep_get_and_clear_full(M& m, std::size_t i, bool full)
	{
		auto& s = this->self();
		const W orig = s.__ptep_get(m, i);
		if (!full || !m.branch(pte_valid_cont(orig))) {
			s.contpte_try_unfold(m, i, orig);
			return s.__ptep_get_and_clear(m, i);
		}
		return s.contpte_ptep_get_and_clear_full(m, i);
	}

	W contpte_ptep_get_and_clear_full(M& m, std::size_t i) { return this->self().__ptep_get_and_clear(m, i); }
};

} // namespace ptespec::variants
