// The batch calls as core-mm defines them for an architecture that does not
// provide its own (include/linux/pgtable.h): a loop of the strategy's own
// ptep_get_and_clear_full.
//
// The seed thread's variants predate get_and_clear_full_ptes and
// clear_full_ptes; zap then cleared one entry at a time through
// ptep_get_and_clear_full, and that is what these reproduce.  A variant
// derives from generic_batch_ops instead of mainline_ops and its own
// ptep_get_and_clear_full is what the loop calls.
#pragma once

#include <cstddef>

#include "impl/mainline.h"
#include "model/pte.h"

namespace ptespec {

template <class M, class Self>
struct generic_batch_ops : mainline_ops<M, Self> {
	using W = typename M::word;

	// The first entry's value, with the young/dirty of every entry cleared.
	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		Self& s = this->self();
		W pte = s.ptep_get_and_clear_full(m, i, full);
		for (std::size_t k = 1; k < nr; k++)
			pte = pte_or_flags(pte, s.ptep_get_and_clear_full(m, i + k, full));
		return pte;
	}

	void clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		Self& s = this->self();
		for (std::size_t k = 0; k < nr; k++)
			s.ptep_get_and_clear_full(m, i + k, full);
	}
};

} // namespace ptespec
