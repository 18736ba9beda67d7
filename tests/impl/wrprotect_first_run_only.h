// A control shared by the property tests and the proofs' tests: fork's
// wrprotect written as if folio_pte_batch never crossed a run -- it
// protects up to the end of the run holding the first entry and stops.  A
// folio of several runs keeps its later runs writable in the parent, which
// now shares those pages with the child: copy-on-write is broken.  Every
// entry keeps its mapping, the runs stay whole and uniform, no flag is
// lost -- only permission sees that fork asked for more than it got.  Self
// is the strategy that derives from it (CRTP, as mainline_ops).
#pragma once

#include <cstddef>

#include "impl/mainline.h"

namespace ptespec::controls {

template <class M, class Self>
struct wrprotect_first_run_only_ops : mainline_ops<M, Self> {
	void contpte_wrprotect_ptes(M& m, std::size_t i, std::size_t nr)
	{
		const geometry& g = m.geo();
		const std::size_t to_run_end = g.run_start(i) + g.cont_ptes - i;
		mainline_ops<M, Self>::contpte_wrprotect_ptes(m, i, nr < to_run_end ? nr : to_run_end);
	}
};

} // namespace ptespec::controls
