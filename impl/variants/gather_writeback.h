// "gather-writeback" -- v1 of the contpte series, patch 12/14 (June 2023):
// "arm64/mm: Add ptep_get_and_clear_full() to optimize process teardown".
//
// Argument its author made: on a full teardown the run need not be unfolded,
// since every entry will be cleared before the final TLB invalidation.  So
// that an interleaved ptep_get still sees young/dirty that hardware recorded
// in an entry already cleared, the first clear of the run copies the run's
// flags into every entry; a later clear that finds a zeroed entry knows the
// copy was made.  "A full teardown will only happen when the process is
// exiting, so we do not expect any more accesses ... so there is no race".
// Ryan later doubted it in the thread ("the HW could have modified the bits
// during those loops").
//
// Modelled as the thread describes the design: gather with plain reads, then
// write the OR back into every entry with plain writes, then clear.  (The
// posted patch computed the new values in the second loop; Ryan's own
// description of v1 in the thread is "writing that final set of bits to all
// the PTEs".)  Not full, or not a present CONT entry: unfold and clear.
#pragma once

#include <cstddef>

#include "impl/generic.h"

namespace ptespec::variants {

template <class M>
struct gather_writeback : generic_batch_ops<M, gather_writeback<M>> {
	using W = typename M::word;

	W ptep_get_and_clear_full(M& m, std::size_t i, bool full)
	{
		auto& s = this->self();
		const W orig = s.__ptep_get(m, i);
		if (!full || !m.branch(pte_present(orig) && pte_cont(orig))) {
			s.contpte_try_unfold(m, i, orig);
			return s.__ptep_get_and_clear(m, i);
		}
		return s.contpte_ptep_get_and_clear_full(m, i);
	}

	W contpte_ptep_get_and_clear_full(M& m, std::size_t i)
	{
		auto& s = this->self();
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		bool propagated = false;
		W flags = m.lit(0);	// carries only the gathered young/dirty
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W pte = s.__ptep_get(m, first + k);
			// A zeroed entry: an earlier call already copied the flags.
			if (m.branch(pte_none(pte))) {
				propagated = true;
				break;
			}
			flags = pte_or_flags(flags, pte);
		}
		if (!propagated) {
			for (std::size_t k = 0; k < g.cont_ptes; k++)
				s.__set_pte(m, first + k, pte_or_flags(s.__ptep_get(m, first + k), flags));
		}
		return s.__ptep_get_and_clear(m, i);
	}
};

} // namespace ptespec::variants
