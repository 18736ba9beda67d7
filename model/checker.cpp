#include "model/checker.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/pte.h"

namespace ptespec {

namespace {

constexpr std::uint64_t software_id_bit = std::uint64_t{1} << 63;
constexpr std::size_t unchecked = static_cast<std::size_t>(-1);
constexpr unsigned req(unsigned flag) { return flag; }
constexpr unsigned opt(unsigned flag) { return flag << 2; }

unsigned own_flags(std::uint64_t e)
{
	return (pte_young(e) ? FLAG_YOUNG : 0u) | (pte_dirty(e) ? FLAG_DIRTY : 0u);
}

std::string flag_name(unsigned f)
{
	switch (f & 3u) {
	case 0: return "old+clean";
	case FLAG_YOUNG: return "young";
	case FLAG_DIRTY: return "dirty";
	default: return "young+dirty";
	}
}

// Everything that must agree across the CONT entries of a run except the
// address (checked separately), the flags hardware and the flag helpers
// change, and WRITE (which may differ inside a call, see check_run_shape).
constexpr std::uint64_t run_attr_ignore = PTE_AF | PTE_DIRTY | PTE_RDONLY | PTE_WRITE;

} // namespace

unsigned ref_flags(const table_t& t, const geometry& geo, std::size_t p)
{
	const std::uint64_t e = t[p];
	if (!pte_valid(e))
		return 0;
	if (!pte_cont(e))
		return own_flags(e);
	unsigned f = 0;
	const std::size_t first = geo.run_start(p);
	for (std::size_t k = first; k < first + geo.cont_ptes && k < t.size(); k++)
		if (pte_valid_cont(t[k]))
			f |= own_flags(t[k]);
	return f;
}

checker::checker(geometry geo, std::vector<folio_extent> folios, const table_t& initial)
	: geo_(geo), folios_(std::move(folios)), n_(initial.size()), q_(initial), pend_(initial.size(), 0),
	  pend_src_(initial.size(), {0, 0}), live_(initial.size() / geo.cont_ptes + 1),
	  run_dirty_(initial.size() / geo.cont_ptes + 1, 0), taken_(initial.size(), 0), touched_mark_(initial.size(), 0)
{
	tlb_.reset(initial);
	// Flags present in the initial table are events like those present at
	// map time, with the unit a hardware event landing in the same entry
	// would have: a flag in a CONT entry is the run's, so a clear that hands
	// it off discharges it for the run, as it does for a racing event.
	for (std::size_t k = 0; k < n_; k++) {
		const std::uint64_t e = initial[k];
		if (!pte_valid(e))
			continue;
		const long folio = folio_of_page(initial, k);
		const page_set u = unit(initial, k, pte_cont(e), folio);
		for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
			if (!(own_flags(e) & flag))
				continue;
			live_event ev;
			ev.id = software_id_bit | ++sw_ids_;
			ev.software = true;
			ev.flag = flag;
			ev.folio = folio;
			ev.page = ev.landing = k;
			ev.pages = u;
			u.for_each([&](std::size_t p) {
				if (!(pend_[p] & req(flag)))
					pend_src_[p][flag - 1] = ev.id;
				pend_[p] |= static_cast<std::uint8_t>(req(flag));
			});
			add_live(std::move(ev));
		}
	}
}

const violation* checker::first(property p) const
{
	for (const auto& v : violations_)
		if (v.prop == p)
			return &v;
	return nullptr;
}

long checker::folio_key(std::uint64_t pte) const
{
	const std::uint64_t pfn = pte_pfn(pte, geo_);
	const long f = folio_of(folios_, pfn);
	return f >= 0 ? f : -2 - static_cast<long>(pfn);
}

long checker::folio_of_page(const table_t& t, std::size_t p) const
{
	return pte_valid(t[p]) ? folio_key(t[p]) : -1;
}

page_set checker::unit(const table_t& t, std::size_t page, bool cont, long folio) const
{
	page_set s(n_);
	if (!cont) {
		if (pte_valid(t[page]) && folio_of_page(t, page) == folio)
			s.add(page);
		return s;
	}
	const std::size_t first = geo_.run_start(page);
	for (std::size_t k = first; k < first + geo_.cont_ptes && k < n_; k++)
		if (pte_valid(t[k]) && folio_of_page(t, k) == folio)
			s.add(k);
	return s;
}

bool checker::run_folded(const table_t& t, std::size_t first) const
{
	if (first + geo_.cont_ptes > n_)
		return false;
	const long f = folio_of_page(t, first);
	for (std::size_t k = first; k < first + geo_.cont_ptes; k++)
		if (!pte_valid_cont(t[k]) || folio_of_page(t, k) != f)
			return false;
	return true;
}

void checker::report(property p, std::size_t page, std::string msg)
{
	auto& seen = seen_[static_cast<std::size_t>(p)];
	if (seen)
		return;
	seen = true;
	violations_.push_back({p, step_, page, std::move(msg)});
}

std::size_t checker::live_events() const
{
	std::size_t n = 0;
	for (const auto& b : live_)
		n += b.size();
	return n;
}

void checker::mark_run(std::size_t run)
{
	if (!run_dirty_[run]) {
		run_dirty_[run] = 1;
		dirty_runs_.push_back(run);
	}
}

void checker::add_live(live_event ev)
{
	// Events of one flag pending for the same pages are indistinguishable
	// from then on: keep the oldest.
	const std::size_t run = ev.page / geo_.cont_ptes;
	for (const auto& l : live_[run])
		if (l.flag == ev.flag && l.pages == ev.pages)
			return;
	mark_run(run);
	live_[run].push_back(std::move(ev));
}

std::string checker::event_name(std::uint64_t id, bool) const
{
	// Map-time and call-set events carry a tag bit, so hardware event e3
	// and map-time event m3 never print alike.
	return (id & software_id_bit) ? fmt::format("m{}", id & ~software_id_bit) : fmt::format("e{}", id);
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
		const std::uint64_t b = pte_pfn(e, geo_) - (k - first);
		const std::uint64_t a = pte_pgprot(e, geo_) & ~run_attr_ignore;
		const std::uint64_t w = e & PTE_WRITE;
		if (b % geo_.cont_ptes != 0 || (base && *base != b)) {
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

void checker::on_call_begin(const call& c, const table_t& t)
{
	step_++;
	if (c.kind == call_kind::ptep_get_lockless) {
		lockless_.push_back({c, {t[c.index]}, static_cast<unsigned>(pend_[c.index] & 3u)});
		return;
	}
	in_call_ = true;
	cur_ = c;
	call_events_.clear();
	for (std::size_t k : touched_) {
		touched_mark_[k] = 0;
		taken_[k] = 0;
	}
	touched_.clear();
	q_ = t;
}

void checker::on_primitive(const primitive_step& p, const table_t& t)
{
	step_++;
	switch (p.kind) {
	case prim_kind::read:
		break;
	case prim_kind::tlbi_page:
	case prim_kind::tlbi_range:
	case prim_kind::tlbi_all:
		tlb_.flush(p.index, p.nr, t);
		break;
	default: {
		if (!touched_mark_[p.index]) {
			touched_mark_[p.index] = 1;
			touched_.push_back(p.index);
		}
		if (pte_valid(p.old_value) && !pte_valid(p.new_value))
			taken_[p.index] = p.old_value;
		else if (pte_valid(p.new_value))
			taken_[p.index] = 0;
		if (!tlb_.store(p.index, p.new_value))
			report(property::well_formed, p.index,
			       fmt::format("#{} changed CONT between valid values without break-before-make "
					   "(the TLB may still hold {:#x})",
					   p.index, tlb_.cached(p.index)));
		tlb_.store(p.index, p.new_value);
		// Taking an entry out never misprograms a run (each entry is
		// then invalid or as it was), so only stores of valid values
		// need the run judged -- and only until the first misprogramming.
		if (pte_valid(p.new_value))
			exercise(property::well_formed);
		if (pte_valid(p.new_value) && !seen_[static_cast<std::size_t>(property::well_formed)])
			check_run_shape(t, p.index, false);
		break;
	}
	}
	for (auto& l : lockless_)
		if (std::find(l.seen.begin(), l.seen.end(), t[l.c.index]) == l.seen.end())
			l.seen.push_back(t[l.c.index]);
}

void checker::on_hw_event(const hw_event& e, const table_t& t)
{
	step_++;
	tlb_.store(e.landing, e.new_value);
	const bool cont = pte_cont(e.old_value);
	const std::uint64_t page_pfn = pte_pfn(e.old_value, geo_) + e.page - e.landing;
	const long folio = folio_key(pfn_pte(page_pfn, std::uint64_t{0}, geo_));
	const unsigned flags = FLAG_YOUNG | (e.kind == hw_kind::write ? FLAG_DIRTY : 0u);
	for (auto& l : lockless_)
		if (std::find(l.seen.begin(), l.seen.end(), t[l.c.index]) == l.seen.end())
			l.seen.push_back(t[l.c.index]);
	if (in_call_) {
		call_events_.push_back({e, step_, cont, folio, unit(q_, e.page, cont, folio)});
		return;
	}
	// Between calls the event is ordered where it happened.
	q_ = t;
	const page_set u = unit(q_, e.page, cont, folio);
	for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
		if (!(flags & flag))
			continue;
		u.for_each([&](std::size_t p) {
			if (!(pend_[p] & req(flag)))
				pend_src_[p][flag - 1] = e.id;
			pend_[p] |= static_cast<std::uint8_t>(req(flag));
		});
		add_live({e.id, false, flag, folio, e.page, e.landing, step_, u});
	}
}

void checker::on_call_abandoned(const call& c, const std::string& why)
{
	step_++;
	if (c.kind == call_kind::ptep_get_lockless) {
		auto it = std::find_if(lockless_.begin(), lockless_.end(),
				       [&](const lockless_read& l) { return l.c.index == c.index; });
		if (it != lockless_.end())
			lockless_.erase(it);
		report(property::lockless, c.index, fmt::format("{} never returned: {}", describe(c), why));
		return;
	}
	in_call_ = false;
	report(property::progress, c.index, fmt::format("{} never returned: {}", describe(c), why));
}

void checker::on_fault(const fault_step& f, const table_t&)
{
	step_++;
	if (f.c.kind == call_kind::ptep_get_lockless) {
		auto it = std::find_if(lockless_.begin(), lockless_.end(),
				       [&](const lockless_read& l) { return l.c.index == f.c.index; });
		if (it != lockless_.end())
			lockless_.erase(it);
	} else {
		in_call_ = false;
	}
	const property p = f.flush ? property::well_formed : property::isolation;
	exercise(p);
	if (f.flush)
		report(p, f.index,
		       fmt::format("{} flushed the TLB for #{}..#{}, past the table of {} entries", describe(f.c), f.index,
				   f.index + f.nr - 1, f.table_size));
	else
		report(p, f.index,
		       fmt::format("{} touched #{}, outside the table of {} entries", describe(f.c), f.index,
				   f.table_size));
}

void checker::end_lockless(const call& c, const call_result& r)
{
	auto it = std::find_if(lockless_.begin(), lockless_.end(),
			       [&](const lockless_read& l) { return l.c.index == c.index; });
	if (it == lockless_.end())
		return;
	const std::uint64_t got = r.pte.value_or(0);
	// Only a read that could meet a mapping can tear.
	if (std::any_of(it->seen.begin(), it->seen.end(), [](std::uint64_t v) { return pte_valid(v); }))
		exercise(property::lockless);
	bool ok = false;
	for (std::uint64_t v : it->seen)
		ok = ok || (pte_valid(v) ? pte_valid(got) && pte_same_mapping(v, got) : v == got);
	if (!ok)
		report(property::lockless, c.index,
		       fmt::format("ptep_get_lockless(#{}) returned {:#x}, which #{} never held during the call",
				   c.index, got, c.index));
	// A torn read across a fold or unfold shows as flags missing: what was
	// pending for the page before the read and still is after it must be
	// in the value, as in any single moment of the table.
	// (A value that reads none or non-present owes no flags: it matched
	// a moment without a mapping, judged just above.)
	const unsigned owed = pte_valid(got) ? it->pending_at_begin & pend_[c.index] & 3u : 0u;
	const unsigned got_flags = pte_valid(got) ? own_flags(got) : 0u;
	if (ok && (owed & ~got_flags))
		report(property::lockless, c.index,
		       fmt::format("ptep_get_lockless(#{}) returned {}, but {} was pending for #{} throughout the call",
				   c.index, flag_name(got_flags), flag_name(owed & ~got_flags), c.index));
	lockless_.erase(it);
}

void checker::on_call_end(const call& c, const call_result& r, const table_t& t)
{
	step_++;
	calls_++;
	if (c.kind == call_kind::ptep_get_lockless) {
		end_lockless(c, r);
		return;
	}
	in_call_ = false;
	const call_semantics sem = semantics_of(c);
	const std::size_t first = c.index;
	const std::size_t last = std::min(range_end(c), n_);
	page_set range(n_);
	for (std::size_t p = first; p < last; p++)
		range.add(p);

	// What the call reported, as flags.
	unsigned rf = 0;
	const bool young_only = c.kind == call_kind::ptep_test_and_clear_young ||
				c.kind == call_kind::ptep_clear_flush_young;
	if (sem.reports) {
		if (young_only)
			rf = r.young.value_or(false) ? FLAG_YOUNG : 0u;
		else if (r.pte && pte_valid(q_[first]))
			rf = own_flags(*r.pte);
	}
	const unsigned reportable = young_only ? FLAG_YOUNG : 3u;
	// A report about an entry that holds something can be imprecise; one
	// about an entry with something pending can miss it.
	if (sem.reports && !pte_none(q_[first]))
		exercise(property::precise);
	if (sem.reports)
		for (std::size_t p = first; p < last; p++)
			if (pte_valid(q_[p]) && (pend_[p] & reportable & 3u)) {
				exercise(property::per_call);
				break;
			}

	// precise, non-present half: a non-present value reads back exactly.
	if (sem.reports && !young_only && !pte_valid(q_[first]) && r.pte && *r.pte != q_[first])
		report(property::precise, first,
		       fmt::format("{} on non-present #{} ({:#x}) returned {:#x}", describe(c), first, q_[first],
				   *r.pte));

	// precise, mapping half: a report on a present entry maps what the
	// entry mapped (its own pfn and attributes, whatever the flags).
	if (sem.reports && !young_only && pte_valid(q_[first]) && r.pte && !pte_same_mapping(*r.pte, q_[first]))
		report(property::precise, first,
		       fmt::format("{} returned {:#x}, but #{} mapped {:#x}", describe(c), *r.pte, first, q_[first]));

	// per-call: everything pending for a reported page when the call began.
	if (sem.reports) {
		for (std::size_t p = first; p < last; p++) {
			if (!pte_valid(q_[p]))
				continue;
			const unsigned missing = pend_[p] & reportable & ~rf & 3u;
			if (!missing)
				continue;
			const unsigned f = (missing & FLAG_DIRTY) ? FLAG_DIRTY : FLAG_YOUNG;
			report(property::per_call, p,
			       fmt::format("{} reported {}, but {} (event {}) was pending for #{} when it began",
					   describe(c), flag_name(rf), flag_name(f),
					   pend_src_[p][f - 1] ? event_name(pend_src_[p][f - 1], false) : "?", p));
			break;
		}
	}

	// precise, flag half: a reported flag was pending somewhere in the
	// folio, or arrived while the call ran.  A non-present entry has no
	// folio: any flag read from it is bits of a swap entry.
	for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
		if (!(rf & flag))
			continue;
		if (!pte_valid(q_[first])) {
			report(property::precise, first,
			       fmt::format("{} read non-present #{} ({:#x}) as {}", describe(c), first, q_[first],
					   flag_name(flag)));
			break;
		}
		const long folio = folio_of_page(q_, first);
		bool ok = (pend_[first] & (req(flag) | opt(flag))) != 0;	// the common case: its own page
		for (std::size_t q = 0; q < n_ && !ok; q++)
			ok = (pend_[q] & (req(flag) | opt(flag))) && folio_of_page(q_, q) == folio;
		for (const auto& ce : call_events_)
			ok = ok || (ce.folio == folio && (flag == FLAG_YOUNG || ce.e.kind == hw_kind::write));
		if (!ok)
			report(property::precise, first,
			       fmt::format("{} reported {} but its folio had no such event pending", describe(c),
					   flag_name(flag)));
	}

	// batch-or: the OR over exactly the values the call took out.
	if (sem.batch) {
		for (std::size_t p = first; p < last; p++)
			if (pte_valid(q_[p])) {
				exercise(property::batch_or);
				break;
			}
		unsigned acc = 0;
		for (std::size_t p = first; p < last; p++) {
			if (!pte_valid(q_[p]))
				continue;
			if (pte_valid(t[p]) || !taken_[p]) {
				report(property::batch_or, p, fmt::format("{} left #{} mapped", describe(c), p));
				break;
			}
			acc |= own_flags(taken_[p]);
		}
		if (rf != acc)
			report(property::batch_or, first,
			       fmt::format("{} returned {}, but the entries it cleared held {}", describe(c),
					   flag_name(rf), flag_name(acc)));
	}

	// Consumption, possibly widened to the folded runs the range touches.
	const unsigned consumed = (sem.consumes_young ? FLAG_YOUNG : 0u) | (sem.consumes_dirty ? FLAG_DIRTY : 0u);
	page_set widened(n_);
	if (sem.may_widen && consumed) {
		const long folio = folio_of_page(q_, first);
		for (std::size_t run = geo_.run_start(first); run < last; run += geo_.cont_ptes)
			if (run_folded(q_, run))
				for (std::size_t k = run; k < run + geo_.cont_ptes; k++)
					if (!range.has(k) && folio_of_page(q_, k) == folio)
						widened.add(k);
	}
	page_set reach = range;
	reach.unite(widened);

	std::vector<live_event> lost;
	const std::size_t first_run = first / geo_.cont_ptes, end_run = (last - 1) / geo_.cont_ptes + 1;
	for (std::size_t run = first_run; run < end_run; run++) {
		mark_run(run);
		auto& bucket = live_[run];
		bucket.erase(std::remove_if(bucket.begin(), bucket.end(),
				   [&](live_event& l) {
					   if (sem.hands_off && (rf & l.flag) && l.pages.intersects(range))
						   return true;	// handed off to the caller
					   if (!sem.reports && (consumed & l.flag) && l.pages.intersects(reach))
						   return true;	// consumed
					   if ((consumed & l.flag) || sem.unmaps || sem.maps) {
						   l.pages.subtract(range);	// gone from these pages only
						   l.step_checked = unchecked;	// its visibility must be judged anew
					   }
					   if (!l.pages.empty())
						   return false;
					   lost.push_back(l);	// no page holds it any more
					   return true;
				   }),
		    bucket.end());
	}

	for (std::size_t p = first; p < last; p++) {
		pend_[p] &= static_cast<std::uint8_t>(~(req(consumed) | opt(consumed)));
		if (sem.unmaps || sem.maps)
			pend_[p] = 0;
	}
	widened.for_each([&](std::size_t p) {
		const unsigned r_bits = pend_[p] & req(consumed);
		pend_[p] = static_cast<std::uint8_t>((pend_[p] & ~r_bits) | (r_bits << 2));
	});

	// Flags a call itself brings: present at map time, or set by
	// ptep_set_access_flags.
	auto software_event = [&](std::size_t p, unsigned flag, const page_set& pages) {
		live_event ev;
		ev.id = software_id_bit | ++sw_ids_;
		ev.software = true;
		ev.flag = flag;
		ev.folio = folio_of_page(t, p);
		ev.page = ev.landing = p;
		ev.step = step_;
		ev.pages = pages;
		pages.for_each([&](std::size_t q) {
			pend_[q] |= static_cast<std::uint8_t>(req(flag));
			pend_src_[q][flag - 1] = ev.id;
		});
		add_live(std::move(ev));
	};
	if (sem.maps && pte_valid(c.pte)) {
		for (std::size_t p = first; p < last; p++) {
			page_set one(n_);
			one.add(p);
			for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY})
				if (own_flags(c.pte) & flag)
					software_event(p, flag, one);
		}
	}
	if (c.kind == call_kind::ptep_set_access_flags && pte_valid(t[first])) {
		const page_set u = unit(t, first, pte_cont(t[first]), folio_of_page(t, first));
		for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY})
			if (own_flags(c.pte) & flag)
				software_event(first, flag, u);
	}

	// Events that landed during the call.
	for (const auto& ce : call_events_) {
		const unsigned flags = FLAG_YOUNG | (ce.e.kind == hw_kind::write ? FLAG_DIRTY : 0u);
		for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
			if (!(flags & flag))
				continue;
			const bool reported = sem.hands_off && (rf & flag) && ce.unit_pre.intersects(range);
			const bool absorbed = !sem.reports && (consumed & flag) && ce.unit_pre.intersects(reach);
			if (reported || absorbed) {
				// Ordered before the call, so treated as if it had landed
				// just before the call began: discharged, but still owed
				// to the pages of its unit the call did not cover, exactly
				// as an event between calls would be after the code above.
				// Where the call did cover it (or widened to it) it is
				// optional: it may have landed after the entry's update
				// and still sit there, so a later report of it is true.
				const page_set u = unit(t, ce.e.page, ce.cont, ce.folio);
				u.for_each([&](std::size_t p) {
					if (range.has(p) || widened.has(p)) {
						pend_[p] |= static_cast<std::uint8_t>(opt(flag));
						return;
					}
					if (!(pend_[p] & req(flag)))
						pend_src_[p][flag - 1] = ce.e.id;
					pend_[p] |= static_cast<std::uint8_t>(req(flag));
				});
				continue;
			}
			// Ordered after the call: pending where it lands then.
			live_event ev{ce.e.id, false, flag, ce.folio, ce.e.page, ce.e.landing, ce.step,
				      unit(t, ce.e.page, ce.cont, ce.folio)};
			ev.pages.for_each([&](std::size_t p) {
				if (!(pend_[p] & req(flag)))
					pend_src_[p][flag - 1] = ce.e.id;
				pend_[p] |= static_cast<std::uint8_t>(req(flag));
			});
			if (ev.pages.empty())
				lost.push_back(std::move(ev));
			else
				add_live(std::move(ev));
		}
	}

	// A run the call folded makes its pages' pending events the run's.
	for (std::size_t run = geo_.run_start(first); run < last; run += geo_.cont_ptes) {
		if (!run_folded(t, run) || run_folded(q_, run))
			continue;
		page_set all(n_);
		std::uint8_t u = 0;
		for (std::size_t k = run; k < run + geo_.cont_ptes; k++) {
			all.add(k);
			u |= pend_[k];
		}
		for (std::size_t k = run; k < run + geo_.cont_ptes; k++)
			pend_[k] |= u;
		for (auto& l : live_[run / geo_.cont_ptes])
			if (l.pages.intersects(all)) {
				l.pages.unite(all);
				l.step_checked = unchecked;
			}
	}

	// isolation: what the call touched outside its range keeps its mapping.
	// It had something to keep when a mapping shared a run with the range
	// from outside it (a run straddling the range edge), or when the call
	// reached outside at all.
	{
		bool exposed = false;
		for (std::size_t k = geo_.run_start(first); k < std::min(n_, geo_.run_start(last - 1) + geo_.cont_ptes) &&
							    !exposed;
		     k++)
			exposed = !range.has(k) && !pte_none(q_[k]);
		for (std::size_t k : touched_)
			exposed = exposed || !range.has(k);
		if (exposed && !touched_.empty())
			exercise(property::isolation);
	}
	for (std::size_t k : touched_) {
		if (range.has(k))
			continue;
		const std::uint64_t b = q_[k], e = t[k];
		const bool ok = pte_valid(b) ? pte_valid(e) && pte_same_mapping(b, e) : b == e;
		if (!ok) {
			report(property::isolation, k,
			       fmt::format("{} changed #{} outside its range: {:#x} -> {:#x}", describe(c), k, b, e));
			break;
		}
	}

	// well-formed at the boundary: CONT runs agree on write permission too.
	{
		std::size_t last_run = static_cast<std::size_t>(-1);
		for (std::size_t k : touched_) {
			const std::size_t run = geo_.run_start(k);
			if (run != last_run && !seen_[static_cast<std::size_t>(property::well_formed)])
				check_run_shape(t, k, true);
			last_run = run;
		}
	}

	// progress: the named entry itself grants what was asked.
	if (c.kind == call_kind::ptep_set_access_flags) {
		if (pte_valid(q_[first]))
			exercise(property::progress);
		const std::uint64_t e = t[first];
		const bool want_write = pte_write(c.pte) && pte_dirty(c.pte);
		const bool ok = pte_valid(e) && (!pte_young(c.pte) || pte_young(e)) &&
				(!want_write || pte_hw_dirty(e));
		if (!ok)
			report(property::progress, first,
			       fmt::format("after {} #{} is {:#x}: a walker reading it alone still faults", describe(c),
					   first, e));
	}

	// no-loss: every live event still shows in the table.
	if (!lost.empty())
		exercise(property::no_loss);
	for (const auto& l : lost)
		report(property::no_loss, l.page,
		       fmt::format("{} (on page #{}, recorded in #{}) was lost by {}: no page still holds it",
				   event_name(l.id, l.software) + " " + flag_name(l.flag), l.page, l.landing, describe(c)));
	// ref_flags per page, with each folded run's OR computed once.
	run_or_.assign(n_ / geo_.cont_ptes + 1, -1);
	auto ref_of = [&](std::size_t p) -> unsigned {
		const std::uint64_t e = t[p];
		if (!pte_valid(e) || !pte_cont(e))
			return pte_valid(e) ? own_flags(e) : 0u;
		int& cached = run_or_[p / geo_.cont_ptes];
		if (cached < 0)
			cached = static_cast<int>(ref_flags(t, geo_, p));
		return static_cast<unsigned>(cached);
	};
	// Hardware only adds flags, so an event can only have vanished from a
	// run the call wrote to; events new in this call are checked anyway.
	page_set written(n_);
	for (std::size_t k : touched_) {
		const std::size_t run = geo_.run_start(k);
		mark_run(run / geo_.cont_ptes);
		for (std::size_t j = run; j < run + geo_.cont_ptes && j < n_; j++)
			written.add(j);
	}
	for (std::size_t run : dirty_runs_) {
		run_dirty_[run] = 0;
		auto& bucket = live_[run];
		if (!bucket.empty() && !touched_.empty())
			exercise(property::no_loss);
		bucket.erase(std::remove_if(bucket.begin(), bucket.end(),
				   [&](live_event& l) {
					   const bool fresh = l.step_checked == unchecked;
					   l.step_checked = step_;
					   if (!fresh && !l.pages.intersects(written))
						   return false;
					   bool visible = false;
					   l.pages.for_each([&](std::size_t p) {
						   visible = visible || (ref_of(p) & l.flag);
					   });
					   if (!visible)
						   report(property::no_loss, l.page,
							  fmt::format("{} {} (on page #{}, recorded in #{}) vanished "
								      "from the table during {}",
								      event_name(l.id, l.software), flag_name(l.flag),
								      l.page, l.landing, describe(c)));
					   return !visible;
				   }),
		    bucket.end());
	}
	dirty_runs_.clear();

	q_ = t;
}

std::string checker::ledger() const
{
	std::string out;
	for (const auto& bucket : live_) {
		for (const auto& l : bucket) {
			std::string pages;
			l.pages.for_each(
				[&](std::size_t p) { pages += fmt::format("{}#{}", pages.empty() ? "" : ",", p); });
			out += fmt::format("  {} {:<5} page #{} landed #{} pending for {}\n",
					   event_name(l.id, l.software), flag_name(l.flag), l.page, l.landing, pages);
		}
	}
	return out;
}

void replay(const history& h, observer& o)
{
	table_t t = h.initial;
	for (const step& s : h.steps) {
		if (auto* b = std::get_if<call_begin_step>(&s)) {
			o.on_call_begin(b->c, t);
		} else if (auto* e = std::get_if<call_end_step>(&s)) {
			o.on_call_end(e->c, e->r, t);
		} else if (auto* p = std::get_if<primitive_step>(&s)) {
			if (p->kind != prim_kind::read && p->kind != prim_kind::tlbi_page &&
			    p->kind != prim_kind::tlbi_range && p->kind != prim_kind::tlbi_all)
				t.at(p->index) = p->new_value;
			o.on_primitive(*p, t);
		} else if (auto* hw = std::get_if<hw_event>(&s)) {
			t.at(hw->landing) = hw->new_value;
			o.on_hw_event(*hw, t);
		} else if (auto* f = std::get_if<fault_step>(&s)) {
			o.on_fault(*f, t);
		}
	}
}

} // namespace ptespec
