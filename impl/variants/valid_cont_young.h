// "valid-cont-young" -- mainline with its young and dirty clears widened to
// a run only from a valid CONT entry: the repair of the PROT_NONE young
// widening (docs/findings.md), so the table shows the failure and its fix
// side by side.
//
// Argument: mainline's batched young and dirty clears (and the one-entry
// young calls that reach them) widen the batch to the runs its first and
// last entries lie in whenever those carry CONT, taking a present CONT
// entry for a folded run of one folio.  A PROT_NONE entry is present, not
// valid, and keeps the CONT that the commit making it PROT_NONE set; its
// run may since have lost a page to a zap and had a swap entry, a marker or
// another folio's page put there, and widening from it ages or cleans that
// entry too.  A valid CONT run is whole and of one folio (a change to any
// of its entries unfolds it first), so widening only from valid CONT
// entries touches the batch's folio alone.
//
// Changes from mainline: contpte_align_addr_ptep tests pte_valid_cont
// where mainline tests pte_cont.
#pragma once

#include <cstddef>
#include <utility>

#include "impl/mainline.h"

namespace ptespec::variants {

template <class M>
struct valid_cont_young : mainline_ops<M, valid_cont_young<M>> {
	// Every young and dirty clear widens through here.  A one-entry call on
	// a PROT_NONE CONT entry still takes mainline's contpte path, which
	// now covers the entry alone.
	std::pair<std::size_t, std::size_t> contpte_align_addr_ptep(M& m, std::size_t i, std::size_t nr)
	{
		return widened_from_valid_cont(*this, m, i, nr);
	}
};

} // namespace ptespec::variants
