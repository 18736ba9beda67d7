// "clear-block" -- Alistair Popple's suggestion in the seed thread: let
// ptep_get_and_clear_full on a CONT entry clear every entry of the run and
// return the OR of their flags.
//
// Argument its author made: "all PTEs should be pointing to the same folio
// anyway", and zap_pte_range "would cope with this just fine because
// subsequent iterations would just see pte_none() and continue the loop".
// Each entry is taken out atomically, so no flag is lost, and the run goes
// straight from folded to empty, which needs no unfold and no invalidation
// of its own.  Ryan's objection: it is fragile, and when a VMA split leaves a
// run across two VMAs a !full zap of one VMA clears entries of the other --
// so, as suggested, it applies whatever `full` is.
#pragma once

#include <cstddef>

#include "impl/generic.h"

namespace ptespec::variants {

template <class M>
struct clear_block : generic_batch_ops<M, clear_block<M>> {
	using W = typename M::word;

	W ptep_get_and_clear_full(M& m, std::size_t i, bool /*full*/)
	{
		auto& s = this->self();
		const W orig = s.__ptep_get(m, i);
		if (!m.branch(pte_valid_cont(orig)))
			return s.__ptep_get_and_clear(m, i);
		return s.contpte_clear_block(m, i);
	}

	// Entry i's value with the young/dirty of the whole run.
	W contpte_clear_block(M& m, std::size_t i)
	{
		auto& s = this->self();
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		W pte = m.lit(0);
		W flags = m.lit(0);
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W v = s.__ptep_get_and_clear(m, first + k);
			if (first + k == i)
				pte = v;
			flags = pte_or_flags(flags, v);
		}
		return pte_or_flags(pte, flags);
	}
};

} // namespace ptespec::variants
