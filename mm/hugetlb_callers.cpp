#include "mm/hugetlb_callers.h"

namespace ptespec::mm {

std::optional<std::uint64_t> read_hugepage(call_sink& s, std::size_t first)
{
	const std::optional<call_result> r = s.run({call_kind::huge_ptep_get, first, 1, false, 0, 0});
	if (!r || !r->pte)
		return std::nullopt;
	return *r->pte;
}

std::uint64_t arch_make_huge_pte(const geometry& geo, std::uint64_t pte)
{
	return pte_mkcont(geo.pmd_table() ? pte & ~PTE_TYPE : pte);
}

void hugetlb_fault(call_sink& s, std::size_t first, std::size_t entries, std::uint64_t pte, const geometry& geo)
{
	const std::optional<std::uint64_t> v = read_hugepage(s, first);
	if (!v || !pte_none(*v))
		return;
	s.run({call_kind::set_huge_pte_at, first, entries, false, arch_make_huge_pte(geo, pte), 0});
}

void hugetlb_access(call_sink& s, std::size_t first, std::size_t entries, bool write, bool reuse)
{
	const std::optional<std::uint64_t> v = read_hugepage(s, first);
	if (!v || !pte_valid(*v))
		return;
	std::uint64_t entry = pte_mkyoung(*v);
	const bool upgrade = write && reuse && !pte_write(entry);
	if (write && !pte_write(entry) && !upgrade)
		return;	// a copy on write: a new hugepage, which the model does not map
	if (upgrade)
		entry = pte_mkwrite(entry);
	if (write)
		entry = pte_mkdirty(entry);
	s.run({call_kind::huge_ptep_set_access_flags, first, entries, false, entry, write ? 1u : 0u});
}

void unmap_hugepage_range(call_sink& s, std::size_t first, std::size_t last, std::size_t entries)
{
	bool flush = false;
	for (std::size_t i = first; i + entries <= last; i += entries) {
		const std::optional<std::uint64_t> v = read_hugepage(s, i);
		if (!v)
			return;
		if (pte_none(*v))
			continue;
		if (!pte_present(*v)) {
			if (!s.run({call_kind::huge_pte_clear, i, entries, false, 0, 0}))
				return;
			continue;
		}
		if (!s.run({call_kind::huge_ptep_get_and_clear, i, entries, false, 0, 0}))
			return;
		flush = true;
	}
	if (flush)
		s.flush_range(first, last - first);
}

void copy_hugetlb_page_range(call_sink& s, std::size_t first, std::size_t last, std::size_t entries)
{
	for (std::size_t i = first; i + entries <= last; i += entries) {
		const std::optional<std::uint64_t> v = read_hugepage(s, i);
		if (!v)
			return;
		if (pte_present(*v) && pte_write(*v) &&
		    !s.run({call_kind::huge_ptep_set_wrprotect, i, entries, false, 0, 0}))
			return;
	}
}

void hugetlb_change_protection(call_sink& s, std::size_t first, std::size_t last, std::size_t entries,
			       std::uint64_t newprot, const geometry& geo, unsigned phys_bits)
{
	for (std::size_t i = first; i + entries <= last; i += entries) {
		const std::optional<std::uint64_t> v = read_hugepage(s, i);
		if (!v)
			return;
		if (pte_present(*v)) {
			const std::optional<call_result> old =
				s.run({call_kind::huge_ptep_modify_prot_start, i, entries, false, 0, 0});
			if (!old || !old->pte)
				return;
			const std::uint64_t pte = arch_make_huge_pte(geo, pte_modify(*old->pte, newprot));
			if (!s.run({call_kind::huge_ptep_modify_prot_commit, i, entries, false, pte, 0}))
				return;
			continue;
		}
		const std::optional<migration_entry> e = phys_bits ? read_migration_entry(geo, phys_bits, *v) : std::nullopt;
		if (e && e->write && !(newprot & PTE_WRITE)) {
			migration_entry r = *e;
			r.write = false;
			if (!s.run({call_kind::set_huge_pte_at, i, entries, false, make_migration_entry(geo, phys_bits, r), 0}))
				return;
		}
	}
	s.run({call_kind::flush_hugetlb_tlb_range, first, last - first, false, 0, static_cast<unsigned>(entries)});
}

void hugetlb_migrate(call_sink& s, std::size_t first, std::size_t entries, const geometry& geo, unsigned phys_bits,
		     bool exclusive)
{
	const std::optional<std::uint64_t> v = read_hugepage(s, first);
	if (!v || !pte_present(*v))
		return;
	const std::optional<call_result> old = s.run({call_kind::huge_ptep_clear_flush, first, entries, false, 0, 0});
	if (!old || !old->pte)
		return;
	const migration_entry e = migration_entry_of(geo, *old->pte, exclusive);
	s.run({call_kind::set_huge_pte_at, first, entries, false, make_migration_entry(geo, phys_bits, e), 0});
}

void hugetlb_remove_migration(call_sink& s, std::size_t first, std::size_t entries, const geometry& geo,
			      unsigned phys_bits, std::uint64_t prot)
{
	const std::optional<std::uint64_t> v = read_hugepage(s, first);
	if (!v)
		return;
	const std::optional<migration_entry> e = read_migration_entry(geo, phys_bits, *v);
	if (!e)
		return;
	s.run({call_kind::set_huge_pte_at, first, entries, false, arch_make_huge_pte(geo, pte_of_migration_entry(geo, *e, prot)), 0});
}

void hugetlb_uffd_wp_marker(call_sink& s, std::size_t first, std::size_t entries)
{
	const std::optional<std::uint64_t> v = read_hugepage(s, first);
	if (!v || !pte_none(*v))
		return;
	s.run({call_kind::set_huge_pte_at, first, entries, false, mk_swp_entry(SWP_PTE_MARKER, PTE_MARKER_UFFD_WP), 0});
}

void move_hugepage(call_sink& s, std::size_t first, std::size_t entries)
{
	const std::optional<std::uint64_t> v = read_hugepage(s, first);
	if (!v || pte_none(*v))
		return;
	if (!s.run({call_kind::huge_ptep_get_and_clear, first, entries, false, 0, 0}))
		return;
	if (pte_present(*v))
		s.flush_range(first, entries);
}

} // namespace ptespec::mm
