// Controls shared by the property tests and the proofs' tests, one
// realistic mistake each in the lockless read (ptep_get_lockless's gather
// of a run that a locked writer may be changing under it).  The sampled
// checker finds each when a writer's primitives interleave with the read;
// the lockless/ obligations, whose reads see the writer's table at free
// points of its run, meet them at once.  Each is a strategy of its own,
// mainline with one function changed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "impl/mainline.h"

namespace ptespec::controls {

// The lockless read passes over entries that read none, on the theory that
// a none entry has no flags to give: true of a run under the lock, but a
// fold or unfold clears the run before it repaints it, and a reader beside
// it finds entries cleared whose flags are on their way to the repaint:
// lockless.  Only a writer whose primitives interleave with the reader's
// shows it (run whole between two reads, the writer leaves no entry of the
// run cleared, or none the read owes flags to).
template <class M>
struct lockless_gather_skipping_none : mainline_ops<M, lockless_gather_skipping_none<M>> {
	using W = typename M::word;
	bool contpte_lockless_gather(M& m, std::size_t i, W& orig)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W prot = pte_pgprot(pte_mkold(pte_mkclean(orig)), g);
		W pfn = pte_pfn(orig, g) + m.lit(std::uint64_t{0} - (i - first));
		W found = m.lit(0);
		for (std::size_t k = 0; k < g.cont_ptes; k++, pfn = pfn + m.lit(1)) {
			const W pte = this->self().__ptep_get(m, first + k);
			if (m.branch(pte_none(pte)))
				continue;
			if (!m.branch(this->contpte_is_consistent(pte, pfn, prot, g)))
				return false;
			found = pte_or_flags(found, pte);
		}
		orig = pte_or_flags(orig, found);
		return true;
	}
};

// The lockless read gathers the run once, as the locked read does, and
// never re-reads to see that the run stayed whole: beside a teardown it
// returns flags the entry no longer holds: lockless.
template <class M>
struct lockless_gather_without_retry : mainline_ops<M, lockless_gather_without_retry<M>> {
	using W = typename M::word;
	W contpte_ptep_get_lockless(M& m, std::size_t i)
	{
		return this->self().contpte_ptep_get(m, i, this->self().__ptep_get(m, i));
	}
};

} // namespace ptespec::controls
