// The checker's judges, one per property: each judges an ended call (or a
// store, for well-formed and permission) against the ledger and the table.
#include "model/checker.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/permission.h"
#include "model/pte.h"

namespace ptespec {

namespace {

// Everything that must agree across the CONT entries of a run except the
// address (checked separately), the flags hardware and the flag helpers
// change, and WRITE (which may differ inside a call, see check_run_shape).
constexpr std::uint64_t run_attr_ignore = PTE_AF | PTE_DIRTY | PTE_RDONLY | PTE_WRITE;

// Write permission as a run must agree on it once a call is over: DBM set
// (hardware may then clear RDONLY entry by entry, so RDONLY may differ), or
// DBM clear and RDONLY itself, which nothing but software changes.
std::uint64_t write_key(std::uint64_t e) { return (e & PTE_WRITE) ? PTE_WRITE : e & PTE_RDONLY; }

} // namespace

// batch-or: the OR over exactly the values the call took out.
void checker::judge_batch_or(const ended_call& e)
{
	if (!e.sem.batch)
		return;
	for (std::size_t p = e.first; p < e.last; p++)
		if (pte_present(q_[p])) {
			exercise(property::batch_or);
			break;
		}
	unsigned acc = 0;
	for (std::size_t p = e.first; p < e.last; p++) {
		if (!pte_present(q_[p]))
			continue;
		if (pte_present(e.t[p]) || !taken_[p]) {
			report(property::batch_or, p, fmt::format("{} left #{} mapped", describe(e.c), p));
			break;
		}
		acc |= own_flags(taken_[p]);
	}
	if (e.reported != acc)
		report(property::batch_or, e.first,
		       fmt::format("{} returned {}, but the entries it cleared held {}", describe(e.c),
				   flag_name(e.reported), flag_name(acc)));
}

// no-loss: every live event still shows in the table.  An event no page
// holds any more is lost outright; one whose pages no longer show its flag
// vanished.
void checker::judge_no_loss(const ended_call& e, const std::vector<live_event>& lost)
{
	if (!lost.empty())
		exercise(property::no_loss);
	for (const auto& l : lost)
		report(property::no_loss, l.page,
		       fmt::format("{} (on page #{}, recorded in #{}) was lost by {}: no page still holds it",
				   event_name(l.id) + " " + flag_name(l.flag), l.page, l.landing, describe(e.c)));
	// ref_flags per page, with each folded run's OR computed once.
	run_or_.assign(n_ / geo_.cont_ptes + 1, -1);
	auto ref_of = [&](std::size_t p) -> unsigned {
		const std::uint64_t v = e.t[p];
		if (!pte_valid_cont(v))
			return pte_present(v) ? own_flags(v) : 0u;
		int& cached = run_or_[p / geo_.cont_ptes];
		if (cached < 0)
			cached = static_cast<int>(ref_flags(e.t, geo_, p));
		return static_cast<unsigned>(cached);
	};
	// Hardware only adds flags, so an event can only have vanished from a
	// run the call wrote to; events new in this call are checked anyway.
	page_set written(n_);
	for (std::size_t k : touched_) {
		const std::size_t run = geo_.run_start(k);
		ledger_.mark_run(run / geo_.cont_ptes);
		for (std::size_t j = run; j < run + geo_.cont_ptes && j < n_; j++)
			written.add(j);
	}
	std::vector<live_event> vanished;
	const std::size_t runs = ledger_.sweep(
		written, step_,
		[&](const live_event& l) {
			bool visible = false;
			l.pages.for_each([&](std::size_t p) { visible = visible || (ref_of(p) & l.flag); });
			return visible;
		},
		vanished);
	if (!touched_.empty())
		exercised_[static_cast<std::size_t>(property::no_loss)] += runs;
	for (const auto& l : vanished)
		report(property::no_loss, l.page,
		       fmt::format("{} {} (on page #{}, recorded in #{}) vanished from the table during {}",
				   event_name(l.id), flag_name(l.flag), l.page, l.landing, describe(e.c)));
}

// per-call: everything pending for a reported page when the call began.
void checker::judge_per_call(const ended_call& e)
{
	if (!e.sem.reports)
		return;
	// Only a report about an entry with something pending can miss it.
	for (std::size_t p = e.first; p < e.last; p++)
		if (pte_present(q_[p]) && (ledger_.required(p) & e.reportable)) {
			exercise(property::per_call);
			break;
		}
	for (std::size_t p = e.first; p < e.last; p++) {
		if (!pte_present(q_[p]))
			continue;
		const unsigned missing = ledger_.required(p) & e.reportable & ~e.reported;
		if (!missing)
			continue;
		const unsigned f = (missing & FLAG_DIRTY) ? FLAG_DIRTY : FLAG_YOUNG;
		const std::uint64_t src = ledger_.source(p, f);
		report(property::per_call, p,
		       fmt::format("{} reported {}, but {} (event {}) was pending for #{} when it began", describe(e.c),
				   flag_name(e.reported), flag_name(f), src ? event_name(src) : "?", p));
		break;
	}
}

// precise, value halves: a report maps what the entry mapped.  A
// non-present value reads back exactly; a report on a present entry maps
// its own pfn and attributes, whatever the flags.
void checker::judge_precise(const ended_call& e)
{
	if (!e.sem.reports)
		return;
	// Only a report about an entry that holds something can be imprecise.
	if (!pte_none(q_[e.first]))
		exercise(property::precise);
	if (e.young_only || !e.r.pte)
		return;
	const std::uint64_t before = q_[e.first], got = *e.r.pte;
	if (!pte_present(before) && got != before)
		report(property::precise, e.first,
		       fmt::format("{} on non-present #{} ({:#018x}) returned {:#018x}", describe(e.c), e.first, before, got));
	if (pte_present(before) && !pte_same_mapping(got, before))
		report(property::precise, e.first,
		       fmt::format("{} returned {:#018x}, but #{} mapped {:#018x}", describe(e.c), got, e.first, before));
}

// precise, flag half: a reported flag was pending somewhere in the folio,
// or arrived while the call ran.  A non-present entry has no folio: any
// flag read from it is bits of a swap entry.
void checker::judge_precise_flags(const ended_call& e)
{
	for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
		if (!(e.reported & flag))
			continue;
		if (!pte_present(q_[e.first])) {
			report(property::precise, e.first,
			       fmt::format("{} read non-present #{} ({:#018x}) as {}", describe(e.c), e.first, q_[e.first],
					   flag_name(flag)));
			break;
		}
		const long folio = folio_of_page(q_, e.first);
		bool ok = ledger_.reportable(e.first, flag);	// the common case: its own page
		for (std::size_t q = 0; q < n_ && !ok; q++)
			ok = ledger_.reportable(q, flag) && folio_of_page(q_, q) == folio;
		for (const auto& ce : call_events_)
			ok = ok || (ce.folio == folio && (flag == FLAG_YOUNG || ce.e.kind == hw_kind::write));
		if (!ok)
			report(property::precise, e.first,
			       fmt::format("{} reported {} but its folio had no such event pending{}", describe(e.c),
					   flag_name(flag), consumed_flag_cause(e, flag)));
	}
}

// Which call took a flag off the pages of a folio: what a failing precise
// judgement names, with the entry the flag was left in.
void checker::note_consumption(const ended_call& e, const settlement& s)
{
	for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
		const bool consumed = (s.consumed & flag) != 0;
		const bool rewritten = s.sem.unmaps || s.sem.maps;
		if (!consumed && !rewritten)
			continue;
		for (std::size_t p = e.first; p < e.last; p++)
			consumed_by_[p][flag - 1] = consumed && !rewritten ? consumption{e.c, step_, true} : consumption{};
		if (consumed)
			s.widened.for_each([&](std::size_t p) { consumed_by_[p][flag - 1] = consumption{e.c, step_, true}; });
	}
}

// "; young of #3 was consumed by ptep_test_and_clear_young(#3) at step 40,
// and #14 still held it": the last consumption of the flag on a page of
// the reported entry's folio, and the entries of that folio that still
// carried the flag before this call.
std::string checker::consumed_flag_cause(const ended_call& e, unsigned flag) const
{
	const long folio = folio_of_page(q_, e.first);
	// The reported entry's own page if a call consumed the flag there, else
	// the page of its folio where one did last.
	std::size_t page = consumed_by_[e.first][flag - 1].known ? e.first : n_;
	for (std::size_t q = 0; q < n_ && page != e.first; q++) {
		const consumption& c = consumed_by_[q][flag - 1];
		if (c.known && folio_of_page(q_, q) == folio && (page == n_ || c.step > consumed_by_[page][flag - 1].step))
			page = q;
	}
	std::string held;
	for (std::size_t k = 0; k < n_; k++)
		if (pte_present(q_[k]) && folio_of_page(q_, k) == folio && (own_flags(q_[k]) & flag))
			held += fmt::format("{}#{}", held.empty() ? "" : ", ", k);
	if (page == n_)
		return held.empty() ? "" : fmt::format(" ({} held it)", held);
	const consumption& c = consumed_by_[page][flag - 1];
	return fmt::format("; {} of #{} was consumed by {} at step {}, {}", flag_name(flag), page, describe(c.c), c.step,
			   held.empty() ? "and no entry of its folio held it before this call"
					: fmt::format("and {} still held it (a clear that did not reach every entry "
						      "the flag was recorded in)",
						      held));
}

// isolation: what the call touched outside its range keeps its mapping.
// It had something to keep when a mapping shared a run with the range
// from outside it (a run straddling the range edge) -- for a hugetlb call,
// a hugepage beside it -- or when the call reached outside at all.
void checker::judge_isolation(const ended_call& e)
{
	bool exposed = false;
	// A hugetlb call takes whole runs: what it could break is the
	// hugepages beside it.
	const std::size_t beside = is_hugetlb_call(e.c.kind) ? geo_.cont_ptes : 0;
	const std::size_t start = geo_.run_start(e.first) >= beside ? geo_.run_start(e.first) - beside : 0;
	const std::size_t end = std::min(n_, geo_.run_start(e.last - 1) + geo_.cont_ptes + beside);
	for (std::size_t k = start; k < end && !exposed; k++)
		exposed = !e.range.has(k) && !pte_none(q_[k]);
	for (std::size_t k : touched_)
		exposed = exposed || !e.range.has(k);
	if (exposed && !touched_.empty())
		exercise(property::isolation);
	for (std::size_t k : touched_) {
		if (e.range.has(k))
			continue;
		const std::uint64_t b = q_[k], a = e.t[k];
		const bool ok = pte_present(b) ? pte_present(a) && pte_same_mapping(b, a) : b == a;
		if (!ok) {
			report(property::isolation, k,
			       fmt::format("{} changed #{} outside its range: {:#018x} -> {:#018x}", describe(e.c), k, b, a));
			break;
		}
	}
}

// mapping, at each store of a present value into the call's own range: a
// call that writes values (set_ptes, modify_prot_commit_ptes) maps entry
// index + k to the page after k of the value asked, with its attributes
// (access, dirty and CONT aside: the strategy may gather or fold them);
// any other call leaves each entry on the page it mapped when the call
// began.  And a set_ptes of one special non-present value -- hwpoison,
// migration, device or marker, every bit of which the kernel reads back:
// a pfn, a migration entry's young and dirty, what a marker marks --
// stores that value bit for bit.  (An ordinary swap entry's offset is
// left out: the generators set bits of it no swap area reaches.)  What a
// store outside the range does is isolation's question.
void checker::judge_mapping(const primitive_step& p)
{
	// set_huge_pte_at writes its non-present value into every entry.
	const bool one_special = cur_.kind == call_kind::set_ptes && cur_.nr == 1 && p.index == cur_.index;
	const bool huge_special = cur_.kind == call_kind::set_huge_pte_at && p.index >= cur_.index &&
				  p.index < range_end(cur_);
	if (in_call_ && !seen(property::mapping) && (one_special || huge_special) && !pte_present(cur_.pte) &&
	    swp_type_of(cur_.pte) >= MAX_SWAPFILES && !pte_present(p.new_value) && !pte_none(p.new_value)) {
		exercise(property::mapping);
		if (p.new_value != cur_.pte) {
			auto bits = [](std::uint64_t v) {
				std::string out;
				for (unsigned b = 0; b < 64; b++)
					if (v >> b & 1)
						out += (out.empty() ? "" : ", ") + std::to_string(b);
				return out;
			};
			const std::uint64_t lost = cur_.pte & ~p.new_value, gained = p.new_value & ~cur_.pte;
			std::string what;
			if (lost)
				what = "bit " + bits(lost) + " lost";
			if (gained)
				what += (what.empty() ? "bit " : ", bit ") + bits(gained) + " set";
			report(property::mapping, p.index,
			       fmt::format("{} stored {:#018x} into #{}, which it was asked to store as {:#018x} ({}): {}",
					   describe(cur_), p.new_value, p.index, cur_.pte, nonpresent_kind(cur_.pte), what));
		}
		return;
	}
	if (!in_call_ || !pte_present(p.new_value) || seen(property::mapping) || p.index < cur_.index ||
	    p.index >= range_end(cur_))
		return;
	const bool writes = cur_.kind == call_kind::set_ptes || cur_.kind == call_kind::modify_prot_commit_ptes ||
			    cur_.kind == call_kind::set_huge_pte_at || cur_.kind == call_kind::huge_ptep_modify_prot_commit;
	if (writes && !pte_present(cur_.pte))
		return;
	exercise(property::mapping);
	if (writes) {
		const std::uint64_t want = pte_advance_entries(cur_.pte, p.index - cur_.index, geo_);
		if (!pte_same_mapping(p.new_value, want))
			report(property::mapping, p.index,
			       fmt::format("{} stored {:#018x} into #{}, which it was asked to map as {:#018x} (pfn {:#x})",
					   describe(cur_), p.new_value, p.index, want, pte_pfn(want, geo_)));
		return;
	}
	const std::uint64_t before = q_[p.index];
	if (!pte_present(before)) {
		report(property::mapping, p.index,
		       fmt::format("{} stored {:#018x} into #{}, which held {:#018x} when it began: the call maps no page",
				   describe(cur_), p.new_value, p.index, before));
		return;
	}
	if (pte_pfn(p.new_value, geo_) != pte_pfn(before, geo_))
		report(property::mapping, p.index,
		       fmt::format("{} stored {:#018x} into #{}, which mapped pfn {:#x} when it began: now pfn {:#x}",
				   describe(cur_), p.new_value, p.index, pte_pfn(before, geo_), pte_pfn(p.new_value, geo_)));
}

// A hugetlb call that takes a hugepage out leaves every entry of it none:
// core-mm believes the hugepage gone (an unmap, an mremap that moved it, a
// migration's clear), and an entry left behind is a stale mapping, or a
// migration entry nobody will restore.
void checker::judge_hugepage_cleared(const ended_call& e)
{
	if (!is_hugetlb_call(e.c.kind) || !e.sem.unmaps || seen(property::mapping))
		return;
	exercise(property::mapping);
	for (std::size_t k = e.first; k < e.last; k++)
		if (!pte_none(e.t[k])) {
			report(property::mapping, k,
			       fmt::format("{} left #{} holding {:#018x}: the hugepage's entries should all be none "
					   "after it",
					   describe(e.c), k, e.t[k]));
			return;
		}
}

// well-formed at the end of a call that promises the range's translations
// gone (flush_hugetlb_tlb_range; huge_ptep_clear_flush, whose callers --
// migration -- copy the hugepage once it returns): no CPU may still hold a
// translation of the range that maps another page or grants more than the
// entry now does.
void checker::judge_range_flushed(const ended_call& e)
{
	if ((e.c.kind != call_kind::flush_hugetlb_tlb_range && e.c.kind != call_kind::huge_ptep_clear_flush) ||
	    seen(property::well_formed))
		return;
	exercise(property::well_formed);
	for (std::size_t k = e.first; k < e.last; k++)
		for (const std::uint64_t held : {tlb_.stale(k), tlb_.cached(k)}) {
			if (!grants_beyond(held, e.t[k]))
				continue;
			const unsigned more = perms_of(held) & ~perms_of(e.t[k]);
			report(property::well_formed, k,
			       fmt::format("{} left #{}'s translation {:#018x} in some CPU's TLB, which {} where the "
					   "entry holds {:#018x}{}",
					   describe(e.c), k, held,
					   more ? "grants " + perm_names(more) : std::string("maps another page"), e.t[k],
					   missed_by_last_flush(k)));
			return;
		}
}

void checker::on_batch_hint(std::size_t i, std::uint64_t pte, std::size_t n, const table_t& t)
{
	exercise(property::per_call);
	const std::string said = fmt::format("pte_batch_hint(#{}) = {}", i, n);
	if (n == 0) {
		report(property::per_call, i, said + ": core-mm's folio_pte_batch would never get past #" +
						      std::to_string(i));
		return;
	}
	for (std::size_t k = 0; k < n; k++) {
		if (i + k >= n_) {
			report(property::per_call, i,
			       fmt::format("{} vouches for entries past the table's end ({} entries)", said, n_));
			return;
		}
		if (!pte_present(t[i + k]) || !pte_same_mapping(t[i + k], pte_advance_pfn(pte, k, geo_))) {
			report(property::per_call, i + k,
			       fmt::format("{} vouches for #{}..#{} mapping the pages after #{}'s alike, but #{} holds "
					   "{:#018x}",
					   said, i, i + n - 1, i, i + k, t[i + k]));
			return;
		}
	}
}

// Why the last invalidation left entry i's translation cached, when its
// range named i: it did not reach every CPU or complete, or a hint made it
// issue no TLBI for i.
std::string checker::missed_by_last_flush(std::size_t i) const
{
	if (!last_flush_ || last_flush_at_ < cached_at_[i] || i < last_flush_->index ||
	    i >= last_flush_->index + last_flush_->nr)
		return "";
	const primitive_step& f = *last_flush_;
	const char* why = !tlb_.reaches_every_cpu(f.flags)	 ? "did not reach every CPU's TLB before the store"
			  : !flush_reaches(i, f.index, f.nr, f.flags, geo_.level) ? "issued no TLBI for it"
								      : nullptr;
	if (!why)
		return "";
	return fmt::format(": the invalidation of #{}..#{}{} {}", f.index, f.index + f.nr - 1, flush_flag_text(f.flags),
			   why);
}

// well-formed at a store: CONT changes between valid values go through
// break-before-make (or, under BBML2, differ in size and permissions only:
// model/tlb.h), and
// the run stays one run.
void checker::judge_well_formed(const primitive_step& p, const table_t& t)
{
	const std::uint64_t cached = tlb_.cached(p.index);
	if (!tlb_.store(p.index, p.new_value))
		report(property::well_formed, p.index,
		       tlb_.bbml2() ? fmt::format("#{} changed CONT to {:#018x} without break-before-make, but the TLB "
						  "may still hold {:#018x}, which maps another address or memory type: "
						  "BBML2 lets a lookup answer with either, and relaxes a change of size only",
						  p.index, p.new_value, cached)
				    : fmt::format("#{} changed CONT between valid values without break-before-make "
						  "(the TLB may still hold {:#018x}{})",
						  p.index, cached, missed_by_last_flush(p.index)));
	// Taking an entry out never misprograms a run (each entry is then
	// invalid or as it was), so only stores of valid values need the run
	// judged -- and only until the first misprogramming.
	if (!pte_valid(p.new_value))
		return;
	exercise(property::well_formed);
	if (!seen(property::well_formed))
		check_run_shape(t, p.index, false);
}

// well-formed at a call end: the runs the call wrote to agree on write
// permission too.
void checker::judge_well_formed(const table_t& t)
{
	std::size_t last_run = static_cast<std::size_t>(-1);
	for (std::size_t k : touched_) {
		const std::size_t run = geo_.run_start(k);
		if (run != last_run && !seen(property::well_formed))
			check_run_shape(t, k, true);
		last_run = run;
	}
}

void checker::check_run_shape(const table_t& t, std::size_t i, bool at_boundary)
{
	const std::size_t first = geo_.run_start(i);
	const std::size_t last = std::min(first + geo_.cont_ptes, n_);
	bool any_cont = false, any_plain = false;
	for (std::size_t k = first; k < last; k++) {
		if (!pte_valid(t[k]))
			continue;
		(pte_cont(t[k]) ? any_cont : any_plain) = true;
	}
	if (!any_cont)
		return;
	if (any_plain) {
		report(property::well_formed, i,
		       fmt::format("run #{}-#{} has valid entries with and without CONT", first, last - 1));
		return;
	}
	std::optional<std::uint64_t> base, attrs, write;
	for (std::size_t k = first; k < last; k++) {
		const std::uint64_t e = t[k];
		if (!pte_valid(e))
			continue;
		// Each entry maps entry_pages pages (a page, or a PMD block).
		const std::uint64_t b = pte_pfn(e, geo_) - (k - first) * geo_.entry_pages();
		const std::uint64_t a = pte_pgprot(e, geo_) & ~run_attr_ignore;
		const std::uint64_t w = write_key(e);
		if (b % (geo_.cont_ptes * geo_.entry_pages()) != 0 || (base && *base != b)) {
			report(property::well_formed, k,
			       fmt::format("CONT entry #{} maps pfn {:#x}, not contiguous with its run", k,
					   pte_pfn(e, geo_)));
			return;
		}
		if (attrs && *attrs != a) {
			report(property::well_formed, k, fmt::format("CONT entry #{} differs in attributes from its run", k));
			return;
		}
		if (at_boundary && write && *write != w) {
			report(property::well_formed, k,
			       fmt::format("CONT entry #{} differs in write permission from its run after the call", k));
			return;
		}
		base = b;
		attrs = a;
		write = w;
	}
}

// lockless: ptep_get_lockless returned a value some moment of the call
// held, with every flag pending throughout.
void checker::judge_lockless(const call& c, const call_result& r)
{
	auto it = std::find_if(lockless_.begin(), lockless_.end(),
			       [&](const lockless_read& l) { return l.c.index == c.index; });
	if (it == lockless_.end())
		return;
	const std::uint64_t got = r.pte.value_or(0);
	// Only a read that could meet a mapping can tear.
	if (std::any_of(it->seen.begin(), it->seen.end(), [](std::uint64_t v) { return pte_present(v); }))
		exercise(property::lockless);
	bool ok = false;
	for (std::uint64_t v : it->seen)
		ok = ok || (pte_present(v) ? pte_present(got) && pte_same_mapping(v, got) : v == got);
	if (!ok)
		report(property::lockless, c.index,
		       fmt::format("ptep_get_lockless(#{}) returned {:#018x}, which #{} never held during the call",
				   c.index, got, c.index));
	// A torn read across a fold or unfold shows as flags missing: what was
	// pending for the page before the read and still is after it must be
	// in the value, as in any single moment of the table.
	// (A value that reads none or non-present owes no flags: it matched
	// a moment without a mapping, judged just above.)
	const unsigned owed = pte_present(got) ? it->pending_at_begin & ledger_.required(c.index) : 0u;
	const unsigned got_flags = pte_present(got) ? own_flags(got) : 0u;
	if (ok && (owed & ~got_flags))
		report(property::lockless, c.index,
		       fmt::format("ptep_get_lockless(#{}) returned {}, but {} was pending for #{} throughout the call",
				   c.index, flag_name(got_flags), flag_name(owed & ~got_flags), c.index));
	lockless_.erase(it);
}

// progress: ptep_set_access_flags (or huge_ptep_set_access_flags, for the
// hugepage's first entry) leaves the named entry itself granting
// what was asked, to a walker that reads it alone.  With hardware
// access/dirty management the walker sets AF itself and, through DBM,
// clears RDONLY: a valid entry grants the access, a writable one the
// write.  Without it (a CPU without HAFDBS, an SMMU without HTTU) the
// walker faults on an entry without AF, or with RDONLY for a write, and
// the fault comes back to this call: only the entry itself can end it.
void checker::judge_progress(const ended_call& e)
{
	if (e.c.kind != call_kind::ptep_set_access_flags && e.c.kind != call_kind::huge_ptep_set_access_flags)
		return;
	if (pte_valid(q_[e.first]))
		exercise(property::progress);
	const std::uint64_t v = e.t[e.first];
	// A write fault (dirty = 1, its value made writable and dirty) asks for
	// the write; a read fault asks for access only, whatever dirty state
	// the value carries from the entry it was read from.
	const bool want_write = e.c.flags != 0 && pte_write(e.c.pte) && pte_dirty(e.c.pte);
	// The walker that must make progress is one that reads this entry
	// alone and manages no access/dirty state itself -- an SMMU without
	// HTTU beside CPUs that have it, or every walker under no-hafdbs: it
	// needs AF set and, for a write, RDONLY clear (DBM alone is not a
	// grant to it).
	const bool ok = pte_valid(v) && (!pte_young(e.c.pte) || pte_young(v)) && (!want_write || pte_hw_dirty(v));
	if (!ok)
		report(property::progress, e.first,
		       fmt::format("after {} #{} is {:#018x}: a walker reading it alone, without hardware access/dirty "
				   "management, still faults",
				   describe(e.c), e.first, v));
}

} // namespace ptespec
