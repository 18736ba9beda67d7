// Controls shared by the property tests and the proofs' tests, one
// realistic mistake each in the fold (contpte_try_fold's checks of the run
// it would fold).  The sampled checker finds each only when faults map a
// run's pages differently; step/contpte_try_fold, whose table's entries are
// free words, meets them at once.  Each is a strategy of its own, mainline
// with one function changed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "impl/mainline.h"

namespace ptespec::controls {

// A fold that compares each entry's pfn and write permission only: next to
// an executable (or non-shareable, global, special) mapping of the same
// folio it folds the run anyway, and the repaint gives every entry the
// faulting entry's attributes -- its neighbours' mappings change under
// them: isolation.  Only faults that map with differing attributes can show
// it.
template <class M>
struct fold_pfn_and_write_only : mainline_ops<M, fold_pfn_and_write_only<M>> {
	using W = typename M::word;
	void __contpte_try_fold(M& m, std::size_t i, const W& pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W pfn = pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1});
		if (!m.branch(m.folio_covers(pfn, g.cont_ptes)))
			return;
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W sub = this->self().__ptep_get(m, first + k);
			const W want = pfn + m.lit(k);
			if (!m.branch(pte_valid(sub) && word_ops<W>::equal(pte_pfn(sub, g), want) &&
				      word_ops<W>::equal(sub & m.lit(PTE_WRITE), pte & m.lit(PTE_WRITE))))
				return;
		}
		this->self().contpte_convert(m, i, pte_mkcont(pte));
	}
};

// A fold that compares every attribute but the memory type (AttrIndx,
// bits 4:2): it merges a run whose pages were mapped with different memory
// types under one CONT translation, which then gives every page the type of
// one of them.
template <class M>
struct fold_ignoring_memory_type : mainline_ops<M, fold_ignoring_memory_type<M>> {
	using W = typename M::word;
	void __contpte_try_fold(M& m, std::size_t i, const W& pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W pfn = pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1});
		if (!m.branch(m.folio_covers(pfn, g.cont_ptes)))
			return;
		const std::uint64_t attrindx = std::uint64_t{7} << 2;
		W expected = pfn_pte(pfn, pte_pgprot(pte_mkold(pte_mkclean(pte)), g), g) & m.lit(~attrindx);
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W sub = pte_mkold(pte_mkclean(this->self().__ptep_get(m, first + k))) & m.lit(~attrindx);
			if (!m.branch(arch::pte_same(sub, expected)))
				return;
			expected = pte_advance_pfn(expected, 1, g);
		}
		this->self().contpte_convert(m, i, pte_mkcont(pte));
	}
};

// A fold that never asks whether one folio backs the run: a run mapped
// whole by several small folios, each pfn following the last, folds, and
// from then on an access to one folio's page is reported for every folio
// of the run.
template <class M>
struct fold_without_folio_check : mainline_ops<M, fold_without_folio_check<M>> {
	using W = typename M::word;
	void __contpte_try_fold(M& m, std::size_t i, const W& pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W pfn = pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1});
		W expected = pfn_pte(pfn, pte_pgprot(pte_mkold(pte_mkclean(pte)), g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W subpte = pte_mkold(pte_mkclean(this->self().__ptep_get(m, first + k)));
			if (!m.branch(arch::pte_same(subpte, expected)))
				return;
			expected = pte_advance_pfn(expected, 1, g);
		}
		this->self().contpte_convert(m, i, pte_mkcont(pte));
	}
};

} // namespace ptespec::controls
