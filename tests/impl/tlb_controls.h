// Controls of break-before-make and the TLB, shared by the property tests
// and the proofs' tests: each is mainline with one realistic mistake in how
// contpte_convert takes a run out of the TLB before repainting it, so that
// the sampled checker (model/tlb.h) and the proofs' TLB over terms
// (model/symbolic_machine.h) are both seen to find them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "impl/mainline.h"
#include "model/history.h"

namespace ptespec::controls {

// Fold and unfold without the TLB invalidation between clear and rewrite:
// well-formed (break-before-make).
template <class M>
struct no_bbm : mainline_ops<M, no_bbm<M>> {
	using W = typename M::word;
	void contpte_convert(M& m, std::size_t i, W pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		pte = pfn_pte(pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1}), pte_pgprot(pte, g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++)
			pte = pte_or_flags(pte, this->self().__ptep_get(m, first + k));
		this->self().__set_ptes(m, first, pte, g.cont_ptes);
	}
};

// Fork write-protects a run it covers only in part by unfolding it, then
// write-protecting the covered entries one by one; this one saves the
// second pass by repainting the covered entries read-only in the unfold
// itself.  With the invalidation between clear and repaint that is a
// legal break-before-make.  Where the CPU has BBML2 without conflict aborts
// it skips the invalidation, as mainline's contpte_convert does; a CPU may
// then answer with the stale writable CONT translation or the new read-only
// one until fork's own flush -- as with any permission change before its
// flush, and legal: the two differ in size and permissions only.
template <class M>
struct unfold_wrprotecting : mainline_ops<M, unfold_wrprotecting<M>> {
	using W = typename M::word;
	void contpte_wrprotect_ptes(M& m, std::size_t i, std::size_t nr)
	{
		const geometry& g = m.geo();
		if (!g.run_aligned(i) || nr < g.cont_ptes)
			unfold_wrprotecting_range(m, i, i, i + nr);
		if (!g.run_aligned(i + nr))
			unfold_wrprotecting_range(m, i + nr - 1, i, i + nr);
		this->self().__wrprotect_ptes(m, i, nr);
	}
	// Unfolds the run holding `at`, repainting [lo, hi) read-only.
	void unfold_wrprotecting_range(M& m, std::size_t at, std::size_t lo, std::size_t hi)
	{
		const geometry& g = m.geo();
		const W orig = this->self().__ptep_get(m, at);
		if (!m.branch(pte_valid_cont(orig)))
			return;
		const std::size_t first = g.run_start(at);
		W pte = pfn_pte(pte_pfn(orig, g) & m.lit(~std::uint64_t{g.cont_ptes - 1}),
				pte_pgprot(pte_mknoncont(orig), g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++)
			pte = pte_or_flags(pte, this->self().__ptep_get_and_clear(m, first + k));
		if (!m.features().bbml2_noabort)
			m.flush_tlb_range(first, g.cont_ptes);
		for (std::size_t k = 0; k < g.cont_ptes; k++, pte = pte_advance_pfn(pte, 1, g)) {
			const bool covered = first + k >= lo && first + k < hi;
			this->self().__set_pte(m, first + k, covered ? pte_wrprotect(pte) : pte);
		}
	}
};

// contpte_convert repainting from the pfn of the entry it was called for
// instead of the run's first: the run's CONT entries then map pages shifted
// by that entry's place in the run.  Without BBML2 the invalidation comes
// first and the repaint itself is misshapen (well-formed: not aligned);
// with BBML2 the skipped invalidation leaves the old translations cached
// beside new ones of other pages, which no change of size allows
// (well-formed at the first store).
template <class M>
struct convert_unaligned : mainline_ops<M, convert_unaligned<M>> {
	using W = typename M::word;
	void contpte_convert(M& m, std::size_t i, W pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		for (std::size_t k = 0; k < g.cont_ptes; k++)
			pte = pte_or_flags(pte, this->self().__ptep_get_and_clear(m, first + k));
		if (!m.features().bbml2_noabort)
			m.flush_tlb_range(first, g.cont_ptes);
		this->self().__set_ptes(m, first, pte, g.cont_ptes);
	}
};

// contpte_convert with a cheaper invalidation between clear and repaint:
// Self::convert_flush gives its flags and hints (model/history.h).  Each
// leaves some CPU's CONT (or page) translation of the run in place while
// the run is repainted the other way: well-formed.
template <class M, class Self>
struct convert_flushing_with : mainline_ops<M, Self> {
	using W = typename M::word;
	void contpte_convert(M& m, std::size_t i, W pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		pte = pfn_pte(pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1}), pte_pgprot(pte, g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++)
			pte = pte_or_flags(pte, this->self().__ptep_get_and_clear(m, first + k));
		if (!m.features().bbml2_noabort)
			m.flush_tlb_range(first, g.cont_ptes, Self::convert_flush(g));
		this->self().__set_ptes(m, first, pte, g.cont_ptes);
	}
};
// The local invalidation set_access_flags uses since v6.19, taken for the
// convert too: fine while only this CPU can have cached the run.
template <class M>
struct convert_flushing_locally : convert_flushing_with<M, convert_flushing_locally<M>> {
	static unsigned convert_flush(const geometry&) { return flush_local; }
};
// The young calls' invalidation without its DSB, taken for the convert:
// the repaint may start before the invalidation has completed anywhere.
template <class M>
struct convert_flushing_without_sync : convert_flushing_with<M, convert_flushing_without_sync<M>> {
	static unsigned convert_flush(const geometry&) { return flush_nosync; }
};
// The invalidation with a stride of CONT_PTE_SIZE, one TLBI per run, as if
// the run were one block.  A TLB may hold each page's translation apart,
// CONT or not (hugetlb invalidates its contiguous ptes page by page for
// that reason), so the other pages of the run keep theirs.
template <class M>
struct convert_flushing_by_run : convert_flushing_with<M, convert_flushing_by_run<M>> {
	static unsigned convert_flush(const geometry& g)
	{
		return flush_stride(static_cast<unsigned>(std::countr_zero(g.cont_ptes)));
	}
};
// The invalidation hinting level 2 (a PMD's) for the run's ptes: with
// FEAT_TTL a TLB may keep every level-3 translation.
template <class M>
struct convert_flushing_at_pmd_level : convert_flushing_with<M, convert_flushing_at_pmd_level<M>> {
	static unsigned convert_flush(const geometry&) { return flush_level(2); }
};

// A fold that goes entry by entry: take one entry out, invalidate its
// page, write it back with CONT and its own flags (which a folded run's
// reads OR together anyway).  Each store keeps break-before-make for its
// own entry, but half-way through the run holds valid entries with and
// without CONT at once -- a misprogrammed run the TLB may cache from either
// kind: well-formed, though the run ends well formed.  An unfold goes as
// mainline's.
template <class M>
struct convert_entry_by_entry : mainline_ops<M, convert_entry_by_entry<M>> {
	using W = typename M::word;
	void contpte_convert(M& m, std::size_t i, W pte)
	{
		if (!m.branch(pte_cont(pte))) {
			mainline_ops<M, convert_entry_by_entry<M>>::contpte_convert(m, i, pte);
			return;
		}
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		pte = pfn_pte(pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1}), pte_pgprot(pte, g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++, pte = pte_advance_pfn(pte, 1, g)) {
			const W old = this->self().__ptep_get_and_clear(m, first + k);
			m.flush_tlb_page(first + k);
			this->self().__set_pte(m, first + k, pte_or_flags(pte, old));
		}
	}
};

} // namespace ptespec::controls
