// A control shared by the property tests and the proofs' tests: MADV_FREE's
// clear_young_dirty_ptes cleaning an entry as a generic architecture does,
// by clearing the software dirty bit only.  On arm64 a writable entry is
// hardware-dirty while RDONLY is clear (DBM), so pte_mkclean also sets
// RDONLY; without it the entry still reads dirty.  The call consumed the
// dirty flag (the caller may now free the page lazily), so a later read
// that reports it reports a write nobody made since: precise.  The call
// itself reports nothing and loses nothing, so only a call after it shows
// the mistake: a one-call proof whose ledger is read off the table counts
// the stale flag as pending; a sequence that follows the ledger does not.
// Self is the strategy that derives from it (CRTP, as mainline_ops).
#pragma once

#include <cstddef>

#include "impl/mainline.h"

namespace ptespec::controls {

template <class M, class Self>
struct clean_without_rdonly_ops : mainline_ops<M, Self> {
	using W = typename M::word;
	void __clear_young_dirty_ptes(M& m, std::size_t i, std::size_t nr, unsigned flags)
	{
		const bool young = (flags & CYDP_CLEAR_YOUNG) != 0;
		const bool dirty = (flags & CYDP_CLEAR_DIRTY) != 0;
		for (std::size_t k = 0; k < nr; k++)
			m.atomic_update(i + k, [&](const W& v) {
				const W o = young ? pte_mkold(v) : v;
				return dirty ? pte_clear_bits(o, PTE_DIRTY) : o;
			});
	}
};

} // namespace ptespec::controls
