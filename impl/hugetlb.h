// arm64's contiguous hugetlb calls (arch/arm64/mm/hugetlbpage.c), as the
// mm tree has them after the 2025 fixes, over the machine: a hugepage of
// `pages` pages is the run of entries num_contig_ptes gives, starting at
// entry i, each mapping entry_pages pages.  The pte table holds CONT_PTE
// hugepages (one run each); a CONT_PMD hugepage's entries are pmd blocks,
// the same words a level up.
//
// mainline_ops (impl/mainline.h) is built on it, so every strategy built on
// mainline has arm64's hugetlb calls; a variant hides one to change it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "impl/primitives.h"
#include "model/hugetlb.h"

namespace ptespec {

template <class M, class Self>
struct hugetlb_ops : pte_primitives<M, Self> {
	using W = typename M::word;
	using B = typename M::boolean;
	using pte_primitives<M, Self>::self;

	contig contig_of(M& m, std::uint64_t pages) { return num_contig_ptes(m.geo(), pages); }

	// The next entry's value: the pfn advanced by what one entry maps.
	static W next_entry(M& m, const W& pte, const contig& c) { return pte_advance_pfn(pte, c.entry_pages, m.geo()); }

	void set_entries(M& m, std::size_t i, W pte, const contig& c)
	{
		for (std::size_t k = 0; k < c.entries; k++) {
			self().__set_pte(m, i + k, pte);
			pte = self().next_entry(m, pte, c);
		}
	}

	// Entry 0 if it is not a present CONT entry; else with the young and
	// dirty of every entry of its run.
	W huge_ptep_get(M& m, std::size_t i)
	{
		W orig = self().__ptep_get(m, i);
		if (!m.branch(pte_present(orig) && pte_cont(orig)))
			return orig;
		for (std::size_t k = 1; k < m.geo().cont_ptes; k++)
			orig = pte_or_flags(orig, self().__ptep_get(m, i + k));
		return orig;
	}

	// Every entry taken out; the others' young and dirty go into entry 0's
	// value only when entry 0 was present.
	W get_clear_contig(M& m, std::size_t i, const contig& c)
	{
		W pte = self().__ptep_get_and_clear(m, i);
		const bool present = m.branch(pte_present(pte));
		for (std::size_t k = 1; k < c.entries; k++) {
			const W other = self().__ptep_get_and_clear(m, i + k);
			if (present)
				pte = pte_or_flags(pte, other);
		}
		return pte;
	}

	// A flush of the hugepage's entries at the level a stride of what one
	// entry maps names (hugetlb_flush_level).
	static unsigned level_hint(M& m, std::uint64_t stride_pages)
	{
		const int level = hugetlb_flush_level(m.geo(), stride_pages);
		return level >= 0 ? flush_level(static_cast<unsigned>(level)) : 0u;
	}

	// The break of break-before-make: leaf entries only, one TLBI per
	// entry, named by the entry's size (none for a page, level 2 for a
	// PMD block).
	void flush_contig(M& m, std::size_t i, const contig& c)
	{
		m.flush_tlb_range(i, c.entries, level_hint(m, c.entry_pages));
	}

	W get_clear_contig_flush(M& m, std::size_t i, const contig& c)
	{
		const W pte = self().get_clear_contig(m, i, c);
		self().flush_contig(m, i, c);
		return pte;
	}

	void clear_flush(M& m, std::size_t i, const contig& c)
	{
		for (std::size_t k = 0; k < c.entries; k++)
			self().__ptep_get_and_clear(m, i + k);
		self().flush_contig(m, i, c);
	}

	W huge_ptep_get_and_clear(M& m, std::size_t i, std::uint64_t pages)
	{
		return self().get_clear_contig(m, i, self().contig_of(m, pages));
	}

	W huge_ptep_clear_flush(M& m, std::size_t i, std::uint64_t pages)
	{
		return self().get_clear_contig_flush(m, i, self().contig_of(m, pages));
	}

	// A non-present value goes into every entry as it is; a present one
	// breaks first when entry 0 is valid now, then each entry maps its part.
	void set_huge_pte_at(M& m, std::size_t i, W pte, std::uint64_t pages)
	{
		const contig c = self().contig_of(m, pages);
		if (!m.branch(pte_present(pte))) {
			for (std::size_t k = 0; k < c.entries; k++)
				self().__set_pte(m, i + k, pte);
			return;
		}
		if (m.branch(pte_cont(pte) && pte_valid(self().__ptep_get(m, i))))
			self().clear_flush(m, i, c);
		self().set_entries(m, i, pte, c);
	}

	void huge_pte_clear(M& m, std::size_t i, std::uint64_t pages)
	{
		const contig c = self().contig_of(m, pages);
		for (std::size_t k = 0; k < c.entries; k++)
			self().__pte_clear(m, i + k);
	}

	static B differ(const B& a, const B& b) { return (a && !b) || (!a && b); }

	// Whether writing pte over the run would change anything: the write
	// permission of entry 0, or the young or dirty of any entry.
	B __cont_access_flags_changed(M& m, std::size_t i, const W& pte, const contig& c)
	{
		if (m.branch(differ(pte_write(pte), pte_write(self().__ptep_get(m, i)))))
			return this->truth_value(m, true);
		for (std::size_t k = 0; k < c.entries; k++) {
			const W orig = self().__ptep_get(m, i + k);
			if (m.branch(differ(pte_dirty(pte), pte_dirty(orig)) || differ(pte_young(pte), pte_young(orig))))
				return this->truth_value(m, true);
		}
		return this->truth_value(m, false);
	}

	B huge_ptep_set_access_flags(M& m, std::size_t i, W pte, bool dirty, std::uint64_t pages)
	{
		if (!m.branch(pte_cont(pte)))
			return self().__ptep_set_access_flags(m, i, pte, dirty);
		const contig c = self().contig_of(m, pages);
		if (!m.branch(self().__cont_access_flags_changed(m, i, pte, c)))
			return this->truth_value(m, false);
		const W orig = self().get_clear_contig_flush(m, i, c);
		pte = pte_or_flags(pte, orig);
		self().set_entries(m, i, pte, c);
		return this->truth_value(m, true);
	}

	void huge_ptep_set_wrprotect(M& m, std::size_t i, std::uint64_t pages)
	{
		if (!m.branch(pte_cont(self().__ptep_get(m, i)))) {
			self().__ptep_set_wrprotect(m, i);
			return;
		}
		const contig c = self().contig_of(m, pages);
		const W pte = pte_wrprotect(self().get_clear_contig_flush(m, i, c));
		self().set_entries(m, i, pte, c);
	}

	// mprotect's transaction: the hugepage taken out, then written back.
	W huge_ptep_modify_prot_start(M& m, std::size_t i, std::uint64_t pages)
	{
		return self().huge_ptep_get_and_clear(m, i, pages);
	}
	void huge_ptep_modify_prot_commit(M& m, std::size_t i, W pte, std::uint64_t pages)
	{
		self().set_huge_pte_at(m, i, pte, pages);
	}

	// The range's translations, one TLBI per entry at the level the
	// hugepage's size names: 3 for a CONT_PTE hugepage, 2 for a CONT_PMD.
	void flush_hugetlb_tlb_range(M& m, std::size_t i, std::size_t nr, std::uint64_t pages)
	{
		m.flush_tlb_range(i, nr, level_hint(m, pages));
	}
};

} // namespace ptespec
