// "gather-all": mainline whose ptep_get reads the whole run every time,
// as an out-of-tree plugin.  The question it answers: what does stopping
// the gather once young and dirty are both known buy, and is it safe?
//
// Build and load (see docs/plugins.md, "(b) Out of tree, as a plugin"):
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=<ptespec prefix> && cmake --build build
//   ptespec --plugin build/gather_all.so demo --strategy gather-all
//
// Why it is correct: under the page-table lock only hardware changes the
// run, and hardware only adds young and dirty.  So the OR over every entry
// is at least the OR over a prefix of them, and never more than the run
// holds at the end of the read: the reported flags are a superset of
// mainline's, each one still recorded in the run.  Only the cost differs:
// CONT_PTES reads per ptep_get instead of as few as one.

#include <cstddef>

#include "impl/mainline.h"
#include "impl/plugin_api.h"

namespace {

template <class M>
struct gather_all : ptespec::mainline_ops<M, gather_all<M>> {
	using W = typename M::word;

	// Hides mainline's gather, which ptep_get reaches through self().
	W contpte_ptep_get(M& m, std::size_t i, const W& orig)
	{
		const std::size_t first = m.geo().run_start(i);
		W pte = orig;
		for (std::size_t k = 0; k < m.geo().cont_ptes; k++)
			pte = ptespec::pte_or_flags(pte, this->self().__ptep_get(m, first + k));
		return pte;
	}
};

} // namespace

PTESPEC_PLUGIN(gather_all, "gather-all",
	       "mainline, but ptep_get always reads the whole run (no early stop); example plugin")
