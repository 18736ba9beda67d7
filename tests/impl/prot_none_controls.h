// Strategies shared by the property tests and the proofs' tests that only
// PROT_NONE entries tell apart from mainline: a control with one
// realistic mistake, and (the builtin's) mainline with its young and dirty
// clears repaired.
#pragma once

#include <cstddef>
#include <utility>

#include "impl/mainline.h"
#include "impl/variants/valid_cont_young.h"

namespace ptespec::controls {

// The batched get-and-clear ORs young and dirty from valid entries only,
// taking a non-valid entry's AF and dirty bits for a swap entry's type and
// offset (which they would be: the batch never meets a swap entry, so the
// shortcut looks free).  But a PROT_NONE entry is present and not valid,
// and it keeps the flags mprotect carried into it: munmap of a PROT_NONE
// range, or mprotect back from it, returns the batch clean, and a dirty
// page is freed as clean: batch-or.  Only PROT_NONE entries show it.
template <class M>
struct get_and_clear_valid_flags_only : mainline_ops<M, get_and_clear_valid_flags_only<M>> {
	using W = typename M::word;
	W __get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool /*full*/)
	{
		const W first = this->self().__ptep_get_and_clear(m, i);
		W pte = select<W>(pte_valid(first), first, pte_mkold(pte_mkclean(first)));
		for (std::size_t k = 1; k < nr; k++) {
			const W next = this->self().__ptep_get_and_clear(m, i + k);
			pte = select<W>(pte_valid(next), pte_or_flags(pte, next), pte);
		}
		return pte;
	}
};

// Mainline with its young and dirty clears widening to a run only from a
// valid CONT entry: the builtin strategy valid-cont-young.
template <class M>
using young_widening_from_valid_cont_only = variants::valid_cont_young<M>;
using ptespec::widened_from_valid_cont;

} // namespace ptespec::controls
