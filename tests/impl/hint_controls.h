// Controls shared by the property tests and the proofs' tests, one
// realistic mistake each in pte_batch_hint (what core-mm's folio_pte_batch
// asks before it takes entries unread).  Each is mainline with its hint
// changed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "impl/mainline.h"

namespace ptespec::controls {

// The hint counting from the run's start instead of the entry's place in
// it: an entry in the middle of a run vouches for CONT_PTES entries, past
// the run's end, and core-mm batches entries it never read.
template <class M>
struct batch_hint_ignoring_place : mainline_ops<M, batch_hint_ignoring_place<M>> {
	using W = typename M::word;
	static std::size_t pte_batch_hint(M& m, std::size_t, const W& pte)
	{
		return m.branch(pte_valid_cont(pte)) ? m.geo().cont_ptes : 1;
	}
};

// Mainline's own hint, written over concrete words only (as a plugin
// written before hints ran on the machine would be): right, but the proofs
// cannot run it, and say so rather than prove it.
template <class M>
struct batch_hint_over_words : mainline_ops<M, batch_hint_over_words<M>> {
	static std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte)
	{
		if (!pte_valid_cont(pte))
			return 1;
		return g.cont_ptes - (i & (g.cont_ptes - 1));
	}
};

} // namespace ptespec::controls
