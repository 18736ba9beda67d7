// The core-mm callers of the contpte API, as mm/memory.c, mm/madvise.c,
// mm/vmscan.c, mm/rmap.c and mm/gup.c drive it today: which calls each path
// makes, in what order, over which entries.  Every part of ptespec that
// makes calls takes them from here -- the property harness (which judges
// them), explore (which enumerates hardware around them), cost (which
// counts them), demo (which prints them) and the proofs' scenarios.
//
// A caller walks its range low to high, reads every entry with ptep_get
// before it acts on it, hands a folio's consecutive present entries to one
// batched call, and clears a non-present entry without the strategy's
// help.  Present means what core-mm means: mapped, PROT_NONE entries
// (present, not valid) included; only the fault paths ask for valid.
// What it knows of memory is the folio behind a pfn (page_folio);
// what it knows of the table it learns by calling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "model/call.h"
#include "model/geometry.h"
#include "model/history.h"
#include "model/observer.h"
#include "model/pte.h"

namespace ptespec::mm {

// Where a caller's calls go: the harness runs them under the checker, the
// demo prints them, a bare sink only runs them.
class call_sink {
public:
	virtual ~call_sink() = default;
	virtual bool implements(call_kind k) const = 0;
	// Runs c.  nullopt when it did not run (the strategy lacks the call,
	// or the run has stopped): the caller then stops too.
	virtual std::optional<call_result> run(const call& c) = 0;
	// The TLB flush a caller issues itself (tlb_finish_mmu's gathered
	// range, the flush after ptep_clear_flush).
	virtual void flush_range(std::size_t first, std::size_t nr) = 0;
	// The arch's pte_batch_hint for entry i holding pte: how many entries
	// from i on folio_pte_batch may take without reading them.  A sink
	// that runs a strategy asks the strategy (and a checked one judges the
	// answer); this default is arm64's: a valid CONT entry vouches for the
	// rest of its run, any other entry for itself.
	virtual std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte)
	{
		return pte_valid_cont(pte) ? g.run_start(i) + g.cont_ptes - i : std::size_t{1};
	}
};

// The memory behind the table, as a caller sees it: which folio holds a
// pfn, and how the table's entries group into runs.
struct memory {
	const geometry& geo;
	const std::vector<folio_extent>& folios;
};

// A caller variant (mm/caller.h): how a batch is found.  Every walk below
// takes one, core-mm's by default.
class caller;
const caller& core_mm();

// How a zap goes.
struct zap_options {
	bool full = false;	// exit_mmap tears the whole mm down (tlb->fullmm)
	// Present entries go to the batch calls (get_and_clear_full_ptes,
	// clear_full_ptes); false: one ptep_get_and_clear_full per entry, as
	// zap did before the batch API.
	bool batched = true;
	// The folio is anonymous and its flags are not wanted: clear_full_ptes.
	bool anon = false;
	// Cut batches after this many entries (0: as core-mm finds them).
	std::size_t batch_limit = 0;
};

// folio_pte_batch: how many entries from `i` on map the pages that follow
// `pte`'s in its folio with the same attributes, up to `last` (and up to
// `limit` entries, 0 for none).  Reads each candidate with ptep_get, except
// that pte_batch_hint lets it skip the rest of a run whose entry read as
// CONT; with `writable_only` (fork) a read-only entry ends the batch.
std::size_t folio_pte_batch(call_sink& s, const memory& mem, std::size_t i, std::size_t last, std::uint64_t pte,
			    bool writable_only = false, std::size_t limit = 0);

// zap_pte_range (exit, munmap, MADV_DONTNEED) over [first, last): none
// entries are skipped, present ones cleared a folio batch at a time, a run
// of swap entries or markers cleared with clear_non_present_ptes; then
// tlb_finish_mmu flushes the range.
void zap_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last, const zap_options& o,
		   const caller& via = core_mm());

// copy_pte_range's write protection of a private writable mapping at fork:
// wrprotect_ptes over each batch of writable present entries.
void copy_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
		    std::size_t batch_limit = 0, const caller& via = core_mm());

// madvise_free_pte_range: clear_young_dirty_ptes (young and dirty) over
// each batch of present entries that maps its folio whole; a large folio
// mapped in part is left alone (the kernel splits it first, and leaves it
// when the split fails; the model never splits).
void madvise_free_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			    std::size_t batch_limit = 0, const caller& via = core_mm());

// madvise_cold_or_pageout_pte_range for MADV_COLD: like MADV_FREE, a
// batch per folio the range maps whole (a large folio mapped in part is
// split first and left alone when that fails: the model never splits), but
// young alone is cleared -- clear_young_dirty_ptes with CYDP_CLEAR_YOUNG --
// and the range is flushed at the end (tlb_finish_mmu).  The kernel makes
// the call only when the batch reads young; the model makes it for every
// whole-folio batch (an extra call the API allows).  MADV_PAGEOUT makes no
// arch call here: it hands the folios to reclaim.
void madvise_cold_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			    std::size_t batch_limit = 0, const caller& via = core_mm());

// How reclaim asks whether a folio was referenced.
struct reclaim_options {
	// folio_referenced_one's clear_flush_young_ptes; false: MGLRU's walk
	// (lru_gen_look_around), test_and_clear_young_ptes without the flush.
	bool flush = true;
	// A folio batch per call; false: one ptep_clear_flush_young (or
	// ptep_test_and_clear_young) per entry, as reclaim did before the
	// batched young calls.
	bool batched = true;
	// Cut batches after this many entries (0: as core-mm finds them).
	std::size_t batch_limit = 0;
};

// folio_referenced_one over [first, last), the entries of one VMA where the
// folio behind the first present entry may be mapped (the rmap walk's
// page_vma_mapped_walk): entries that are not present or map another folio
// are passed over, the folio's present entries cleared of young a folio
// batch at a time (folio_pte_batch, which stops at the folio's end and at
// `last`).
void folio_referenced_one(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			  const reclaim_options& o, const caller& via = core_mm());

// change_pte_range (mprotect) over [first, last) to `newprot`: each batch of
// a folio's present entries (folio_pte_batch) goes through one transaction
// -- modify_prot_start_ptes takes it out and returns its first entry with
// the batch's young and dirty, pte_modify gives that value newprot, and
// modify_prot_commit_ptes writes it back over the batch -- swap entries and
// markers are passed over, and the range is flushed at the end
// (tlb_finish_mmu) if anything changed.
void change_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::uint64_t newprot,
		      std::size_t batch_limit = 0, const caller& via = core_mm());

// change_prot_numa: NUMA balancing's scan (task_numa_work) makes the
// present entries of [first, last) PROT_NONE, so that the next access
// faults and tells it where the page is used: change_pte_range with
// MM_CP_PROT_NUMA, which passes over entries already PROT_NONE.
void change_prot_numa(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
		      std::size_t batch_limit = 0, const caller& via = core_mm());

// do_numa_page when the folio stays where it is: the hinting fault on
// `page` (PROT_NONE in an accessible VMA) gives back the folio's mapping --
// every entry of [first, last) (the folio's pages inside the VMA) that is
// PROT_NONE and maps the folio (numa_rebuild_large_mapping; the one entry
// for a small folio) is read, taken out with modify_prot_start_ptes of one
// entry, given `prot` (the VMA's vm_page_prot) with pte_modify, made young,
// and written back with modify_prot_commit_ptes of one entry.  Nothing
// happens when `page` is not PROT_NONE.
void do_numa_page(call_sink& s, const memory& mem, std::size_t page, std::size_t first, std::size_t last,
		  std::uint64_t prot);

// MADV_GUARD_INSTALL over [first, last): the page walk puts a guard
// marker in each entry that reads none (its install_pte, then set_pte_at:
// here set_ptes of one entry) until it meets one that is anything but none
// or a guard marker; then the range is zapped (zap_vma_range, which leaves
// guard markers in place: here zap_pte_range over each stretch without
// one) and walked again.
void guard_install(call_sink& s, const memory& mem, std::size_t first, std::size_t last);

// MADV_GUARD_REMOVE over [first, last): each guard marker is cleared with
// pte_clear, which core-mm's clear_non_present_ptes of one entry is.
void guard_remove(call_sink& s, std::size_t first, std::size_t last);

// move_ptes (mremap moving [first, last) to an address outside the table),
// as kernels before mremap's batching of present entries (v6.16 and
// earlier) make it: every entry that reads anything but none -- present,
// PROT_NONE, swap entry, migration entry or marker alike -- is taken out
// with ptep_get_and_clear, whose value set_pte_at writes at the new
// address; the old range is flushed at the end when a present entry moved.
// (The mm tree batches a folio's present entries and takes each other
// entry out with get_and_clear_ptes of one entry, get_and_clear_full_ptes
// with full 0.)
void move_ptes(call_sink& s, std::size_t first, std::size_t last);

// A migration entry (mm/rmap.c try_to_migrate_one) for page `pfn`: type
// migration-write for a writable entry, else migration-read-exclusive for
// an anonymous exclusive page, else migration-read; young and dirty ride in
// the swap offset just above the pfn, at bits phys_bits - PAGE_SHIFT and
// the next (SWP_MIG_YOUNG_BIT, SWP_MIG_DIRTY_BIT; SWP_PFN_BITS is
// MAX_PHYSMEM_BITS - PAGE_SHIFT), so in the entry at bits phys_bits and
// phys_bits + 1: arm64's MAX_PHYSMEM_BITS is 52 with 64K pages and, with
// 4K and 16K pages, 52 on a CPU with LPA2, else 48 -- with 4K pages and
// LPA2 a young migration entry sets bit 52, CONT's place.
struct migration_entry {
	std::uint64_t pfn = 0;
	bool write = false, exclusive = false, young = false, dirty = false;
};
std::uint64_t make_migration_entry(const geometry& geo, unsigned phys_bits, const migration_entry& e);
// The migration entry v is, if it is one.
std::optional<migration_entry> read_migration_entry(const geometry& geo, unsigned phys_bits, std::uint64_t v);
// What try_to_migrate_one keeps of the present value `pte` it took out:
// its pfn, write, young and dirty.
migration_entry migration_entry_of(const geometry& geo, std::uint64_t pte, bool exclusive);
// What remove_migration_pte maps back for e: its pfn with `prot`, old
// unless e was young, dirty if it was, writable if it was migration-write.
std::uint64_t pte_of_migration_entry(const geometry& geo, const migration_entry& e, std::uint64_t prot);

// try_to_migrate of one folio over [first, last) (the folio's pages inside
// the VMA), as migrate_pages unmaps a batch of folios (TTU_BATCH_FLUSH):
// each entry that is present and maps the folio is read, taken out with
// ptep_get_and_clear, and given a migration entry with set_pte_at (set_ptes
// of one entry) that keeps its young and dirty; the invalidations are
// deferred to one flush of the range after the walk.  PROT_NONE entries are
// present to rmap too; the caller passes none.
void try_to_migrate(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
		    const folio_extent& folio, unsigned phys_bits, bool exclusive);

// remove_migration_ptes when the migration failed and the folio stays
// (migrate_folio_undo_src): each entry of [first, last) that holds a
// migration entry for a page of the folio is read and given back a
// mapping of that page with set_pte_at -- `prot` (the VMA's vm_page_prot),
// old unless the entry was young, dirty if it was dirty, writable if it
// was migration-write.  No flush: the entries were not present.
void remove_migration_ptes(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			   const folio_extent& folio, unsigned phys_bits, std::uint64_t prot);

// The guard marker value (a PTE marker of type 31 marking a guard page).
std::uint64_t guard_marker();

// A fault on a mapped page (handle_pte_fault): ptep_get, then
// ptep_set_access_flags with the entry made young, and dirty for a write
// through a writable entry.  A write through a read-only entry of a
// writable VMA (`reuse`, do_wp_page reusing the page in place) makes it
// writable and dirty too.
void access_fault(call_sink& s, std::size_t page, bool write, bool reuse = false);

// The fault path mapping a folio, or the part of it inside the VMA, with
// one set_ptes of `nr` entries from `pte`.
void fault_map(call_sink& s, std::size_t first, std::size_t nr, std::uint64_t pte);

// A read fault's fault-around (do_fault_around, filemap_map_pages) over
// the window [first, last), whose page `first` maps `pte`'s pfn and the
// rest the pfns that follow: every entry that reads none is mapped, one
// set_ptes per stretch of such entries inside one folio (set_pte_range);
// entries that read anything else are left alone.  One VMA, so one prot.
void fault_around(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::uint64_t pte);

// Faults page by page (set_ptes with nr = 1), the path that folds a run
// when it completes one.
void fault_pages(call_sink& s, const geometry& geo, std::size_t first, std::size_t nr, std::uint64_t pte);

// try_to_unmap's replacement of a cleared entry by a swap entry.
void swap_out(call_sink& s, std::size_t page, std::uint64_t swp);

// GUP-fast: one ptep_get_lockless, with no lock held.
std::optional<call_result> gup_fast(call_sink& s, std::size_t page);

// The calls zap_pte_range makes over `table` when each call does what the
// spec says (a read returns the entry, a clear leaves none): the sequence
// the proofs run symbolically.  `implements` is the strategy's.
std::vector<call> planned_zap(const memory& mem, const table_t& table, std::size_t first, std::size_t last,
			      const zap_options& o, const std::function<bool(call_kind)>& implements);

} // namespace ptespec::mm
