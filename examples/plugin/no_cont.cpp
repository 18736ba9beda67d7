// "no-cont": mainline that never folds -- the baseline a contpte patch is
// measured against, written as an out-of-tree plugin.
//
// Build and load (see README, "Adding a strategy"):
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=<ptespec prefix> && cmake --build build
//   ptespec --plugin build/no_cont.so demo --strategy no-cont
//
// Why it is correct: with CONT never set, the MMU records an access or a
// write only in the page's own entry, so each entry's own flags are the
// whole truth and no call has a run to gather, stash or unfold.  Every
// mainline path first asks whether the entry is valid and CONT; here the
// answer is always no, and each call reduces to its plain __ primitive.
// Only the two places that would set CONT are hidden: the whole-run chunk
// of a batched set_ptes, and the fold a single-entry set_ptes attempts.
//
// What it costs is what contpte buys: TLB reach (one TLB entry per page
// instead of one per run), which the model does not price.

#include <cstddef>

#include "impl/mainline.h"
#include "impl/plugin_api.h"

namespace {

template <class M>
struct no_cont : ptespec::mainline_ops<M, no_cont<M>> {
	using W = typename M::word;

	// Maps the chunk as it is given: pages of one folio, never a run.
	void contpte_set_ptes(M& m, std::size_t i, const W& pte, std::size_t nr)
	{
		this->self().__set_ptes(m, i, ptespec::pte_mknoncont(pte), nr);
	}

	// Never folds, whatever the run looks like.
	void __contpte_try_fold(M&, std::size_t, const W&) {}
};

} // namespace

PTESPEC_PLUGIN(no_cont, "no-cont", "mainline that never folds: the no-contpte baseline (example plugin)")
