// The contpte arch API as mainline arm64 implements it today: the public
// wrappers of asm/pgtable.h over the contpte_* helpers of mm/contpte.c,
// written once over the machine (model/machine.h), one function per kernel
// function, kernel names throughout.  The unfolded __ptep_* primitives it
// builds on are impl/primitives.h.
//
// mainline_ops<M, Self> is a CRTP base: every internal call goes through
// self(), so a variant that hides one function (say contpte_ptep_get)
// changes what every other function that uses it does, exactly as patching
// that one function in the kernel would.  Overloaded names
// (contpte_try_fold, contpte_try_unfold) must be hidden together.
//
// Genericity (the proofs run this source on Z3 words): indices and loop
// bounds are concrete; words are M::word; flag decisions are select()s
// inside the pte helpers; control flow on a word-derived condition goes
// through m.branch(); CMPXCHG loops are m.atomic_update with a pure
// function of the old value.
//
// Which kernel: v6.16's contpte code with the 2026 fix to
// contpte_ptep_set_access_flags (every entry of the run must grant the
// access before "nothing to do"); contpte_convert as v6.17 has it (no flush
// between clear and repaint on a CPU with BBML2 and no TLB conflict
// aborts); arm64's pte_same as it is today (the generic whole-value one,
// impl/arch_pte.h); the young calls as v7.0 and the 2026 mm tree shape
// them: test_and_clear_young_ptes / clear_flush_young_ptes take nr,
// contpte_test_and_clear_young_ptes widens the batch to the runs its first
// and last entries lie in (contpte_align_addr_ptep), and the one-entry
// ptep_test_and_clear_young is the batched call with nr = 1.  mprotect's
// batched transaction as v6.17 has it: modify_prot_start_ptes is
// get_and_clear_ptes over the batch and modify_prot_commit_ptes is set_ptes
// (the start's TLB flush for Cortex-A510 erratum 2645198 is left out: the
// model's CPU is not affected).  The TLB maintenance as v6.19 and after: the
// dirty path of set_access_flags (the run's, and __ptep_set_access_flags')
// flushes this CPU only, and the young flushes go without their DSB.
//
// One deliberate departure from arch/arm64: nothing here checks
// mm_is_user(); every table in the model is a user table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "impl/arch_pte.h"
#include "impl/hugetlb.h"
#include "impl/primitives.h"
#include "model/errors.h"
#include "model/pte.h"
#include "model/word.h"

namespace ptespec {

template <class M, class Self>
struct mainline_ops : hugetlb_ops<M, Self> {
	using W = typename M::word;
	using B = typename M::boolean;

	// The lockless reader races hardware and at most one locked call, whose
	// primitives may interleave with its reads: the writer makes at least
	// one primitive in each pass it is still running, and a locked call on
	// one run makes fewer than 4 * CONT_PTES (an unfold is 2 * CONT_PTES + 1).
	// Hardware changes AF and RDONLY alone, which the consistency test
	// ignores.  So a run still inconsistent after more passes than that has
	// nobody left to finish the fold or teardown it saw half done.  The
	// kernel would spin; the model gives up.
	static unsigned lockless_retries(const geometry& g) { return 64 + 4 * static_cast<unsigned>(g.cont_ptes); }

	// pte_batch_hint: a valid CONT entry maps, with the entries after it
	// to the end of its run, consecutive pages with one set of
	// attributes, so core-mm may batch them without reading them.  The
	// kernel finds the run's end from the pte pointer's bits; entry i is
	// the pointer's place in a table aligned to a run.
	static std::size_t pte_batch_hint(M& m, std::size_t i, const W& pte)
	{
		if (!m.branch(pte_valid_cont(pte)))
			return 1;
		return m.geo().cont_ptes - (i & (m.geo().cont_ptes - 1));
	}

	using pte_primitives<M, Self>::self;
	using pte_primitives<M, Self>::truth_value;

	// ================= the API core-mm calls =================

	W ptep_get(M& m, std::size_t i)
	{
		const W pte = self().__ptep_get(m, i);
		if (!m.branch(pte_valid_cont(pte)))
			return pte;
		return self().contpte_ptep_get(m, i, pte);
	}

	W ptep_get_lockless(M& m, std::size_t i)
	{
		const W pte = self().__ptep_get(m, i);
		if (!m.branch(pte_valid_cont(pte)))
			return pte;
		return self().contpte_ptep_get_lockless(m, i);
	}

	// nr > 1: core-mm maps nr pages of one folio over non-present entries,
	// so no run needs unfolding first.  nr == 1 may land on a folded run.
	void set_ptes(M& m, std::size_t i, W pte, std::size_t nr)
	{
		pte = pte_mknoncont(pte);	// CONT is ours to set, never the caller's
		if (nr == 1) {
			self().contpte_try_unfold(m, i, self().__ptep_get(m, i));
			self().__set_ptes(m, i, pte, 1);
			self().contpte_try_fold(m, i, pte);
			return;
		}
		self().contpte_set_ptes(m, i, pte, nr);
	}

	W ptep_get_and_clear(M& m, std::size_t i)
	{
		self().contpte_try_unfold(m, i, self().__ptep_get(m, i));
		return self().__ptep_get_and_clear(m, i);
	}

	// arm64 keeps the generic definition: `full` is only a hint, and
	// mainline exploits it in the batched calls instead.
	W ptep_get_and_clear_full(M& m, std::size_t i, bool /*full*/) { return self().ptep_get_and_clear(m, i); }

	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		if (nr == 1) {
			self().contpte_try_unfold(m, i, self().__ptep_get(m, i));
			return self().__get_and_clear_full_ptes(m, i, 1, full);
		}
		return self().contpte_get_and_clear_full_ptes(m, i, nr, full);
	}

	void clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		if (nr == 1) {
			self().contpte_try_unfold(m, i, self().__ptep_get(m, i));
			self().__clear_full_ptes(m, i, 1, full);
			return;
		}
		self().contpte_clear_full_ptes(m, i, nr, full);
	}

	// Like every one-entry setter, pte_clear unfolds a valid CONT entry
	// first, so no run is ever left part-cleared behind a CONT entry.
	// Core-mm clears with it only entries no run holds (swap entries,
	// markers, none), so from today's callers the unfold never fires.
	void pte_clear(M& m, std::size_t i)
	{
		self().contpte_try_unfold(m, i, self().__ptep_get(m, i));
		self().__pte_clear(m, i);
	}

	// Core-mm's generic definition, which arm64 keeps: zap clears swap
	// entries and markers one pte_clear at a time.
	void clear_non_present_ptes(M& m, std::size_t i, std::size_t nr)
	{
		for (std::size_t k = 0; k < nr; k++)
			self().pte_clear(m, i + k);
	}

	// The batch's entries are present (the caller found them as a folio
	// batch), so CONT alone says whether a run is involved.
	B test_and_clear_young_ptes(M& m, std::size_t i, std::size_t nr)
	{
		if (nr == 1 && !m.branch(pte_cont(self().__ptep_get(m, i))))
			return self().__ptep_test_and_clear_young(m, i);
		return self().contpte_test_and_clear_young_ptes(m, i, nr);
	}

	B ptep_test_and_clear_young(M& m, std::size_t i) { return self().test_and_clear_young_ptes(m, i, 1); }

	B clear_flush_young_ptes(M& m, std::size_t i, std::size_t nr)
	{
		if (nr == 1 && !m.branch(pte_cont(self().__ptep_get(m, i))))
			return self().__ptep_clear_flush_young(m, i);
		return self().contpte_clear_flush_young_ptes(m, i, nr);
	}

	B ptep_clear_flush_young(M& m, std::size_t i)
	{
		const W orig = self().__ptep_get(m, i);
		if (!m.branch(pte_valid_cont(orig)))
			return self().__ptep_clear_flush_young(m, i);
		return self().contpte_clear_flush_young_ptes(m, i, 1);
	}

	void wrprotect_ptes(M& m, std::size_t i, std::size_t nr)
	{
		if (nr == 1) {
			// Fork's order-0 fast path: core-mm wrprotects present
			// entries only, so CONT alone says whether to unfold.
			const W orig = self().__ptep_get(m, i);
			if (m.branch(pte_cont(orig)))
				self().__contpte_try_unfold(m, i, orig);
			self().__ptep_set_wrprotect(m, i);
			return;
		}
		self().contpte_wrprotect_ptes(m, i, nr);
	}

	void clear_young_dirty_ptes(M& m, std::size_t i, std::size_t nr, unsigned flags)
	{
		if (nr == 1 && !m.branch(pte_cont(self().__ptep_get(m, i)))) {
			self().__clear_young_dirty_ptes(m, i, 1, flags);
			return;
		}
		self().contpte_clear_young_dirty_ptes(m, i, nr, flags);
	}

	B ptep_set_access_flags(M& m, std::size_t i, W entry, bool dirty)
	{
		const W orig = self().__ptep_get(m, i);
		entry = pte_mknoncont(entry);
		if (!m.branch(pte_valid_cont(orig)))
			return self().__ptep_set_access_flags(m, i, entry, dirty);
		return self().contpte_ptep_set_access_flags(m, i, entry, dirty);
	}

	// The batch is one folio's (the caller found it with folio_pte_batch),
	// so taking it out is a batched get-and-clear without `full`: runs
	// the batch covers partly are unfolded, the rest cleared in place, and
	// the first entry comes back with the OR over the batch, so the
	// protection the caller computes from it keeps every access and write.
	W modify_prot_start_ptes(M& m, std::size_t i, std::size_t nr)
	{
		return self().get_and_clear_full_ptes(m, i, nr, false);
	}

	// The entries are empty since start, so this is a plain set_ptes of
	// the new value, which may fold the runs it covers whole.
	void modify_prot_commit_ptes(M& m, std::size_t i, W pte, std::size_t nr) { self().set_ptes(m, i, pte, nr); }

	// The model's calls name a run by any page of it.  The kernel only tries
	// to fold from the run's last entry (core-mm maps low to high, so that is
	// when a run is likely complete), so the call asks from there.
	void contpte_try_fold(M& m, std::size_t i)
	{
		const std::size_t last = m.geo().run_start(i) + m.geo().cont_ptes - 1;
		self().contpte_try_fold(m, last, self().__ptep_get(m, last));
	}

	void contpte_try_unfold(M& m, std::size_t i) { self().contpte_try_unfold(m, i, self().__ptep_get(m, i)); }

	// ================= fold and unfold =================

	void contpte_try_fold(M& m, std::size_t i, const W& pte)
	{
		const geometry& g = m.geo();
		const std::size_t mask = g.cont_ptes - 1;
		if ((i & mask) != mask)
			return;
		const W pfn_low = pte_pfn(pte, g) & m.lit(mask);
		const B palign = word_ops<W>::equal(pfn_low, m.lit(mask));
		// Special mappings have no folio to prove the run is one.
		if (m.branch(palign && pte_valid(pte) && !pte_cont(pte) && !pte_special(pte)))
			self().__contpte_try_fold(m, i, pte);
	}

	void contpte_try_unfold(M& m, std::size_t i, const W& pte)
	{
		if (m.branch(pte_valid_cont(pte)))
			self().__contpte_try_unfold(m, i, pte);
	}

	// Folds only a run that one folio backs entirely, whose entries map
	// consecutive pfns with one set of attributes.  Access and dirty are
	// ignored in the comparison: folding ORs them into every entry.
	void __contpte_try_fold(M& m, std::size_t i, const W& pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W pfn = pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1});
		if (!m.branch(m.folio_covers(pfn, g.cont_ptes)))
			return;
		W expected = pfn_pte(pfn, pte_pgprot(pte_mkold(pte_mkclean(pte)), g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W subpte = pte_mkold(pte_mkclean(self().__ptep_get(m, first + k)));
			if (!m.branch(arch::pte_same(subpte, expected)))
				return;
			expected = pte_advance_pfn(expected, 1, g);
		}
		self().contpte_convert(m, i, pte_mkcont(pte));
	}

	void __contpte_try_unfold(M& m, std::size_t i, const W& pte) { self().contpte_convert(m, i, pte_mknoncont(pte)); }

	// Break-before-make for the whole run: take every entry out atomically
	// (so no hardware update is lost and none can land after), invalidate
	// the TLB, then write every entry back with the run's OR of young and
	// dirty -- which is why, after an unfold, every page reports every
	// event the run recorded.
	//
	// With BBML2 and no TLB conflict aborts (v6.17 on) the invalidation
	// goes: the repaint changes only CONT and the flags, so each new entry
	// translates as the one it replaces, and a CPU still holding the old
	// translation beside the new gets one of the two, both right.  Nothing
	// is flushed afterwards either: whoever changed a permission around the
	// convert flushes for it, as without BBML2, and that flush evicts old
	// and new alike.  Clearing first still matters: the atomic exchange is
	// what keeps a racing access or write from landing in an entry already
	// gathered.
	void contpte_convert(M& m, std::size_t i, W pte)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		pte = pfn_pte(pte_pfn(pte, g) & m.lit(~std::uint64_t{g.cont_ptes - 1}), pte_pgprot(pte, g), g);
		for (std::size_t k = 0; k < g.cont_ptes; k++)
			pte = pte_or_flags(pte, self().__ptep_get_and_clear(m, first + k));
		if (!m.features().bbml2_noabort)
			m.flush_tlb_range(first, g.cont_ptes);
		self().__set_ptes(m, first, pte, g.cont_ptes);
	}

	// Unfolds only runs the range covers partly: a run covered whole may
	// stay folded, since the caller treats every entry of it alike.
	void contpte_try_unfold_partial(M& m, std::size_t i, std::size_t nr)
	{
		const geometry& g = m.geo();
		if (!g.run_aligned(i) || nr < g.cont_ptes)
			self().contpte_try_unfold(m, i, self().__ptep_get(m, i));
		if (!g.run_aligned(i + nr)) {
			const std::size_t last = i + nr - 1;
			self().contpte_try_unfold(m, last, self().__ptep_get(m, last));
		}
	}

	// ================= gathering reads =================

	// Under the PTL nothing but hardware changes the run, and hardware only
	// adds flags: the OR read entry by entry is the run's state at the end.
	// Stops once both flags are known (mainline since v6.16).
	W contpte_ptep_get(M& m, std::size_t i, const W& orig)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		W found = m.lit(0);	// carries only the young/dirty seen so far
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			found = pte_or_flags(found, self().__ptep_get(m, first + k));
			if (m.branch(pte_young(found) && pte_dirty(found)))
				break;
		}
		return pte_or_flags(orig, found);
	}

	// Without the PTL a fold or unfold may run under the reader, so a pass
	// counts only if every entry it read belonged to the same folded run:
	// valid, CONT, consecutive pfns, one set of attributes.  Otherwise it
	// starts again.  (Once both flags are known it stops, as mainline does,
	// leaving the rest of the run unchecked.)
	W contpte_ptep_get_lockless(M& m, std::size_t i)
	{
		const unsigned retries = lockless_retries(m.geo());
		for (unsigned pass = 0; pass < retries; pass++) {
			W orig = self().__ptep_get(m, i);
			if (!m.branch(pte_valid_cont(orig)))
				return orig;
			if (self().contpte_lockless_gather(m, i, orig))
				return orig;
		}
		throw strategy_livelock("ptep_get_lockless(#" + std::to_string(i) + "): the run stayed inconsistent for " +
					std::to_string(retries) + " passes with no writer to finish it");
	}

	// One pass of the lockless read; ORs the run's flags into orig.
	bool contpte_lockless_gather(M& m, std::size_t i, W& orig)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W prot = pte_pgprot(pte_mkold(pte_mkclean(orig)), g);
		// pfn - (i - first): words only add, and wrap like the kernel's
		W pfn = pte_pfn(orig, g) + m.lit(std::uint64_t{0} - (i - first));
		W found = m.lit(0);
		for (std::size_t k = 0; k < g.cont_ptes; k++, pfn = pfn + m.lit(1)) {
			const W pte = self().__ptep_get(m, first + k);
			if (!m.branch(contpte_is_consistent(pte, pfn, prot, g)))
				return false;
			found = pte_or_flags(found, pte);
			if (m.branch(pte_young(found) && pte_dirty(found)))
				break;
		}
		orig = pte_or_flags(orig, found);
		return true;
	}

	static B contpte_is_consistent(const W& pte, const W& pfn, const W& prot, const geometry& g)
	{
		return pte_valid_cont(pte) && word_ops<W>::equal(pte_pfn(pte, g), pfn) &&
		       word_ops<W>::equal(pte_pgprot(pte_mkold(pte_mkclean(pte)), g), prot);
	}

	// ================= batched calls =================

	// CONT goes on each chunk that is a whole aligned run with an aligned
	// pfn: set_ptes maps consecutive pages of one folio, so such a chunk is
	// one folio's run, and the entries were not present, so no
	// break-before-make is needed.
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
			if (g.run_aligned(addr) && g.run_aligned(next)) {
				const B palign = !word_ops<W>::nonzero(pfn & m.lit(g.cont_ptes - 1));
				chunk = select<W>(palign, pte_mkcont(chunk), pte_mknoncont(chunk));
			} else {
				chunk = pte_mknoncont(chunk);
			}
			self().__set_ptes(m, addr, chunk, next - addr);
			pfn = pfn + m.lit(next - addr);
			addr = next;
		}
	}

	// Clearing a whole run entry by entry is legal without unfolding: each
	// entry is either valid CONT or invalid, and the caller flushes the TLB
	// after the batch.  The result ORs exactly what was taken out.
	W contpte_get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		self().contpte_try_unfold_partial(m, i, nr);
		return self().__get_and_clear_full_ptes(m, i, nr, full);
	}

	void contpte_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		self().contpte_try_unfold_partial(m, i, nr);
		self().__clear_full_ptes(m, i, nr, full);
	}

	// The batch [i, i + nr) widened to the runs its first and last entries
	// lie in, when those are CONT: the caller's nr entries map consecutive
	// pages of one folio, and a run never spans two folios, so a widened
	// run is the batch's folio too.  Returns the widened [first, end).
	std::pair<std::size_t, std::size_t> contpte_align_addr_ptep(M& m, std::size_t i, std::size_t nr)
	{
		const geometry& g = m.geo();
		std::size_t first = i, end = i + nr;
		if (m.branch(pte_cont(self().__ptep_get(m, i + nr - 1))))
			end = g.run_start(end + g.cont_ptes - 1);
		if (m.branch(pte_cont(self().__ptep_get(m, i))))
			first = g.run_start(i);
		return {first, end};
	}

	// core-mm tracks access per folio and a run lies in one folio, so
	// clearing young over the whole runs the batch touches answers for
	// its pages without an unfold.  Every entry is tested: the answer is
	// the OR over all of them.
	B contpte_test_and_clear_young_ptes(M& m, std::size_t i, std::size_t nr)
	{
		const auto [first, end] = self().contpte_align_addr_ptep(m, i, nr);
		B young = self().__ptep_test_and_clear_young(m, first);
		for (std::size_t k = first + 1; k < end; k++) {
			const B y = self().__ptep_test_and_clear_young(m, k);	// never short-circuited
			young = young || y;
		}
		return young;
	}

	// Only a young answer is worth the invalidation, and then over the
	// same widened range the clear covered.
	B contpte_clear_flush_young_ptes(M& m, std::size_t i, std::size_t nr)
	{
		const B young = self().contpte_test_and_clear_young_ptes(m, i, nr);
		if (m.branch(young)) {
			const auto [first, end] = self().contpte_align_addr_ptep(m, i, nr);
			m.flush_tlb_range(first, end - first, flush_nosync);	// as __ptep_clear_flush_young
		}
		return young;
	}

	// A whole run can be wrprotected in place (the caller's later flush
	// makes it take effect); a run covered partly must be unfolded, or its
	// entries would disagree on permissions under one CONT translation.
	void contpte_wrprotect_ptes(M& m, std::size_t i, std::size_t nr)
	{
		self().contpte_try_unfold_partial(m, i, nr);
		self().__wrprotect_ptes(m, i, nr);
	}

	// Clearing access/dirty needs no unfold, and widening a partly covered
	// run to the whole run is fine: core-mm tracks both per folio, and a
	// run lies in one folio.
	void contpte_clear_young_dirty_ptes(M& m, std::size_t i, std::size_t nr, unsigned flags)
	{
		const auto [first, end] = self().contpte_align_addr_ptep(m, i, nr);
		self().__clear_young_dirty_ptes(m, first, end - first, flags);
	}

	// Nothing to do only if EVERY entry of the run already grants the
	// access: a walker that reads one entry (no gathering) must stop
	// faulting on this page, and the gathered ptep_get would call a
	// sibling's flag this entry's.  Access and dirty can be fixed in place;
	// a change of write permission needs an unfold.
	B contpte_ptep_set_access_flags(M& m, std::size_t i, const W& entry, bool dirty)
	{
		const geometry& g = m.geo();
		if (self().contpte_all_subptes_match_access_flags(m, i, entry))
			return truth_value(m, false);
		const W orig = pte_mknoncont(self().__ptep_get(m, i));
		const B was_write = pte_write(orig);
		const B to_write = pte_write(entry);
		if (m.branch((was_write && to_write) || (!was_write && !to_write))) {
			const std::size_t first = g.run_start(i);
			for (std::size_t k = 0; k < g.cont_ptes; k++)
				self().__ptep_set_access_flags(m, first + k, entry, false);
			// As __ptep_set_access_flags, once for the run: only this
			// CPU needs its stale translation gone.
			if (dirty)
				m.flush_tlb_range(first, g.cont_ptes, flush_local);
		} else {
			self().__contpte_try_unfold(m, i, orig);
			self().__ptep_set_access_flags(m, i, entry, dirty);
		}
		return truth_value(m, true);
	}

	bool contpte_all_subptes_match_access_flags(M& m, std::size_t i, const W& entry)
	{
		const geometry& g = m.geo();
		const std::size_t first = g.run_start(i);
		const W want = entry & m.lit(arch::PTE_ACCESS_BITS);
		for (std::size_t k = 0; k < g.cont_ptes; k++) {
			const W have = self().__ptep_get(m, first + k) & m.lit(arch::PTE_ACCESS_BITS);
			if (!m.branch(word_ops<W>::equal(have, want)))
				return false;
		}
		return true;
	}
};

// Mainline as merged: the batch design the thread settled on.
// The batch [i, i + nr) widened to the runs its first and last entries lie
// in when those are valid CONT entries (not merely CONT: a PROT_NONE entry
// keeps CONT); s is the strategy, for its __ptep_get.  The young and dirty
// clears of valid-cont-young and of the thread's variants widen so.
template <class S, class M>
std::pair<std::size_t, std::size_t> widened_from_valid_cont(S& s, M& m, std::size_t i, std::size_t nr)
{
	const geometry& g = m.geo();
	std::size_t first = i, end = i + nr;
	if (m.branch(pte_valid_cont(s.__ptep_get(m, i + nr - 1))))
		end = g.run_start(end + g.cont_ptes - 1);
	if (m.branch(pte_valid_cont(s.__ptep_get(m, i))))
		first = g.run_start(i);
	return {first, end};
}

template <class M>
struct mainline : mainline_ops<M, mainline<M>> {};

} // namespace ptespec
