#include "mm/callers.h"

#include <algorithm>

#include "mm/caller.h"
#include "model/pte.h"

namespace ptespec::mm {

namespace {

// swap_pte_batch: how many entries from i on hold the swap entries that
// follow `swp` (the same type and bits, the next offsets), up to `last`.
std::size_t swap_pte_batch(call_sink& s, std::size_t i, std::size_t last, std::uint64_t swp)
{
	constexpr std::uint64_t next_offset = std::uint64_t{1} << SWP_OFFSET_SHIFT;
	std::size_t nr = 1;
	for (std::uint64_t want = swp + next_offset; i + nr < last; want += next_offset) {
		if (swp_offset_of(want) == 0)
			break;	// the offset would wrap: not the next entry
		const std::optional<std::uint64_t> v = read_pte(s, i + nr);
		if (!v || *v != want)
			break;
		nr++;
	}
	return nr;
}

// The non-present value v with swap type `type`, its offset and flags kept.
std::uint64_t with_swp_type(std::uint64_t v, unsigned type)
{
	const std::uint64_t field = SWP_TYPE_MASK << SWP_TYPE_SHIFT;
	return (v & ~field) | (std::uint64_t{type} << SWP_TYPE_SHIFT);
}

} // namespace

std::size_t folio_pte_batch(call_sink& s, const memory& mem, std::size_t i, std::size_t last, std::uint64_t pte,
			    bool writable_only, std::size_t limit)
{
	const geometry& geo = mem.geo;
	const std::size_t end = i + std::min(last - i, folio_pages_from(mem, pte));
	const std::size_t cap = limit ? std::min(limit, end - i) : end - i;
	// pte_batch_hint: the arch vouches for the entries it names (a CONT
	// entry for the rest of its run), so the walk need not read them.
	// (A hint of 0, which a checked sink reports, counts as 1: the kernel
	// would spin here, the model goes on.)
	auto hint = [&](std::size_t j, std::uint64_t v) { return std::max<std::size_t>(s.pte_batch_hint(geo, j, v), 1); };
	std::size_t nr = std::min(hint(i, pte), cap);
	while (nr < cap) {
		const std::optional<std::uint64_t> v = read_pte(s, i + nr);
		if (!v)
			break;
		if (!pte_present(*v) || !pte_same_mapping(*v, pte_advance_pfn(pte, nr, geo)) ||
		    (writable_only && !pte_write(*v)))
			break;
		nr = std::min(nr + hint(i + nr, *v), cap);
	}
	return nr;
}

void zap_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last, const zap_options& o,
		   const caller& via)
{
	const call_kind batch = o.anon ? call_kind::clear_full_ptes : call_kind::get_and_clear_full_ptes;
	const bool batched = o.batched && s.implements(batch);
	for (std::size_t i = first; i < last;) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (pte_none(*v)) {
			i++;
			continue;
		}
		if (!pte_present(*v)) {
			// zap_nonpresent_ptes: the swap entries that follow each
			// other go in one clear_non_present_ptes; any other
			// non-present entry (migration, device, hwpoison, marker)
			// goes alone.
			const std::size_t nr = swp_type_of(*v) < MAX_SWAPFILES ? swap_pte_batch(s, i, last, *v) : 1;
			s.run({call_kind::clear_non_present_ptes, i, nr, false, 0, 0});
			i += nr;
			continue;
		}
		// A call that did not finish (a strategy that gave up) does not
		// stop the walk: the next ptep_get says what is left.
		if (!batched) {
			s.run({call_kind::ptep_get_and_clear_full, i, 1, o.full, 0, 0});
			i++;
			continue;
		}
		const std::size_t nr = via.folio_pte_batch(s, mem, i, last, *v, false, o.batch_limit);
		s.run({batch, i, nr, o.full, 0, 0});
		i += nr;
	}
	// tlb_finish_mmu: the gathered flush, before any page can be reused.
	s.flush_range(first, last - first);
}

void copy_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::size_t batch_limit,
		    const caller& via)
{
	for (std::size_t i = first; i < last;) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (!pte_present(*v)) {
			// copy_nonpresent_pte: a writable migration entry of a COW
			// mapping becomes a readable one in the parent too.
			if (!pte_none(*v) && swp_type_of(*v) == SWP_MIGRATION_WRITE &&
			    !s.run({call_kind::set_ptes, i, 1, false, with_swp_type(*v, SWP_MIGRATION_READ), 0}))
				return;
			i++;
			continue;
		}
		if (!pte_write(*v)) {
			i++;
			continue;
		}
		const std::size_t nr = via.folio_pte_batch(s, mem, i, last, *v, true, batch_limit);
		s.run({call_kind::wrprotect_ptes, i, nr, false, 0, 0});
		i += nr;
	}
}

namespace {

// The madvise walks that clear flags a whole folio at a time: each batch of
// present entries (folio_pte_batch) that maps its folio whole gets one
// clear_young_dirty_ptes with `flags`.  A large folio the range does not map
// whole (the range ends inside it, or part of it was unmapped before) is
// split first, and its entries left alone when the split fails.  The model
// takes that path: a folio is never split here.  So every call covers a
// whole folio.  Returns whether a call was made.
bool clear_whole_folios(call_sink& s, const memory& mem, std::size_t first, std::size_t last, unsigned flags,
			std::size_t batch_limit, const caller& via)
{
	bool cleared = false;
	for (std::size_t i = first; i < last;) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			break;
		if (!pte_present(*v)) {
			i++;
			continue;
		}
		const std::size_t nr = via.folio_pte_batch(s, mem, i, last, *v, false, batch_limit);
		if (nr < folio_nr_pages(mem, *v)) {
			i += nr;
			continue;
		}
		if (!s.run({call_kind::clear_young_dirty_ptes, i, nr, false, 0, flags}))
			break;
		cleared = true;
		i += nr;
	}
	return cleared;
}

} // namespace

void madvise_free_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			    std::size_t batch_limit, const caller& via)
{
	clear_whole_folios(s, mem, first, last, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY, batch_limit, via);
}

void madvise_cold_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			    std::size_t batch_limit, const caller& via)
{
	if (clear_whole_folios(s, mem, first, last, CYDP_CLEAR_YOUNG, batch_limit, via))
		s.flush_range(first, last - first);
}

void folio_referenced_one(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			  const reclaim_options& o, const caller& via)
{
	const call_kind batch = o.flush ? call_kind::clear_flush_young_ptes : call_kind::test_and_clear_young_ptes;
	const call_kind one = o.flush ? call_kind::ptep_clear_flush_young : call_kind::ptep_test_and_clear_young;
	const bool batched = o.batched && s.implements(batch);
	std::optional<long> folio;	// the folio the walk is about, from its first present entry
	for (std::size_t i = first; i < last;) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (!pte_present(*v)) {
			i++;
			continue;
		}
		// A pfn no declared folio holds is a folio of its own page.
		const std::uint64_t pfn = pte_pfn(*v, mem.geo);
		const long declared = folio_of(mem.folios, pfn);
		const long f = declared >= 0 ? declared : -2 - static_cast<long>(pfn);
		if (!folio)
			folio = f;
		if (f != *folio) {
			i++;
			continue;
		}
		// A young answer (the folio is referenced) does not stop the walk:
		// every mapping of the folio is aged.
		const std::size_t nr = batched ? via.folio_pte_batch(s, mem, i, last, *v, false, o.batch_limit) : 1;
		s.run({batched ? batch : one, i, nr, false, 0, 0});
		i += nr;
	}
}

namespace {

void change_ptes(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::uint64_t newprot,
		 std::size_t batch_limit, const caller& via, bool prot_numa)
{
	bool changed = false;
	for (std::size_t i = first; i < last;) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			break;
		if (!pte_present(*v)) {
			// A writable migration entry is made readable (exclusive:
			// the model's memory is anonymous) whatever the new
			// protection, and written back with set_pte_at.
			if (!pte_none(*v) && swp_type_of(*v) == SWP_MIGRATION_WRITE &&
			    !s.run({call_kind::set_ptes, i, 1, false, with_swp_type(*v, SWP_MIGRATION_READ_EXCLUSIVE), 0}))
				break;
			i++;
			continue;
		}
		if (prot_numa && pte_present_invalid(*v)) {
			i++;
			continue;
		}
		const std::size_t nr = via.folio_pte_batch(s, mem, i, last, *v, false, batch_limit);
		const std::optional<call_result> old = s.run({call_kind::modify_prot_start_ptes, i, nr, false, 0, 0});
		if (!old || !old->pte)
			break;
		// The new entries keep what start gathered: the batch's young and
		// dirty, now in every entry of it.
		const std::uint64_t pte = pte_modify(*old->pte, newprot);
		changed = true;
		if (!s.run({call_kind::modify_prot_commit_ptes, i, nr, false, pte, 0}))
			break;
		i += nr;
	}
	// tlb_finish_mmu: arm64 keeps the generic pte_needs_flush, so every
	// changed entry is flushed, after the table lock is dropped.
	if (changed)
		s.flush_range(first, last - first);
}

} // namespace

void change_pte_range(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::uint64_t newprot,
		      std::size_t batch_limit, const caller& via)
{
	change_ptes(s, mem, first, last, newprot, batch_limit, via, false);
}

void change_prot_numa(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::size_t batch_limit,
		      const caller& via)
{
	change_ptes(s, mem, first, last, PAGE_NONE, batch_limit, via, true);
}

void do_numa_page(call_sink& s, const memory& mem, std::size_t page, std::size_t first, std::size_t last,
		  std::uint64_t prot)
{
	const std::optional<std::uint64_t> fault = read_pte(s, page);
	if (!fault || !pte_present_invalid(*fault))
		return;
	const folio_extent folio = folio_holding(mem, *fault);
	for (std::size_t i = first; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (!pte_present_invalid(*v) || folio_holding(mem, *v).first_pfn != folio.first_pfn)
			continue;
		const std::optional<call_result> old = s.run({call_kind::modify_prot_start_ptes, i, 1, false, 0, 0});
		if (!old || !old->pte)
			return;
		if (!s.run({call_kind::modify_prot_commit_ptes, i, 1, false, pte_mkyoung(pte_modify(*old->pte, prot)), 0}))
			return;
	}
}

std::uint64_t guard_marker() { return mk_swp_entry(SWP_PTE_MARKER, PTE_MARKER_GUARD); }

void guard_install(call_sink& s, const memory& mem, std::size_t first, std::size_t last)
{
	auto install = [&](std::size_t i) { return s.run({call_kind::set_ptes, i, 1, false, guard_marker(), 0}); };
	// The walk installs a marker in each none entry until it meets a
	// populated one (anything but none or a guard marker).
	std::size_t i = first;
	for (; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (pte_none(*v)) {
			if (!install(i))
				return;
		} else if (*v != guard_marker()) {
			break;
		}
	}
	if (i == last)
		return;
	// Then the range is zapped, guard markers left in place (here: the
	// zap runs over each stretch without one, from the populated entry
	// on; everything before it is a marker now), and walked again.
	std::vector<bool> guarded;
	for (std::size_t k = i; k < last; k++) {
		const std::optional<std::uint64_t> v = read_pte(s, k);
		if (!v)
			return;
		guarded.push_back(*v == guard_marker());
	}
	for (std::size_t k = i; k < last;) {
		if (guarded[k - i]) {
			k++;
			continue;
		}
		std::size_t end = k + 1;
		while (end < last && !guarded[end - i])
			end++;
		zap_pte_range(s, mem, k, end, zap_options{});
		k = end;
	}
	for (std::size_t k = i; k < last; k++) {
		const std::optional<std::uint64_t> v = read_pte(s, k);
		if (!v)
			return;
		if (pte_none(*v) && !install(k))
			return;
	}
}

void guard_remove(call_sink& s, std::size_t first, std::size_t last)
{
	for (std::size_t i = first; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (*v == guard_marker() && !s.run({call_kind::clear_non_present_ptes, i, 1, false, 0, 0}))
			return;
	}
}

void move_ptes(call_sink& s, std::size_t first, std::size_t last)
{
	bool moved_present = false;
	for (std::size_t i = first; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (pte_none(*v))
			continue;
		moved_present = moved_present || pte_present(*v);
		// The value taken out is what set_pte_at writes at the new address.
		if (!s.run({call_kind::ptep_get_and_clear, i, 1, false, 0, 0}))
			return;
	}
	if (moved_present)
		s.flush_range(first, last - first);
}

namespace {

// Where a migration entry keeps young: the offset bit above the pfn's.
unsigned migration_young_bit(const geometry& geo, unsigned phys_bits) { return phys_bits - geo.page_shift; }

} // namespace

std::uint64_t make_migration_entry(const geometry& geo, unsigned phys_bits, const migration_entry& e)
{
	const unsigned young = migration_young_bit(geo, phys_bits);
	std::uint64_t offset = e.pfn & ((std::uint64_t{1} << young) - 1);
	if (e.young)
		offset |= std::uint64_t{1} << young;
	if (e.dirty)
		offset |= std::uint64_t{1} << (young + 1);
	const unsigned type = e.write ? SWP_MIGRATION_WRITE
				      : e.exclusive ? SWP_MIGRATION_READ_EXCLUSIVE : SWP_MIGRATION_READ;
	return mk_swp_entry(type, offset);
}

std::optional<migration_entry> read_migration_entry(const geometry& geo, unsigned phys_bits, std::uint64_t v)
{
	const unsigned type = swp_type_of(v);
	if (pte_none(v) || pte_present(v) || type < SWP_MIGRATION_READ || type > SWP_MIGRATION_WRITE)
		return std::nullopt;
	const unsigned young = migration_young_bit(geo, phys_bits);
	const std::uint64_t offset = swp_offset_of(v);
	migration_entry e;
	e.pfn = offset & ((std::uint64_t{1} << young) - 1);
	e.young = (offset >> young) & 1;
	e.dirty = (offset >> (young + 1)) & 1;
	e.write = type == SWP_MIGRATION_WRITE;
	e.exclusive = type != SWP_MIGRATION_READ;
	return e;
}

migration_entry migration_entry_of(const geometry& geo, std::uint64_t pte, bool exclusive)
{
	migration_entry e;
	e.pfn = pte_pfn(pte, geo);
	e.write = pte_write(pte);
	e.exclusive = exclusive;
	e.young = pte_young(pte);
	e.dirty = pte_dirty(pte);
	return e;
}

std::uint64_t pte_of_migration_entry(const geometry& geo, const migration_entry& e, std::uint64_t prot)
{
	std::uint64_t pte = pfn_pte(e.pfn, prot, geo);
	pte = e.young ? pte_mkyoung(pte) : pte_mkold(pte);
	if (e.dirty)
		pte = pte_mkdirty(pte);
	if (e.write)
		pte = pte_mkwrite(pte);
	return pte;
}

void try_to_migrate(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
		    const folio_extent& folio, unsigned phys_bits, bool exclusive)
{
	bool cleared = false;
	for (std::size_t i = first; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			break;
		if (!pte_present(*v) || folio_holding(mem, *v).first_pfn != folio.first_pfn)
			continue;
		const std::optional<call_result> old = s.run({call_kind::ptep_get_and_clear, i, 1, false, 0, 0});
		if (!old || !old->pte)
			break;
		cleared = true;
		const migration_entry e = migration_entry_of(mem.geo, *old->pte, exclusive);
		if (!s.run({call_kind::set_ptes, i, 1, false, make_migration_entry(mem.geo, phys_bits, e), 0}))
			break;
	}
	// try_to_unmap_flush: the deferred invalidations, completed at once.
	if (cleared)
		s.flush_range(first, last - first);
}

void remove_migration_ptes(call_sink& s, const memory& mem, std::size_t first, std::size_t last,
			   const folio_extent& folio, unsigned phys_bits, std::uint64_t prot)
{
	for (std::size_t i = first; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		const std::optional<migration_entry> e = read_migration_entry(mem.geo, phys_bits, *v);
		if (!e || e->pfn < folio.first_pfn || e->pfn >= folio.first_pfn + folio.nr_pages)
			continue;
		if (!s.run({call_kind::set_ptes, i, 1, false, pte_of_migration_entry(mem.geo, *e, prot), 0}))
			return;
	}
}

void access_fault(call_sink& s, std::size_t page, bool write, bool reuse)
{
	const std::optional<std::uint64_t> v = read_pte(s, page);
	if (!v || !pte_valid(*v))
		return;
	std::uint64_t entry = pte_mkyoung(*v);
	// The one call that raises write permission: do_wp_page reusing an
	// exclusive page in place (an anon page after fork).
	const bool upgrade = write && reuse && !pte_write(entry);
	const bool dirty = write && (pte_write(entry) || upgrade);
	if (dirty)
		entry = upgrade ? pte_mkwrite(pte_mkdirty(entry)) : pte_mkdirty(entry);
	s.run({call_kind::ptep_set_access_flags, page, 1, false, entry, dirty ? 1u : 0u});
}

void fault_map(call_sink& s, std::size_t first, std::size_t nr, std::uint64_t pte)
{
	s.run({call_kind::set_ptes, first, nr, false, pte, 0});
}

void fault_around(call_sink& s, const memory& mem, std::size_t first, std::size_t last, std::uint64_t pte)
{
	const geometry& geo = mem.geo;
	auto pte_at = [&](std::size_t i) { return pte_advance_pfn(pte, i - first, geo); };
	auto folio_at = [&](std::size_t i) { return folio_of(mem.folios, pte_pfn(pte_at(i), geo)); };
	std::size_t start = first, nr = 0;	// the stretch of none entries gathered so far
	auto map_stretch = [&] {
		if (nr)
			s.run({call_kind::set_ptes, start, nr, false, pte_at(start), 0});
		nr = 0;
	};
	for (std::size_t i = first; i < last; i++) {
		const std::optional<std::uint64_t> v = read_pte(s, i);
		if (!v)
			return;
		if (nr && (!pte_none(*v) || folio_at(i) != folio_at(start)))
			map_stretch();
		if (!pte_none(*v))
			continue;
		if (nr++ == 0)
			start = i;
	}
	map_stretch();
}

void fault_pages(call_sink& s, const geometry& geo, std::size_t first, std::size_t nr, std::uint64_t pte)
{
	for (std::size_t k = 0; k < nr; k++)
		s.run({call_kind::set_ptes, first + k, 1, false, pte_advance_pfn(pte, k, geo), 0});
}

void swap_out(call_sink& s, std::size_t page, std::uint64_t swp)
{
	s.run({call_kind::set_ptes, page, 1, false, swp, 0});
}

std::optional<call_result> gup_fast(call_sink& s, std::size_t page)
{
	return s.run({call_kind::ptep_get_lockless, page, 1, false, 0, 0});
}

namespace {

// A sink that runs no strategy: it answers from the table as the spec
// keeps it, and writes the calls down.
class spec_sink final : public call_sink {
public:
	spec_sink(const table_t& t, const std::function<bool(call_kind)>& implements) : t_(t), implements_(implements) {}
	bool implements(call_kind k) const override { return implements_(k); }
	std::optional<call_result> run(const call& c) override
	{
		if (!implements_(c.kind))
			return std::nullopt;
		calls.push_back(c);
		call_result r;
		const call_semantics sem = semantics_of(c);
		if (sem.reports)
			r.pte = t_[c.index];
		if (sem.unmaps)
			for (std::size_t k = c.index; k < range_end(c); k++)
				t_[k] = 0;
		return r;
	}
	void flush_range(std::size_t, std::size_t) override {}
	std::vector<call> calls;

private:
	table_t t_;
	const std::function<bool(call_kind)>& implements_;
};

} // namespace

std::vector<call> planned_zap(const memory& mem, const table_t& table, std::size_t first, std::size_t last,
			      const zap_options& o, const std::function<bool(call_kind)>& implements)
{
	spec_sink s(table, implements);
	zap_pte_range(s, mem, first, last, o);
	return std::move(s.calls);
}

} // namespace ptespec::mm
