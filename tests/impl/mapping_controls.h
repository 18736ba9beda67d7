// Controls shared by the property tests and the proofs' tests, one
// realistic mistake each in a call that passes a value -- set_ptes,
// ptep_set_access_flags, mprotect's commit -- or in mprotect's start, so
// that the sampled checker and the step/ obligations (which give the value
// as a free word under the caller's rule) are both seen to find them.  An
// `_ops` template is derived from by the strategy, Self (CRTP, as
// mainline_ops); the others are strategies of their own.
#pragma once

#include <cstddef>

#include "impl/mainline.h"

namespace ptespec::controls {

// ptep_set_access_flags decides "nothing to do" on the gathered value, so a
// sibling's dirty hides that this entry is still read-only: progress, where
// the hardware does not manage access/dirty itself (an SMMU without HTTU
// walking the process's tables faults on it forever).
template <class M, class Self>
struct gathered_noop_ops : mainline_ops<M, Self> {
	using W = typename M::word;
	using B = typename M::boolean;
	B contpte_ptep_set_access_flags(M& m, std::size_t i, const W& entry, bool dirty)
	{
		const W orig = pte_mknoncont(this->self().contpte_ptep_get(m, i, this->self().__ptep_get(m, i)));
		if (m.branch(word_ops<W>::equal(orig, entry)))
			return this->truth_value(m, false);
		return mainline_ops<M, Self>::contpte_ptep_set_access_flags(m, i, entry, dirty);
	}
};

// ptep_set_access_flags for a write fault sets AF and the software dirty
// bit but leaves RDONLY, on the theory that the retried write clears it
// through DBM, as FEAT_HAFDBS hardware does.  Without hardware dirty
// management (a CPU without it, an SMMU without HTTU) the retry faults on
// RDONLY again, forever: progress.
template <class M, class Self>
struct set_access_flags_leaving_rdonly_ops : mainline_ops<M, Self> {
	using W = typename M::word;
	using B = typename M::boolean;
	B __ptep_set_access_flags(M& m, std::size_t i, const W& entry, bool dirty)
	{
		const W keep_rdonly = select<W>(pte_write(entry), pte_set(entry, PTE_RDONLY), entry);
		return mainline_ops<M, Self>::__ptep_set_access_flags(m, i, keep_rdonly, dirty);
	}
};

// set_ptes puts CONT on every chunk that is a whole aligned run, taking
// the pfn's alignment from the virtual one: true while a folio sits at the
// alignment of its address, but a folio mapped at another alignment gets
// CONT runs whose pfns straddle two aligned blocks: well-formed.  Only a
// world whose folios sit off CONT alignment physically shows it.
template <class M, class Self>
struct set_ptes_cont_by_virtual_alignment_ops : mainline_ops<M, Self> {
	using W = typename M::word;
	void contpte_set_ptes(M& m, std::size_t i, const W& pte, std::size_t nr)
	{
		const geometry& g = m.geo();
		const std::size_t end = i + nr;
		W pfn = pte_pfn(pte, g);
		const W prot = pte_pgprot(pte, g);
		for (std::size_t addr = i; addr != end;) {
			const std::size_t boundary = g.run_start(addr) + g.cont_ptes;
			const std::size_t next = boundary < end ? boundary : end;
			W chunk = pfn_pte(pfn, prot, g);
			chunk = g.run_aligned(addr) && g.run_aligned(next) ? pte_mkcont(chunk) : pte_mknoncont(chunk);
			this->self().__set_ptes(m, addr, chunk, next - addr);
			pfn = pfn + m.lit(next - addr);
			addr = next;
		}
	}
};

// mprotect's commit "leaves the hardware-controlled bits unmodified" by
// keeping the access and dirty the table holds -- but start has just
// cleared the table, so what start handed over (the batch's young and
// dirty, in the value the caller passes) is dropped: a dirty page is
// written back clean, no-loss.  Only the mprotect caller makes the call.
template <class M, class Self>
struct prot_commit_keeping_table_flags_ops : mainline_ops<M, Self> {
	using W = typename M::word;
	void modify_prot_commit_ptes(M& m, std::size_t i, W pte, std::size_t nr)
	{
		const W now = this->self().__ptep_get(m, i);
		this->self().set_ptes(m, i, pte_or_flags(pte_mkold(pte_mkclean(pte)), now), nr);
	}
};

// mprotect's commit writes the batch back with the value it was passed,
// entry by entry, and forgets to advance the pfn: every entry of the batch
// maps the batch's first page.  The flags and permissions are right, so
// only a judge of which page each entry maps sees it: mapping.  Only the
// mprotect caller makes the call.
template <class M>
struct prot_commit_without_pfn_advance : mainline_ops<M, prot_commit_without_pfn_advance<M>> {
	using W = typename M::word;
	void modify_prot_commit_ptes(M& m, std::size_t i, W pte, std::size_t nr)
	{
		for (std::size_t k = 0; k < nr; k++)
			this->self().set_ptes(m, i + k, pte, 1);
	}
};

// mprotect's start takes the batch out entry by entry and returns the
// first entry as it was: the caller gives the whole batch one protection,
// so one value looks like enough.  But the batch's access and dirty may
// sit in any of its entries (any entry of a folded run): a write recorded
// elsewhere is handed to nobody, and the commit writes the pages back
// clean: batch-or.  Only the mprotect caller makes the call.
template <class M>
struct prot_start_first_entry_only : mainline_ops<M, prot_start_first_entry_only<M>> {
	using W = typename M::word;
	W modify_prot_start_ptes(M& m, std::size_t i, std::size_t nr)
	{
		this->self().contpte_try_unfold_partial(m, i, nr);
		const W first = this->self().__ptep_get_and_clear(m, i);
		for (std::size_t k = 1; k < nr; k++)
			this->self().__ptep_get_and_clear(m, i + k);
		return first;
	}
};

// __ptep_set_access_flags with the pte_same arm64 had until 2019, which
// ignored RDONLY on present entries: an entry that is software-dirty and
// writable but still read-only to the walker "is" what a write fault asks
// for, so nothing is done and, on a CPU without hardware dirty management,
// the write faults again: progress.
template <class M>
struct pte_same_ignoring_rdonly : mainline_ops<M, pte_same_ignoring_rdonly<M>> {
	using W = typename M::word;
	using B = typename M::boolean;
	B __ptep_set_access_flags(M& m, std::size_t i, const W& entry, bool dirty)
	{
		const W pte = this->self().__ptep_get(m, i);
		const W a = select<W>(pte_present(pte), pte_clear_bits(pte, PTE_RDONLY), pte);
		const W b = select<W>(pte_present(entry), pte_clear_bits(entry, PTE_RDONLY), entry);
		if (m.branch(word_ops<W>::equal(a, b)))
			return this->truth_value(m, false);
		return mainline_ops<M, pte_same_ignoring_rdonly<M>>::__ptep_set_access_flags(m, i, entry, dirty);
	}
};

} // namespace ptespec::controls
