// "early-return" -- robust, with Alistair Popple's suggestion in the seed
// thread applied: when the entry just cleared is neither young nor dirty,
// return it as it is instead of gathering the run.
//
// Argument its author made: hardware may set young/dirty at any moment, so a
// caller must tolerate an old/clean answer anyway; what must not happen is a
// flag reported once and then lost, and a clean entry has nothing to stash.
// The common case then reads the run once per clear instead of n times.
// Ryan's objection: an entry with neither flag only says the flags are not
// stored in THIS entry -- with CONT set hardware updates one entry of the
// run, so the others must be checked.
#pragma once

#include <cstddef>

#include "impl/variants/robust.h"

namespace ptespec::variants {

template <class M>
struct early_return : robust_ops<M, early_return<M>> {
	using W = typename M::word;

	W contpte_ptep_get_and_clear_full(M& m, std::size_t i)
	{
		auto& s = this->self();
		const W orig = s.__ptep_get_and_clear(m, i);
		if (!m.branch(pte_young(orig) || pte_dirty(orig)))
			return orig;
		s.contpte_stash_flags(m, i, orig);
		return s.contpte_ptep_get(m, i, orig);
	}
};

} // namespace ptespec::variants
