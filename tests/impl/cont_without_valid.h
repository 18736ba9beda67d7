// A control shared by the property tests and the proofs' tests: ptep_get
// tests CONT without VALID, so a non-present entry whose swap offset sets
// bit 52 is "gathered" over its run and comes back with a neighbour's flags
// (precise).  Self is the strategy that derives from it (CRTP, as
// mainline_ops).
#pragma once

#include <cstddef>

#include "impl/mainline.h"

namespace ptespec::controls {

template <class M, class Self>
struct ptep_get_cont_without_valid : mainline_ops<M, Self> {
	using W = typename M::word;
	W ptep_get(M& m, std::size_t i)
	{
		const W pte = this->self().__ptep_get(m, i);
		if (!m.branch(pte_cont(pte)))
			return pte;
		return this->self().contpte_ptep_get(m, i, pte);
	}
};

} // namespace ptespec::controls
