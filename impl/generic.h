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
#include <type_traits>
#include <utility>

#include "impl/mainline.h"
#include "model/call.h"
#include "model/pte.h"

namespace ptespec {

// How the batch folds one more entry's answer into what it has: the first
// entry's value with every entry's young/dirty.
template <class W>
W generic_batch_fold(const W& acc, const W& next)
{
	return pte_or_flags(acc, next);
}

template <class M, class Self>
struct generic_batch_ops : mainline_ops<M, Self> {
	using W = typename M::word;

	// The thread's kernel (v6.9) tested pte_valid_cont before taking a
	// young call to its run, so its variants' young and dirty clears widen
	// only from a valid CONT entry: a row shows the variant's own mistakes,
	// not mainline's widening from a PROT_NONE CONT entry
	// (valid-cont-young's row shows that fix alone).
	std::pair<std::size_t, std::size_t> contpte_align_addr_ptep(M& m, std::size_t i, std::size_t nr)
	{
		return widened_from_valid_cont(this->self(), m, i, nr);
	}

	// The first entry's value, with the young/dirty of every entry cleared.
	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		Self& s = this->self();
		W pte = s.ptep_get_and_clear_full(m, i, full);
		for (std::size_t k = 1; k < nr; k++)
			pte = generic_batch_fold(pte, s.ptep_get_and_clear_full(m, i + k, full));
		return pte;
	}

	void clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		Self& s = this->self();
		for (std::size_t k = 0; k < nr; k++)
			s.ptep_get_and_clear_full(m, i + k, full);
	}
};

namespace detail {
template <class P>
struct member_of {
	using type = void;
};
template <class C, class R, class... A>
struct member_of<R (C::*)(A...)> {
	using type = C;
};
} // namespace detail

// Whether S's batch call of kind k is the loop above, over S's own
// ptep_get_and_clear_full: S derives from generic_batch_ops and does not
// declare the batch call itself.  Such a call is exactly that sequence of
// single-entry calls, its answer folded with generic_batch_fold, and the
// proofs may run it so (proofs/prover/symbolic_run.cpp: paths joined between entries).
template <class S, class M>
constexpr bool batch_is_generic(call_kind k)
{
	using base = generic_batch_ops<M, S>;
	if constexpr (std::is_base_of_v<base, S>) {
		if (k == call_kind::get_and_clear_full_ptes)
			return std::is_same_v<typename detail::member_of<decltype(&S::get_and_clear_full_ptes)>::type, base>;
		if (k == call_kind::clear_full_ptes)
			return std::is_same_v<typename detail::member_of<decltype(&S::clear_full_ptes)>::type, base>;
	}
	return false;
}

} // namespace ptespec
