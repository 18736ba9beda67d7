// A control shared by the proofs' tests: clear_young_dirty_ptes that
// clears both flags whatever it is asked.  MADV_FREE asks for both, so it
// is right there; MADV_COLD asks for young alone (CYDP_CLEAR_YOUNG), and
// the dirty flag it then clears was never consumed: the write is lost
// (no-loss, per-call).  Self is the strategy that derives from it (CRTP, as
// mainline_ops).
#pragma once

#include <cstddef>

#include "impl/mainline.h"

namespace ptespec::controls {

template <class M, class Self>
struct cold_clear_cleans_ops : mainline_ops<M, Self> {
	void __clear_young_dirty_ptes(M& m, std::size_t i, std::size_t nr, unsigned)
	{
		mainline_ops<M, Self>::__clear_young_dirty_ptes(m, i, nr, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY);
	}
};

} // namespace ptespec::controls
