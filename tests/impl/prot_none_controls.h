// Strategies shared by the property tests and the proofs' tests that only
// PROT_NONE entries tell apart from mainline: a control with one
// realistic mistake, and mainline with its young and dirty clears repaired.
#pragma once

#include <cstddef>
#include <utility>

#include "impl/mainline.h"

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

// The batch [i, i + nr) widened to the runs its first and last entries lie
// in when those are valid CONT entries (mainline's contpte_align_addr_ptep
// asks pte_cont only); s is the strategy, for its __ptep_get.
template <class S, class M>
std::pair<std::size_t, std::size_t> widened_from_valid_cont(S& s, M& m, std::size_t i, std::size_t nr)
{
	const geometry& g = m.geo();
	std::size_t first = i, end = i + nr;
	if (m.branch(pte_valid_cont(s.__ptep_get(m, i + nr - 1))))
		end = g.run_start(end + g.cont_ptes - 1);
	if (m.branch(pte_valid_cont(s.__ptep_get(m, i))))
		first = g.run_start(i);
	return {first, end};
}

// Mainline with its young and dirty clears widening to a run only from a
// valid CONT entry.  Mainline's widen from any entry with CONT: the
// batch's entries are present, and a present CONT entry was taken to mean
// a folded run of one folio.  A PROT_NONE entry keeps CONT from the commit
// that made it, and the run may since have lost a page to a zap and had a
// swap entry or another folio's page put there; widening from it then
// ages or cleans that entry too.  Only a valid CONT entry vouches for its
// run (a valid CONT run is whole and of one folio).
template <class M>
struct young_widening_from_valid_cont_only : mainline_ops<M, young_widening_from_valid_cont_only<M>> {
	// The one change: every young and dirty clear widens through here.  A
	// one-entry call on a PROT_NONE CONT entry still takes mainline's
	// contpte path, which now covers the entry alone.
	std::pair<std::size_t, std::size_t> contpte_align_addr_ptep(M& m, std::size_t i, std::size_t nr)
	{
		return widened_from_valid_cont(*this, m, i, nr);
	}
};

} // namespace ptespec::controls
