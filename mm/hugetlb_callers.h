// The core-mm callers of arm64's hugetlb calls (mm/hugetlb.c, mm/rmap.c,
// mm/migrate.c): which calls each path makes on a hugepage.  A hugepage is
// named by its first entry and its entries: a CONT_PTE hugepage's in a pte
// table, a CONT_PMD hugepage's blocks in a pmd table, the run from `first`
// (the strategy is given the kernel's sz, in pages).  Each path reads
// the hugepage with huge_ptep_get before it acts, as the kernel does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "mm/callers.h"

namespace ptespec::mm {

// huge_ptep_get of the hugepage at `first`; nullopt when the run stopped.
std::optional<std::uint64_t> read_hugepage(call_sink& s, std::size_t first);

// arch_make_huge_pte for a contiguous hugepage in geo's table: CONT, and
// in a pmd table a block descriptor (bits[1:0] = 01, pmd_mkhuge).
std::uint64_t arch_make_huge_pte(const geometry& geo, std::uint64_t pte);

// hugetlb_no_page: a none hugepage mapped by set_huge_pte_at of `pte` made
// huge (arch_make_huge_pte).
void hugetlb_fault(call_sink& s, std::size_t first, std::size_t entries, std::uint64_t pte, const geometry& geo);

// hugetlb_fault on a mapped hugepage: the entry made young (and dirty for
// a write) through huge_ptep_set_access_flags; a write to a write-protected
// hugepage the task owns alone reuses it (hugetlb_wp's
// set_huge_ptep_writable: writable and dirty).
void hugetlb_access(call_sink& s, std::size_t first, std::size_t entries, bool write, bool reuse);

// __unmap_hugepage_range over the hugepages from `first` to `last`: a
// present one taken out with huge_ptep_get_and_clear, a non-present one
// cleared with huge_pte_clear, none skipped; the range flushed at the end
// (tlb_finish_mmu) when something present went.
void unmap_hugepage_range(call_sink& s, std::size_t first, std::size_t last, std::size_t entries);

// copy_hugetlb_page_range's parent side for a private writable mapping:
// each present hugepage write-protected with huge_ptep_set_wrprotect.
void copy_hugetlb_page_range(call_sink& s, std::size_t first, std::size_t last, std::size_t entries);

// hugetlb_change_protection: each present hugepage through
// huge_ptep_modify_prot_start, pte_modify to `newprot`, and
// huge_ptep_modify_prot_commit; a writable migration entry made readable
// with set_huge_pte_at; the range flushed at the end with the arch's
// flush_hugetlb_tlb_range (always: the kernel does not ask whether
// anything changed).
void hugetlb_change_protection(call_sink& s, std::size_t first, std::size_t last, std::size_t entries,
			       std::uint64_t newprot, const geometry& geo, unsigned phys_bits);

// try_to_migrate_one for a hugetlb folio: huge_ptep_clear_flush, then the
// migration entry written with set_huge_pte_at.
void hugetlb_migrate(call_sink& s, std::size_t first, std::size_t entries, const geometry& geo, unsigned phys_bits,
		     bool exclusive);

// remove_migration_pte for a hugetlb folio whose migration failed: the
// mapping given back with set_huge_pte_at (CONT, `prot`, young and dirty
// as the entry kept them, writable if it was migration-write).
void hugetlb_remove_migration(call_sink& s, std::size_t first, std::size_t entries, const geometry& geo,
			      unsigned phys_bits, std::uint64_t prot);

// hugetlb_change_protection with MM_CP_UFFD_WP over a none hugepage of a
// VMA registered for userfaultfd write-protection: a uffd-wp PTE marker
// written into every entry with set_huge_pte_at.
void hugetlb_uffd_wp_marker(call_sink& s, std::size_t first, std::size_t entries);

// move_huge_pte (mremap moving the hugepage to an address outside the
// table): huge_ptep_get_and_clear of a present or non-present hugepage;
// the old range flushed when it was present.
void move_hugepage(call_sink& s, std::size_t first, std::size_t entries);

} // namespace ptespec::mm
