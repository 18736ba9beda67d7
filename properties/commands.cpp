#include "properties/commands.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "model/pte.h"
#include "properties/generators.h"

namespace ptespec {

namespace {

thread_local failure_slot* g_slot = nullptr;
thread_local std::vector<command_ptr> g_executed;

std::string show_plan(const std::vector<hw_plan_event>& hw)
{
	std::string s;
	for (const auto& e : hw)
		s += fmt::format("{}hw {} page #{} into #{} (call {}, before its primitive {} on #{})",
				 s.empty() ? "" : "; ", to_string(e.kind), e.page, e.entry, e.call, e.nth, e.entry);
	return s;
}

bool aligned_edge(const world_layout& w, std::size_t x)
{
	const std::size_t c = w.geo.cont_ptes, r = x % c;
	return r == 0 || r == 1 || r == c - 1;
}

void tag_range(const world_layout& w, std::size_t first, std::size_t last)
{
	const std::size_t c = w.geo.cont_ptes;
	RC_CLASSIFY(aligned_edge(w, first) || aligned_edge(w, last), "range edge at align-1/align/align+1");
	RC_CLASSIFY(first % c != 0 || last % c != 0, "range straddles a run");
}

// --- the callers as commands ---

// A page fault over [first, first + nr) of one folio with one prot: what
// the two fault paths share.
struct fault_command : command {
	std::size_t first = 0, nr = 1;
	std::uint64_t prot = 0;

	void checkPreconditions(const world_model& m) const override
	{
		// set_ptes only over entries that are not present: a rule of the
		// arch API every strategy may rely on, kept even by adversarial
		// callers.
		for (std::size_t p = first; p < first + nr; p++)
			RC_PRE(m.pages[p] != page_state::present);
		// A fault on a guard page is a SIGSEGV, never a mapping.
		for (std::size_t p = first; p < first + nr; p++)
			RC_PRE(!m.guard[p]);
		// A fault on a migration entry waits for the migration to end.
		for (std::size_t p = first; p < first + nr; p++)
			RC_PRE(m.pages[p] != page_state::migration);
	}
	void apply(world_model& m) const override
	{
		m.set(first, first + nr, page_state::present);
		for (std::size_t p = first; p < first + nr; p++)
			m.writable[p] = m.vma_writable[p] = pte_write(prot);
	}

protected:
	// Part of folio f: from a page in it to a page in it.
	void pick_part(const world_layout& w, std::size_t f)
	{
		const std::size_t ff = w.folio_first_page(f), fn = w.folios[f].nr_pages;
		first = ff + *gen::uniform<std::size_t>(0, fn);
		nr = *gen::uniform<std::size_t>(1, ff + fn - first + 1);
	}
};

struct map_folio final : fault_command {
	explicit map_folio(const world_model& m)
	{
		const world_layout& w = *m.layout;
		const std::size_t f = *gen::folio(w);
		// Whole folio mostly; part of it when a VMA boundary cuts it.
		const bool whole = *rc::gen::weightedOneOf<bool>({{3, rc::gen::just(true)}, {1, rc::gen::just(false)}});
		first = w.folio_first_page(f);
		nr = w.folios[f].nr_pages;
		if (!whole)
			pick_part(w, f);
		prot = *gen::user_prot(m.vary_attributes);
		hw = *gen::hw_plan(w, 1, first, first + nr);
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, first + nr);
		h.fault_map(first, nr, prot);
	}
	std::string what() const override { return fmt::format("fault: map #{}..#{} prot {:#018x}", first, first + nr - 1, prot); }
};

struct fault_pages final : fault_command {
	explicit fault_pages(const world_model& m)
	{
		const world_layout& w = *m.layout;
		const std::size_t f = *gen::folio(w);
		pick_part(w, f);
		// Now and then the faults fill the first hole of a partly mapped run,
		// as a process touching the rest of a large folio does: that is
		// what makes set_ptes fold a run mapped by several faults (with
		// whatever attributes each fault had).  Only a run that already
		// maps something, so an empty run keeps shrinking to one fault.
		// (false first: a counterexample shrinks towards the plain part.)
		if (*rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
			const std::size_t c = w.geo.cont_ptes, run = w.geo.run_start(first);
			const std::size_t end = std::min(run + c, w.folio_first_page(f) + w.folios[f].nr_pages);
			bool partly = false;
			for (std::size_t p = run; p < end; p++)
				partly = partly || m.pages[p] == page_state::present;
			std::size_t hole = run;
			while (hole < end && m.pages[hole] != page_state::none)
				hole++;
			if (partly && hole < end) {
				std::size_t stop = hole;
				while (stop < end && m.pages[stop] == page_state::none)
					stop++;
				first = hole;
				nr = stop - hole;
			}
		}
		prot = *gen::user_prot(m.vary_attributes);
		hw = *gen::hw_plan(w, nr, first, first + nr);
	}
	void act(const world_model&, harness& h) const override { h.fault_pages(first, nr, prot); }
	std::string what() const override
	{
		return fmt::format("fault page by page: #{}..#{} prot {:#018x}", first, first + nr - 1, prot);
	}
};

// A read fault's fault-around over one run (the window fault_around_bytes
// sets, here a run): every entry of it that is none gets mapped, a folio's
// stretch at a time, with the one prot of the VMA.  Mostly a run that several folios cover: this is how such a run
// comes to be mapped whole with one set of attributes, which a fold that
// forgets to ask for one folio would take as foldable.
struct fault_around_cmd final : command {
	std::size_t first = 0, last = 0;
	std::uint64_t prot = 0;

	explicit fault_around_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		const std::size_t c = w.geo.cont_ptes, runs = w.nr_entries / c;
		std::vector<std::size_t> mixed;	// runs whose first and last pages lie in different folios
		for (std::size_t r = 0; r < runs; r++)
			if (w.folio_of_page(r * c) != w.folio_of_page(r * c + c - 1))
				mixed.push_back(r);
		const std::size_t run = mixed.empty() ? *gen::uniform<std::size_t>(0, runs)
						      : *rc::gen::weightedOneOf<std::size_t>(
								{{1, gen::uniform<std::size_t>(0, runs)},
								 {2, rc::gen::elementOf(mixed)}});
		// The window ends at the run's end, where a fold is tried; it
		// starts at the run's start two times in three, else where a VMA
		// begins inside the run (so a case shrinks towards one page).
		const std::size_t len = std::min(c, 1 + *gen::uniform<std::size_t>(0, 3 * c));
		last = (run + 1) * c;
		first = last - len;
		prot = *gen::user_prot(m.vary_attributes);
		hw = *gen::hw_plan(w, c + w.folios.size(), first, last);
	}
	void apply(world_model& m) const override
	{
		for (std::size_t p = first; p < last; p++)
			if (m.pages[p] == page_state::none) {
				m.pages[p] = page_state::present;
				m.writable[p] = m.vma_writable[p] = pte_write(prot);
			}
	}
	void act(const world_model&, harness& h) const override { h.fault_around(first, last, prot); }
	std::string what() const override
	{
		return fmt::format("read fault with fault-around: map what is none in #{}..#{} prot {:#018x}", first,
				   last - 1, prot);
	}
};

struct zap_range final : command {
	std::size_t first = 0, last = 0;
	bool full = false, batched = true, anon = false;
	bool full_in_munmap = false;	// adversarial: munmap passes full=1

	zap_range(const world_model& m, bool exit)
	{
		const world_layout& w = *m.layout;
		full = exit;
		if (exit) {
			// exit tears down every VMA, each in full.  The VMAs span
			// what was mapped; `last` splits them in two (a split may
			// cut a run).  The span is taken from the model when the
			// command runs.
			first = 0;
			last = *gen::edge_page(w);
		} else {
			std::tie(first, last) = *gen::edge_range(w);
			full_in_munmap = m.adversarial && *rc::gen::arbitrary<bool>();
		}
		pick_cut(m);
		batched = *rc::gen::weightedOneOf<bool>({{2, rc::gen::just(true)}, {1, rc::gen::just(false)}});
		anon = *rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}});
		hw = *gen::hw_plan(w, 2 * (last - first) + 2, first, last);
	}
	// The pages exit's VMAs cover: from the first to the last page that is
	// not none.
	static std::pair<std::size_t, std::size_t> span(const world_model& m)
	{
		std::size_t lo = m.pages.size(), hi = 0;
		for (std::size_t p = 0; p < m.pages.size(); p++)
			if (m.pages[p] != page_state::none) {
				lo = std::min(lo, p);
				hi = p + 1;
			}
		return {lo, hi};
	}
	void apply(world_model& m) const override
	{
		if (full)
			m.set(0, m.pages.size(), page_state::none);
		else
			m.set(first, last, page_state::none);
	}
	void act(const world_model& m, harness& h) const override
	{
		if (!full) {
			tag_range(h.layout(), first, last);
			h.zap(first, last, full_in_munmap, batched, anon);
			return;
		}
		const auto [lo, hi] = span(m);
		if (lo >= hi)
			return;
		RC_CLASSIFY(!batched, "exit clears entry by entry");
		const std::size_t split = std::clamp(last, lo, hi);
		RC_CLASSIFY(split % h.layout().geo.cont_ptes != 0 && split > lo && split < hi, "exit with a VMA split inside a run");
		if (lo < split)
			h.zap(lo, split, true, batched, anon);
		if (split < hi)
			h.zap(split, hi, true, batched, anon);
	}
	std::string what() const override
	{
		if (full)
			return fmt::format("exit: zap every VMA full=1, split at #{} ({}{}{})", last,
					   batched ? "batched" : "per entry", anon ? ", anon: clear_full_ptes" : "",
					   cut ? fmt::format(", batches cut at {}", cut) : "");
		return fmt::format("munmap/DONTNEED: zap #{}..#{} full={} ({}{}{})", first, last - 1, full_in_munmap ? 1 : 0,
				   batched ? "batched" : "per entry", anon ? ", anon: clear_full_ptes" : "",
				   cut ? fmt::format(", batches cut at {}", cut) : "");
	}
};

struct fork_cmd final : command {
	std::size_t first = 0, last = 0;
	explicit fork_cmd(const world_model& m)
	{
		std::tie(first, last) = *gen::edge_range(*m.layout);
		hw = *gen::hw_plan(*m.layout, 2 * (last - first) + 1, first, last);
		pick_cut(m);
	}
	void apply(world_model& m) const override
	{
		for (std::size_t p = first; p < last; p++)
			m.writable[p] = false;
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		h.fork_wrprotect(first, last);
	}
	std::string what() const override
	{
		return fmt::format("fork: wrprotect #{}..#{}{}", first, last - 1,
				   cut ? fmt::format(" (batches cut at {})", cut) : "");
	}
};

// MADV_FREE (young and dirty cleared) or MADV_COLD (young alone) over a
// range, a whole folio at a time.
struct madvise_cmd final : command {
	std::size_t first = 0, last = 0;
	bool cold = false;
	madvise_cmd(const world_model& m, bool cold_) : cold(cold_)
	{
		std::tie(first, last) = *gen::edge_range(*m.layout);
		hw = *gen::hw_plan(*m.layout, 2 * (last - first) + 1, first, last);
		pick_cut(m);
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		if (cold)
			h.madv_cold(first, last);
		else
			h.madv_free(first, last);
	}
	std::string what() const override
	{
		return fmt::format("{} #{}..#{}{}", cold ? "MADV_COLD" : "MADV_FREE", first, last - 1,
				   cut ? fmt::format(" (batches cut at {})", cut) : "");
	}
};

// Reclaim ages a folio (folio_referenced_one) over the part of it one VMA
// maps: from a page near a run edge to the folio's end or the VMA's, so
// its batches often start and end inside runs.
struct reclaim_cmd final : command {
	std::size_t first = 0, last = 0;
	bool flush = false, batched = true;
	explicit reclaim_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		std::tie(first, last) = *gen::edge_range(w);
		const std::size_t f = w.folio_of_page(first);
		last = std::min(last, w.folio_first_page(f) + w.folios[f].nr_pages);
		flush = *rc::gen::arbitrary<bool>();
		batched = m.batch_young;
		hw = *gen::hw_plan(w, 2 * (last - first) + 1, first, last);
		pick_cut(m);
	}
	void checkPreconditions(const world_model& m) const override
	{
		// Reclaim reaches a folio through the rmap, so only where it is
		// mapped (kept by adversarial callers too).
		RC_PRE(m.pages[first] == page_state::present);
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		// Its first batch starts at `first`, a present entry.
		RC_CLASSIFY(batched && first % h.layout().geo.cont_ptes != 0, "reclaim batch starts inside a run");
		h.reclaim(first, last, flush, batched);
	}
	std::string what() const override
	{
		const char* call = batched ? (flush ? "clear_flush_young_ptes" : "test_and_clear_young_ptes")
					   : (flush ? "ptep_clear_flush_young" : "ptep_test_and_clear_young");
		return fmt::format("reclaim: {} {} #{}..#{}{}", call, batched ? "per folio batch over" : "entry by entry over",
				   first, last - 1, cut ? fmt::format(" (batches cut at {})", cut) : "");
	}
};

// mprotect over a range (change_pte_range): to read-only, read-write or
// PROT_NONE, one transaction per folio batch of present entries.  The
// range's edges often fall inside runs, so batches start and end there;
// PROT_NONE and back is how entries that are present but not valid arise.
struct mprotect_cmd final : command {
	enum class to { read, read_write, none };
	std::size_t first = 0, last = 0;
	to prot = to::read;
	explicit mprotect_cmd(const world_model& m)
	{
		std::tie(first, last) = *gen::edge_range(*m.layout);
		prot = static_cast<to>(*gen::uniform<int>(0, 3));
		hw = *gen::hw_plan(*m.layout, 3 * (last - first) + 1, first, last);
		pick_cut(m);
	}
	std::uint64_t newprot() const
	{
		switch (prot) {
		case to::read: return PAGE_READONLY;
		case to::read_write: return PAGE_READONLY | PTE_WRITE;
		case to::none: return PAGE_NONE;
		}
		return 0;
	}
	void apply(world_model& m) const override
	{
		for (std::size_t p = first; p < last; p++) {
			m.writable[p] = m.vma_writable[p] = prot == to::read_write;
			m.vma_none[p] = prot == to::none;
			m.numa_hinted[p] = 0;
		}
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		RC_CLASSIFY(prot == to::none, "mprotect PROT_NONE");
		h.mprotect(first, last, newprot());
	}
	std::string what() const override
	{
		static const char* names[] = {"PROT_READ", "PROT_READ|PROT_WRITE", "PROT_NONE"};
		return fmt::format("mprotect #{}..#{} {}{}", first, last - 1, names[static_cast<int>(prot)],
				   cut ? fmt::format(" (batches cut at {})", cut) : "");
	}
};

struct access_fault_cmd final : command {
	std::size_t page = 0;
	bool write = false;
	explicit access_fault_cmd(const world_model& m)
	{
		page = *gen::edge_page(*m.layout);
		write = *rc::gen::arbitrary<bool>();
		hw = *gen::hw_plan(*m.layout, 2, page, page + 1);
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(m.pages[page] == page_state::present);
		// An access to a page NUMA balancing made PROT_NONE is a hinting
		// fault (numa_fault_cmd).
		RC_PRE(!m.numa_hinted[page]);
	}
	// A write fault in a writable VMA leaves the page writable (reused in
	// place if it was not).
	void apply(world_model& m) const override
	{
		if (write && m.vma_writable[page])
			m.writable[page] = 1;
	}
	void act(const world_model& m, harness& h) const override
	{
		h.access_fault(page, write, m.vma_writable[page] != 0);
	}
	std::string what() const override
	{
		return fmt::format("{} fault on #{}: ptep_set_access_flags", write ? "write" : "read", page);
	}
};

struct swap_out_cmd final : command {
	std::size_t page = 0;
	std::uint64_t value = 0;
	explicit swap_out_cmd(const world_model& m)
	{
		page = *gen::edge_page(*m.layout);
		value = *gen::nonpresent_value(m.alias_nonpresent);
		hw = *gen::hw_plan(*m.layout, 1, page, page + 1);
	}
	void checkPreconditions(const world_model& m) const override
	{
		// Non-present values go only into cleared entries (kept by
		// adversarial callers too).
		RC_PRE(m.pages[page] == page_state::none);
	}
	void apply(world_model& m) const override { m.pages[page] = page_state::swap; }
	void act(const world_model&, harness& h) const override
	{
		RC_CLASSIFY(pte_young(value), "non-present value aliases AF");
		RC_CLASSIFY(pte_cont(value), "non-present value aliases CONT");
		h.swap_out(page, value);
	}
	std::string what() const override { return fmt::format("swap-out: #{} <- {:#018x}", page, value); }
};

// NUMA balancing's scan (task_numa_work -> change_prot_numa): mostly
// every page the process maps, as the scan covers whole VMAs, else a range
// of them.  The entries become PROT_NONE, a folio batch at a time, through
// modify_prot_start_ptes / modify_prot_commit_ptes -- where a batch covers
// an aligned run of one folio, committed with CONT.  A VMA mprotect made
// PROT_NONE is not scanned.
struct numa_scan_cmd final : command {
	std::size_t first = 0, last = 0;
	explicit numa_scan_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		if (*rc::gen::weightedOneOf<bool>({{2, rc::gen::just(true)}, {1, rc::gen::just(false)}}))
			std::tie(first, last) = std::make_pair(std::size_t{0}, w.nr_entries);
		else
			std::tie(first, last) = *gen::edge_range(w);
		hw = *gen::hw_plan(w, 3 * (last - first) + 1, first, last);
		pick_cut(m);
	}
	void checkPreconditions(const world_model& m) const override
	{
		for (std::size_t p = first; p < last; p++)
			RC_PRE(!m.vma_none[p]);
	}
	void apply(world_model& m) const override
	{
		for (std::size_t p = first; p < last; p++)
			if (m.pages[p] == page_state::present) {
				m.numa_hinted[p] = 1;
				m.writable[p] = 0;
			}
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		h.numa_scan(first, last);
	}
	std::string what() const override
	{
		return fmt::format("NUMA scan: change_prot_numa #{}..#{}{}", first, last - 1,
				   cut ? fmt::format(" (batches cut at {})", cut) : "");
	}
};

// The hinting fault on a page the scan made PROT_NONE (do_numa_page), the
// folio left where it is: its folio's PROT_NONE entries are given back the
// VMA's protection, read-only and young, one entry at a time.
struct numa_fault_cmd final : command {
	std::size_t page = 0;
	explicit numa_fault_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		page = *gen::edge_page(w);
		const auto [first, last] = w.folio_pages(w.folio_of_page(page));
		hw = *gen::hw_plan(w, 2 * (last - first) + 1, first, last);
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(m.pages[page] == page_state::present && m.numa_hinted[page]);
	}
	void apply(world_model& m) const override
	{
		const auto [first, last] = m.layout->folio_pages(m.layout->folio_of_page(page));
		for (std::size_t p = first; p < last; p++)
			if (m.numa_hinted[p]) {
				m.numa_hinted[p] = 0;
				m.writable[p] = 0;
			}
	}
	void act(const world_model&, harness& h) const override { h.numa_fault(page); }
	std::string what() const override
	{
		return fmt::format("NUMA hinting fault on #{}: do_numa_page restores its folio", page);
	}
};

// MADV_GUARD_INSTALL over a page or a few: the range is zapped if anything
// is mapped or swapped there, then each entry gets a guard marker.
struct guard_install_cmd final : command {
	std::size_t first = 0, last = 0;
	explicit guard_install_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		first = *gen::edge_page(w);
		last = std::min(first + *rc::gen::weightedOneOf<std::size_t>({{3, rc::gen::just(std::size_t{1})},
									      {1, gen::uniform<std::size_t>(2, 5)}}),
				w.nr_entries);
		hw = *gen::hw_plan(w, 3 * (last - first) + 2, first, last);
	}
	void apply(world_model& m) const override
	{
		m.set(first, last, page_state::swap);
		for (std::size_t p = first; p < last; p++)
			m.guard[p] = 1;
	}
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		h.guard_install(first, last);
	}
	std::string what() const override { return fmt::format("MADV_GUARD_INSTALL #{}..#{}", first, last - 1); }
};

// MADV_GUARD_REMOVE: the guard markers of a range are cleared.
struct guard_remove_cmd final : command {
	std::size_t first = 0, last = 0;
	explicit guard_remove_cmd(const world_model& m)
	{
		std::tie(first, last) = *gen::edge_range(*m.layout);
		hw = *gen::hw_plan(*m.layout, last - first + 1, first, last);
	}
	void apply(world_model& m) const override
	{
		for (std::size_t p = first; p < last; p++)
			if (m.guard[p])
				m.set(p, p + 1, page_state::none);
	}
	void act(const world_model&, harness& h) const override { h.guard_remove(first, last); }
	std::string what() const override { return fmt::format("MADV_GUARD_REMOVE #{}..#{}", first, last - 1); }
};

// mremap: a range's entries, whatever they are, moved to an address
// outside the table (move_ptes), which leaves the range none.
struct mremap_cmd final : command {
	std::size_t first = 0, last = 0;
	explicit mremap_cmd(const world_model& m)
	{
		std::tie(first, last) = *gen::edge_range(*m.layout);
		hw = *gen::hw_plan(*m.layout, 2 * (last - first) + 2, first, last);
	}
	void apply(world_model& m) const override { m.set(first, last, page_state::none); }
	void act(const world_model&, harness& h) const override
	{
		tag_range(h.layout(), first, last);
		h.mremap_away(first, last);
	}
	std::string what() const override { return fmt::format("mremap #{}..#{} away", first, last - 1); }
};

// Page migration of one folio (migrate_pages: compaction, NUMA balancing,
// memory hotplug).  When none of the folio's pages holds a migration
// entry, try_to_migrate replaces each present entry of it with one; when
// some do, the migration is undone (remove_migration_ptes with the folio
// kept, as when the copy fails), so the callers in between meet migration
// entries: zapped, copied by fork, made readable by mprotect, beside the
// runs the young clears widen over.
struct migration_cmd final : command {
	std::size_t page = 0;
	bool undo = false, exclusive = true;
	unsigned phys_bits = 48;
	explicit migration_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		page = *gen::edge_page(w);
		const auto [first, last] = w.folio_pages(w.folio_of_page(page));
		for (std::size_t p = first; p < last; p++)
			undo = undo || m.pages[p] == page_state::migration;
		exclusive = *rc::gen::weightedOneOf<bool>({{3, rc::gen::just(true)}, {1, rc::gen::just(false)}});
		phys_bits = m.phys_bits ? m.phys_bits : *rc::gen::weightedOneOf<unsigned>({{1, rc::gen::just(48u)}, {1, rc::gen::just(52u)}});
		hw = *gen::hw_plan(w, 3 * (last - first) + 2, first, last);
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(m.phys_bits == 0 || m.phys_bits == phys_bits);
		const auto [first, last] = m.layout->folio_pages(m.layout->folio_of_page(page));
		bool migrating = false, present = false;
		for (std::size_t p = first; p < last; p++) {
			migrating = migrating || m.pages[p] == page_state::migration;
			present = present || m.pages[p] == page_state::present;
			// PROT_NONE pages would come back with their VMA's
			// protection, which the model does not keep.
			RC_PRE(m.pages[p] != page_state::present || (!m.numa_hinted[p] && !m.vma_none[p]));
		}
		const bool can = undo ? migrating : !migrating && present;
		RC_PRE(can);
	}
	void apply(world_model& m) const override
	{
		m.phys_bits = phys_bits;
		const auto [first, last] = m.layout->folio_pages(m.layout->folio_of_page(page));
		for (std::size_t p = first; p < last; p++)
			if (m.pages[p] == (undo ? page_state::migration : page_state::present))
				m.pages[p] = undo ? page_state::present : page_state::migration;
	}
	void act(const world_model&, harness& h) const override
	{
		if (undo)
			h.remove_migration(page, phys_bits);
		else
			h.migrate(page, phys_bits, exclusive);
	}
	std::string what() const override
	{
		return undo ? fmt::format("migration of the folio of #{} undone: remove_migration_ptes", page)
			    : fmt::format("migration of the folio of #{}: try_to_migrate (MAX_PHYSMEM_BITS {})", page,
					  phys_bits);
	}
};

struct lockless_cmd final : command {
	std::size_t page = 0, other = 0, at_gap = 0;
	int writer = 0;	// 0 none, 1 ptep_get_and_clear(other), 2 wrprotect_ptes(other, 1)
	bool interleave = true;
	explicit lockless_cmd(const world_model& m) : interleave(m.interleave_lockless)
	{
		const world_layout& w = *m.layout;
		page = *gen::edge_page(w);
		const std::size_t run = w.geo.run_start(page);
		other = run + *gen::uniform<std::size_t>(0, w.geo.cont_ptes);
		writer = *gen::uniform<int>(0, 3);
		at_gap = *gen::uniform<std::size_t>(0, w.geo.cont_ptes + 2);
		hw = *gen::hw_plan(w, 2, run, run + w.geo.cont_ptes);
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(writer == 0 || m.pages[other] == page_state::present);
		// Fork write-protects only entries that grant write (never a
		// read-only or PROT_NONE one).
		RC_PRE(writer != 2 || m.writable[other]);
	}
	void apply(world_model& m) const override
	{
		if (writer == 1)
			m.set(other, other + 1, page_state::none);
		if (writer == 2)
			m.writable[other] = false;
	}
	void act(const world_model&, harness& h) const override
	{
		std::optional<call> w;
		if (writer == 1)
			w = call{call_kind::ptep_get_and_clear, other, 1, false, 0, 0};
		if (writer == 2)
			w = call{call_kind::wrprotect_ptes, other, 1, false, 0, 0};
		RC_CLASSIFY(writer != 0, "lockless read races a locked call");
		RC_CLASSIFY(writer != 0 && stride() != 0, "lockless read interleaves with a locked call");
		h.lockless_read(page, w, at_gap, stride());
	}
	// The writer's primitives per gap of the reader once it has started;
	// 0, one time in four: all of them in the reader's gap at_gap.  Taken
	// from at_gap rather than drawn, so the cases drawn before the
	// interleaving existed stay the same.
	std::size_t stride() const { return !interleave || at_gap % 4 == 3 ? 0 : at_gap % 4 + 1; }
	std::string what() const override
	{
		static const char* names[] = {"", ", racing ptep_get_and_clear", ", racing wrprotect_ptes"};
		const std::string how = stride() ? fmt::format("from its gap {}, {} primitive(s) per gap", at_gap, stride())
						 : fmt::format("whole at its gap {}", at_gap);
		return fmt::format("GUP-fast: ptep_get_lockless(#{}){}{}", page, names[writer],
				   writer ? fmt::format("(#{}) {}", other, how) : "");
	}
};

struct idle_cmd final : command {
	explicit idle_cmd(const world_model& m)
	{
		drawn_for(*m.layout);
		hw = *gen::hw_plan(*m.layout, 1, 0, m.layout->nr_entries);
		for (auto& e : hw)
			e.call = 1;	// idle() is the command's first "call"; its events fire at once
	}
	void checkPreconditions(const world_model& m) const override { RC_PRE(fits(m)); }
	void act(const world_model&, harness& h) const override { h.idle(); }
	std::string what() const override { return "hardware between calls"; }
};

// A generator of one action drawn from the model m: the generators of every
// action share one copy of m (a world model is kilobytes; a copy per action
// and draw cost a fifth of a run).
template <class C, class... Args>
rc::Gen<std::shared_ptr<const command_base>> make(const std::shared_ptr<const world_model>& m, Args... args)
{
	return rc::gen::exec([=] { return std::shared_ptr<const command_base>(std::make_shared<C>(*m, args...)); });
}

// --- the hugetlb callers (the hugetlb sweep): each command acts on whole
// hugepages, each a run of the world (world_layout::make_hugetlb) ---

// A hugepage drawn from the world: the first entry of one of its runs.
std::size_t draw_hugepage(const world_layout& w)
{
	return *gen::uniform<std::size_t>(0, runs_per_world) * w.geo.cont_ptes;
}

// A hugetlb command on one hugepage, its hardware planned over it.
struct hugepage_command : command {
	std::size_t first = 0;
	explicit hugepage_command(const world_model& m, std::size_t calls)
	{
		const world_layout& w = *m.layout;
		drawn_for(w);
		first = draw_hugepage(w);
		hw = *gen::hw_plan(w, calls, first, first + w.geo.cont_ptes);
	}
	std::size_t last(const world_model& m) const { return first + m.layout->geo.cont_ptes; }
	page_state state(const world_model& m) const { return m.pages[first]; }
};

// hugetlb_no_page: a none hugepage mapped.
struct hugetlb_fault_cmd final : hugepage_command {
	std::uint64_t prot = 0;
	explicit hugetlb_fault_cmd(const world_model& m) : hugepage_command(m, 2)
	{
		prot = *gen::user_prot(m.vary_attributes);
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(fits(m));
		RC_PRE(state(m) == page_state::none);
	}
	void apply(world_model& m) const override
	{
		m.set(first, last(m), page_state::present);
		for (std::size_t p = first; p < last(m); p++) {
			m.writable[p] = m.vma_writable[p] = pte_write(prot);
			m.vma_none[p] = 0;	// a new mapping, its VMA's protection its own
		}
	}
	void act(const world_model&, harness& h) const override { h.hugetlb_fault(first, prot); }
	std::string what() const override { return fmt::format("hugetlb fault: map the hugepage at #{} prot {:#018x}", first, prot); }
};

// hugetlb_fault on a mapped hugepage: a read or a write access.
struct hugetlb_access_cmd final : hugepage_command {
	bool write = false;
	explicit hugetlb_access_cmd(const world_model& m) : hugepage_command(m, 3)
	{
		write = *rc::gen::arbitrary<bool>();
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(fits(m));
		RC_PRE(state(m) == page_state::present);
		RC_PRE(!m.vma_none[first]);	// an access to a PROT_NONE hugepage is a SIGSEGV
	}
	void apply(world_model& m) const override
	{
		if (write && m.vma_writable[first])
			for (std::size_t p = first; p < last(m); p++)
				m.writable[p] = 1;
	}
	void act(const world_model& m, harness& h) const override
	{
		h.hugetlb_access(first, write, m.vma_writable[first] != 0);
	}
	std::string what() const override
	{
		return fmt::format("hugetlb {} fault on the hugepage at #{}", write ? "write" : "read", first);
	}
};

// A hugetlb command over `nr` hugepages from `first`.
struct hugepages_command : command {
	std::size_t first = 0, nr = 1;	// hugepages
	// Draws the hugepages: one from the world, and some of those after it.
	void draw_range(const world_layout& w)
	{
		drawn_for(w);
		first = draw_hugepage(w);
		nr = *gen::uniform<std::size_t>(1, runs_per_world - first / w.geo.cont_ptes + 1);
	}
	std::size_t last(const world_model& m) const { return first + nr * m.layout->geo.cont_ptes; }
};

// __unmap_hugepage_range over one or more hugepages (munmap, MADV_DONTNEED, exit).
struct hugetlb_unmap_cmd final : hugepages_command {
	explicit hugetlb_unmap_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		draw_range(w);
		hw = *gen::hw_plan(w, 2 * nr + 1, first, first + nr * w.geo.cont_ptes);
	}
	void checkPreconditions(const world_model& m) const override { RC_PRE(fits(m)); }
	void apply(world_model& m) const override { m.set(first, last(m), page_state::none); }
	void act(const world_model& m, harness& h) const override { h.hugetlb_unmap(first, last(m)); }
	std::string what() const override { return fmt::format("hugetlb unmap: {} hugepage(s) from #{}", nr, first); }
};

// fork of a private hugetlb mapping: the parent's hugepages write-protected.
struct hugetlb_fork_cmd final : command {
	explicit hugetlb_fork_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		drawn_for(w);
		hw = *gen::hw_plan(w, 2 * runs_per_world, 0, w.nr_entries);
	}
	void checkPreconditions(const world_model& m) const override { RC_PRE(fits(m)); }
	void apply(world_model& m) const override
	{
		for (std::size_t p = 0; p < m.layout->nr_entries; p++)
			m.writable[p] = 0;
	}
	void act(const world_model& m, harness& h) const override { h.hugetlb_fork(0, m.layout->nr_entries); }
	std::string what() const override { return "hugetlb fork: copy_hugetlb_page_range write-protects the parent"; }
};

// mprotect of one or more hugepages to read-only, read-write or PROT_NONE
// (present, not valid: arch_make_huge_pte keeps CONT on it).
struct hugetlb_mprotect_cmd final : hugepages_command {
	int prot = 0;	// 0 PROT_READ, 1 PROT_READ|PROT_WRITE, 2 PROT_NONE
	explicit hugetlb_mprotect_cmd(const world_model& m)
	{
		const world_layout& w = *m.layout;
		draw_range(w);
		prot = *gen::uniform<int>(0, 3);
		hw = *gen::hw_plan(w, 3 * nr + 1, first, first + nr * w.geo.cont_ptes);
	}
	void checkPreconditions(const world_model& m) const override
	{
		// A writable migration entry made readable needs the case's
		// MAX_PHYSMEM_BITS, known once a migration drew it.
		RC_PRE(fits(m));
		for (std::size_t p = first; p < last(m); p++)
			RC_PRE(m.pages[p] != page_state::migration || m.phys_bits != 0);
	}
	void apply(world_model& m) const override
	{
		for (std::size_t p = first; p < last(m); p++) {
			m.writable[p] = m.vma_writable[p] = prot == 1;
			m.vma_none[p] = prot == 2;
		}
	}
	std::uint64_t newprot() const
	{
		return prot == 2 ? PAGE_NONE : prot == 1 ? PAGE_READONLY | PTE_WRITE : PAGE_READONLY;
	}
	void act(const world_model& m, harness& h) const override
	{
		h.hugetlb_mprotect(first, last(m), newprot(), m.phys_bits);
	}
	std::string what() const override
	{
		return fmt::format("hugetlb mprotect: {} hugepage(s) from #{} {}", nr, first,
				   prot == 2 ? "PROT_NONE" : prot == 1 ? "PROT_READ|PROT_WRITE" : "PROT_READ");
	}
};

// Migration of a hugetlb folio (or its undo).
struct hugetlb_migration_cmd final : hugepage_command {
	bool undo = false, exclusive = true;
	unsigned phys_bits = 48;
	explicit hugetlb_migration_cmd(const world_model& m) : hugepage_command(m, 3)
	{
		undo = m.pages[first] == page_state::migration;
		exclusive = *rc::gen::weightedOneOf<bool>({{3, rc::gen::just(true)}, {1, rc::gen::just(false)}});
		phys_bits = m.phys_bits ? m.phys_bits
					: *rc::gen::weightedOneOf<unsigned>({{1, rc::gen::just(48u)}, {1, rc::gen::just(52u)}});
	}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(fits(m));
		RC_PRE(m.phys_bits == 0 || m.phys_bits == phys_bits);
		const page_state want = undo ? page_state::migration : page_state::present;
		RC_PRE(state(m) == want);
	}
	void apply(world_model& m) const override
	{
		m.phys_bits = phys_bits;
		m.set(first, last(m), undo ? page_state::present : page_state::migration);
	}
	void act(const world_model& m, harness& h) const override
	{
		if (undo)
			h.hugetlb_remove_migration(first, phys_bits,
						   m.vma_none[first]       ? PAGE_NONE
						   : m.vma_writable[first] ? PAGE_READONLY | PTE_WRITE
									   : PAGE_READONLY);
		else
			h.hugetlb_migrate(first, phys_bits, exclusive);
	}
	std::string what() const override
	{
		return undo ? fmt::format("hugetlb migration of the hugepage at #{} undone: remove_migration_pte", first)
			    : fmt::format("hugetlb migration of the hugepage at #{}: try_to_migrate (MAX_PHYSMEM_BITS {})",
					  first, phys_bits);
	}
};

// mremap moving a hugepage, mapped or migrating, out of the table.
struct hugetlb_mremap_cmd final : hugepage_command {
	explicit hugetlb_mremap_cmd(const world_model& m) : hugepage_command(m, 2) {}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(fits(m));
		RC_PRE(state(m) != page_state::none);
	}
	void apply(world_model& m) const override { m.set(first, last(m), page_state::none); }
	void act(const world_model&, harness& h) const override { h.hugetlb_mremap_away(first); }
	std::string what() const override
	{
		return fmt::format("hugetlb mremap: the hugepage at #{} moved away (move_huge_pte)", first);
	}
};

// UFFDIO_WRITEPROTECT over a none hugepage: a uffd-wp marker in its entries
// (kept as a swap-like state: not present, not none, no migration).
struct hugetlb_marker_cmd final : hugepage_command {
	explicit hugetlb_marker_cmd(const world_model& m) : hugepage_command(m, 2) {}
	void checkPreconditions(const world_model& m) const override
	{
		RC_PRE(fits(m));
		RC_PRE(state(m) == page_state::none);
	}
	void apply(world_model& m) const override { m.set(first, last(m), page_state::swap); }
	void act(const world_model&, harness& h) const override { h.hugetlb_uffd_wp_marker(first); }
	std::string what() const override
	{
		return fmt::format("hugetlb uffd-wp: a marker in the none hugepage at #{}", first);
	}
};

rc::Gen<std::shared_ptr<const command_base>> any_hugetlb_command(const world_model& m)
{
	const auto shared = std::make_shared<const world_model>(m);
	return rc::gen::weightedOneOf<std::shared_ptr<const command_base>>({
		{6, make<hugetlb_fault_cmd>(shared)},
		{4, make<hugetlb_access_cmd>(shared)},
		{3, make<hugetlb_unmap_cmd>(shared)},
		{2, make<hugetlb_fork_cmd>(shared)},
		{3, make<hugetlb_mprotect_cmd>(shared)},
		{3, make<hugetlb_migration_cmd>(shared)},
		{2, make<hugetlb_mremap_cmd>(shared)},
		{1, make<hugetlb_marker_cmd>(shared)},
		{1, make<idle_cmd>(shared)},
	});
}

} // namespace

void command::pick_cut(const world_model& m)
{
	if (!m.adversarial)
		return;
	const std::size_t c = m.layout->geo.cont_ptes;
	cut = *rc::gen::weightedOneOf<std::size_t>(
		{{2, rc::gen::just(std::size_t{0})}, {3, rc::gen::inRange<std::size_t>(1, 2 * c + 1)}});
}

void command::run(const world_model& s0, harness& h) const
{
	g_executed.push_back(shared_from_this());
	h.begin_command(hw, cut);
	try {
		act(s0, h);
	} catch (const property_failed& f) {
		h.end_command();
		// A run judging several properties at once keeps no slot: the
		// failure ends the case, and the run decides what it means.
		if (!g_slot)
			throw;
		g_slot->commands = g_executed;
		g_slot->layout = h.layout();
		g_slot->v = f.v;
		g_slot->breach = f.breach;
		g_slot->set = true;
		RC_FAIL(f.breach ? f.v.message : std::string(to_string(f.v.prop)) + ": " + f.v.message);
	}
	h.end_command();
}

// RapidCheck's own display of a command (its shrinking log): the action and
// the hardware plan it was drawn with.
void command::show(std::ostream& os) const
{
	const std::string plan = show_plan(hw);
	os << (plan.empty() ? what() : what() + "  [" + plan + "]");
}

void set_failure_slot(failure_slot* slot) { g_slot = slot; }
void begin_case() { g_executed.clear(); }

rc::Gen<std::shared_ptr<const command_base>> any_command(const world_model& m)
{
	if (m.hugetlb)
		return any_hugetlb_command(m);
	// Each action's weight, scaled by the case's swarm (world_model::swarm,
	// in this order); the map keeps at least its own weight, so every case
	// maps something.  The actions that make PROT_NONE entries and guard
	// markers, MADV_COLD, mremap and migration, join with `mprotect`; without it the draws are the same as
	// before they existed (a weight of 0 is never drawn and shifts nothing).
	const unsigned mp = m.mprotect ? 1u : 0u, fa = m.fault_around ? 1u : 0u;
	const unsigned weight[] = {6, 3, 2 * fa, 3, 4, 2, 2, 2, 2, 2 * mp, 2, 2, 1, 2 * mp, 2 * mp, 2 * mp, 1 * mp, 2 * mp, 1 * mp, 2 * mp};
	static_assert(std::size(weight) <= max_caller_actions);
	auto w = [&](std::size_t i) { return i == 0 ? std::max(1u, weight[0] * m.swarm[0]) : weight[i] * m.swarm[i]; };
	const auto shared = std::make_shared<const world_model>(m);
	return rc::gen::weightedOneOf<std::shared_ptr<const command_base>>({
		{w(0), make<map_folio>(shared)},
		{w(1), make<fault_pages>(shared)},
		{w(2), make<fault_around_cmd>(shared)},
		{w(3), make<zap_range>(shared, true)},
		{w(4), make<zap_range>(shared, false)},
		{w(5), make<fork_cmd>(shared)},
		{w(6), make<madvise_cmd>(shared, false)},
		{w(7), make<reclaim_cmd>(shared)},
		{w(8), make<access_fault_cmd>(shared)},
		{w(9), make<mprotect_cmd>(shared)},
		{w(10), make<swap_out_cmd>(shared)},
		{w(11), make<lockless_cmd>(shared)},
		{w(12), make<idle_cmd>(shared)},
		{w(13), make<numa_scan_cmd>(shared)},
		{w(14), make<numa_fault_cmd>(shared)},
		{w(15), make<guard_install_cmd>(shared)},
		{w(16), make<guard_remove_cmd>(shared)},
		{w(17), make<madvise_cmd>(shared, true)},
		{w(18), make<mremap_cmd>(shared)},
		{w(19), make<migration_cmd>(shared)},
	});
}

bool replay_commands(const std::vector<command_ptr>& cmds, world_model m, harness& h, violation* out,
		     std::optional<mm::caller_breach>* breach)
{
	for (const auto& c : cmds) {
		h.begin_command(c->plan(), c->batch_cut());
		try {
			c->act_public(m, h);
		} catch (const property_failed& f) {
			h.end_command();
			if (out)
				*out = f.v;
			if (breach)
				*breach = f.breach;
			return true;
		}
		h.end_command();
		c->apply(m);
	}
	return false;
}

} // namespace ptespec
