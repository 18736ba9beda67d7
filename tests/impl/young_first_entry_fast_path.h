// A control shared by the property tests and the proofs' tests: the
// batched young calls written from the one-entry ones, fast path kept -- an
// entry without CONT is tested alone, as ptep_test_and_clear_young rightly
// does, but here whatever nr says.  A batch over a large folio mapped
// without CONT (part of a run, or off CONT alignment physically) then
// answers for its first page only; the young of the others is neither
// reported nor cleared, and reclaim takes a folio in use for an idle one:
// per-call.  With nr = 1 it is exactly mainline, so only a caller that
// batches can show it.  Self is the strategy that derives from it (CRTP,
// as mainline_ops).
#pragma once

#include <cstddef>

#include "impl/mainline.h"

namespace ptespec::controls {

template <class M, class Self>
struct young_ptes_first_entry_fast_path_ops : mainline_ops<M, Self> {
	using B = typename M::boolean;
	B test_and_clear_young_ptes(M& m, std::size_t i, std::size_t nr)
	{
		if (!m.branch(pte_cont(this->self().__ptep_get(m, i))))
			return this->self().__ptep_test_and_clear_young(m, i);
		return this->self().contpte_test_and_clear_young_ptes(m, i, nr);
	}
	B clear_flush_young_ptes(M& m, std::size_t i, std::size_t nr)
	{
		if (!m.branch(pte_cont(this->self().__ptep_get(m, i))))
			return this->self().__ptep_clear_flush_young(m, i);
		return this->self().contpte_clear_flush_young_ptes(m, i, nr);
	}
};

} // namespace ptespec::controls
