// The unfolded primitives of arch/arm64 (the __ptep_* family of
// asm/pgtable.h): what the contpte layer builds on, mapped onto the machine's
// primitives.  They know nothing of runs.
//
// A CRTP base like mainline_ops (impl/mainline.h), so a variant may hide a
// primitive too and every caller of it follows.
#pragma once

#include <cstddef>

#include "impl/arch_pte.h"
#include "model/call.h"
#include "model/history.h"
#include "model/pte.h"
#include "model/word.h"

namespace ptespec {

template <class M, class Self>
struct pte_primitives {
	using W = typename M::word;
	using B = typename M::boolean;

	Self& self() { return static_cast<Self&>(*this); }

	// A boolean constant in M's space (a Z3 boolean needs its context).
	static B truth_value(M& m, bool v) { return word_ops<W>::nonzero(m.lit(v ? 1 : 0)); }

	W __ptep_get(M& m, std::size_t i) { return m.read(i); }
	void __set_pte(M& m, std::size_t i, const W& pte) { m.write(i, pte); }
	W __ptep_get_and_clear(M& m, std::size_t i) { return m.exchange(i, m.lit(0)); }
	void __pte_clear(M& m, std::size_t i) { self().__set_pte(m, i, m.lit(0)); }

	void __set_ptes(M& m, std::size_t i, W pte, std::size_t nr)
	{
		for (std::size_t k = 0; k < nr; k++) {
			self().__set_pte(m, i + k, pte);
			pte = pte_advance_pfn(pte, 1, m.geo());
		}
	}

	W __get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool /*full*/)
	{
		W pte = self().__ptep_get_and_clear(m, i);
		for (std::size_t k = 1; k < nr; k++)
			pte = pte_or_flags(pte, self().__ptep_get_and_clear(m, i + k));
		return pte;
	}

	void __clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool /*full*/)
	{
		for (std::size_t k = 0; k < nr; k++)
			self().__ptep_get_and_clear(m, i + k);
	}

	B __ptep_test_and_clear_young(M& m, std::size_t i)
	{
		return pte_young(m.atomic_update(i, [](const W& v) { return pte_mkold(v); }));
	}

	// Reclaim tolerates a CPU using the stale young entry until its next
	// context switch, so only a young entry is worth the invalidation, and
	// it goes without the DSB that would wait for it to complete.
	B __ptep_clear_flush_young(M& m, std::size_t i)
	{
		const B young = self().__ptep_test_and_clear_young(m, i);
		if (m.branch(young))
			m.flush_tlb_page(i, flush_nosync);
		return young;
	}

	// pte_wrprotect moves hardware dirty into the software bit before
	// write permission goes, atomically against a racing write.
	void __ptep_set_wrprotect(M& m, std::size_t i)
	{
		m.atomic_update(i, [](const W& v) { return pte_wrprotect(v); });
	}

	void __wrprotect_ptes(M& m, std::size_t i, std::size_t nr)
	{
		for (std::size_t k = 0; k < nr; k++)
			self().__ptep_set_wrprotect(m, i + k);
	}

	void __clear_young_dirty_ptes(M& m, std::size_t i, std::size_t nr, unsigned flags)
	{
		const bool young = (flags & CYDP_CLEAR_YOUNG) != 0;
		const bool dirty = (flags & CYDP_CLEAR_DIRTY) != 0;
		for (std::size_t k = 0; k < nr; k++) {
			const W pte = self().__ptep_get(m, i + k);
			if (young && dirty) {
				// A plain write may erase a hardware update that
				// raced the read -- but this call consumes both
				// flags, so such an event is ordered before it.
				self().__set_pte(m, i + k, pte_mkclean(pte_mkold(pte)));
				continue;
			}
			m.atomic_update(i + k, [&](const W& v) {
				const W o = young ? pte_mkold(v) : v;
				return dirty ? pte_mkclean(o) : o;
			});
		}
	}

	B __ptep_set_access_flags(M& m, std::size_t i, const W& entry, bool dirty)
	{
		const W pte = self().__ptep_get(m, i);
		if (m.branch(arch::pte_same(pte, entry)))
			return truth_value(m, false);
		m.atomic_update(i, [&](const W& v) { return arch::pte_grant_access(v, entry); });
		// The faulting CPU would fault again on its stale read-only
		// translation; another CPU's fault on one is spurious and that CPU
		// fixes it (flush_tlb_fix_spurious_fault), so a local flush does.
		if (dirty)
			m.flush_tlb_page(i, flush_local);
		return truth_value(m, true);
	}
};

} // namespace ptespec
