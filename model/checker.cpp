#include "model/checker.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/permission.h"
#include "model/pte.h"

namespace ptespec {

unsigned own_flags(std::uint64_t e)
{
	return (pte_young(e) ? FLAG_YOUNG : 0u) | (pte_dirty(e) ? FLAG_DIRTY : 0u);
}

namespace {

// An access sets young; a write sets dirty too.
unsigned hw_flags(hw_kind k) { return FLAG_YOUNG | (k == hw_kind::write ? FLAG_DIRTY : 0u); }

} // namespace

unsigned ref_flags(const table_t& t, const geometry& geo, std::size_t p)
{
	const std::uint64_t e = t[p];
	if (!pte_present(e))
		return 0;
	// Hardware records into valid CONT entries only, so only those gather:
	// a PROT_NONE entry holds its own flags, whatever CONT says.
	if (!pte_valid_cont(e))
		return own_flags(e);
	unsigned f = 0;
	const std::size_t first = geo.run_start(p);
	for (std::size_t k = first; k < first + geo.cont_ptes && k < t.size(); k++)
		if (pte_valid_cont(t[k]))
			f |= own_flags(t[k]);
	return f;
}

checker::checker(geometry geo, std::vector<folio_extent> folios, const table_t& initial, hardware_options hw)
	: geo_(geo), folios_(std::move(folios)), n_(initial.size()), q_(initial),
	  ledger_(initial.size(), geo.cont_ptes), tlb_(hw, geo.level), taken_(initial.size(), 0),
	  touched_mark_(initial.size(), 0), asked_(initial.size()), consumed_by_(initial.size())
{
	tlb_.reset(initial);
	// What the initial table grants was asked for by the calls that built it.
	for (std::size_t k = 0; k < n_; k++)
		asked_[k] = perms_of(initial[k]);
	allowed_ = asked_;
	cached_at_.assign(n_, 0);
	run_flushed_at_.assign(n_ / geo_.cont_ptes + 1, 0);
	// Flags present in the initial table are events like those present at
	// map time, with the unit a hardware event landing in the same entry
	// would have: a flag in a CONT entry is the run's, so a clear that hands
	// it off discharges it for the run, as it does for a racing event.
	for (std::size_t k = 0; k < n_; k++) {
		const std::uint64_t e = initial[k];
		if (!pte_present(e))
			continue;
		const long folio = folio_of_page(initial, k);
		const page_set u = unit(initial, k, pte_valid_cont(e), folio);
		for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY})
			if (own_flags(e) & flag)
				add_software_event(k, flag, folio, u, false);
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
	return pte_present(t[p]) ? folio_key(t[p]) : -1;
}

page_set checker::unit(const table_t& t, std::size_t page, bool cont, long folio) const
{
	page_set s(n_);
	if (!cont) {
		if (pte_present(t[page]) && folio_of_page(t, page) == folio)
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

bool checker::widens_to(const table_t& t, std::size_t run_first, std::size_t k, long folio) const
{
	if (folio_of_page(t, k) != folio)
		return false;
	return run_folded(t, run_first) || (pte_present_invalid(t[k]) && pte_cont(t[k]));
}

void checker::report(property p, std::size_t page, std::string msg)
{
	auto& done = seen_[static_cast<std::size_t>(p)];
	if (done)
		return;
	done = true;
	violations_.push_back({p, step_, page, std::move(msg)});
}

// ---- The observer: the steps as they come ----

void checker::on_call_begin(const call& c, const table_t& t)
{
	step_++;
	if (c.kind == call_kind::ptep_get_lockless) {
		lockless_.push_back({c, {t[c.index]}, ledger_.required(c.index)});
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
	set_asks(c, false);
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
		tlb_.flush(p.index, p.nr, t, p.flags);
		last_flush_ = p;
		last_flush_at_ = step_;
		// A local or unsynchronised flush leaves some CPU's CONT
		// translations of the run in place (model/tlb.h).
		if (!tlb_.reaches_every_cpu(p.flags))
			break;
		// A run counts as flushed when the invalidation reached one of its
		// entries (a hint may leave some out, model/history.h).
		for (std::size_t k = p.index - p.index % geo_.cont_ptes; k < p.index + p.nr && k < n_;
		     k += geo_.cont_ptes)
			for (std::size_t j = k; j < k + geo_.cont_ptes && j < n_; j++)
				if (flush_reaches(j, p.index, p.nr, p.flags, geo_.level)) {
					run_flushed_at_[k / geo_.cont_ptes] = step_;
					break;
				}
		break;
	default:
		if (!touched_mark_[p.index]) {
			touched_mark_[p.index] = 1;
			touched_.push_back(p.index);
		}
		if (pte_present(p.old_value) && !pte_present(p.new_value))
			taken_[p.index] = p.old_value;
		else if (pte_present(p.new_value))
			taken_[p.index] = 0;
		judge_well_formed(p, t);
		if (pte_valid(p.new_value))
			cached_at_[p.index] = step_;
		judge_permission(p, t);
		judge_mapping(p);
		break;
	}
	note_lockless_reads(t);
}

void checker::on_hw_event(const hw_event& e, const table_t& t)
{
	step_++;
	tlb_.store(e.landing, e.new_value);
	cached_at_[e.landing] = step_;
	const bool cont = pte_cont(e.old_value);
	const std::uint64_t page_pfn = pte_pfn(e.old_value, geo_) + (e.page - e.landing) * geo_.entry_pages();
	const long folio = folio_key(pfn_pte(page_pfn, std::uint64_t{0}, geo_));
	note_lockless_reads(t);
	if (in_call_) {
		call_events_.push_back({e, step_, cont, folio, unit(q_, e.page, cont, folio)});
		return;
	}
	// Between calls the event is ordered where it happened.
	q_ = t;
	const page_set u = unit(q_, e.page, cont, folio);
	for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
		if (!(hw_flags(e.kind) & flag))
			continue;
		ledger_.make_pending(u, flag, e.id);
		ledger_.add_live({e.id, false, flag, folio, e.page, e.landing, step_, u});
	}
}

void checker::on_call_abandoned(const call& c, const std::string& why)
{
	step_++;
	if (c.kind == call_kind::ptep_get_lockless) {
		forget_lockless(c.index);
		report(property::lockless, c.index, fmt::format("{} never returned: {}", describe(c), why));
		return;
	}
	in_call_ = false;
	report(property::progress, c.index, fmt::format("{} never returned: {}", describe(c), why));
}

void checker::on_fault(const fault_step& f, const table_t&)
{
	step_++;
	if (f.c.kind == call_kind::ptep_get_lockless)
		forget_lockless(f.c.index);
	else
		in_call_ = false;
	const property p = f.flush || !f.assertion.empty() ? property::well_formed : property::isolation;
	exercise(p);
	if (!f.assertion.empty())
		report(p, f.c.index, fmt::format("{} stopped at its own check: {}", describe(f.c), f.assertion));
	else if (f.flush)
		report(p, f.index,
		       fmt::format("{} flushed the TLB for #{}..#{}, past the table of {} entries", describe(f.c), f.index,
				   f.index + f.nr - 1, f.table_size));
	else
		report(p, f.index,
		       fmt::format("{} touched #{}, outside the table of {} entries", describe(f.c), f.index,
				   f.table_size));
}

// The judges run in a fixed order, and each records only its property's
// first violation: when one call breaks several, they are listed in this
// order (so precise's flag half comes after per-call).
void checker::on_call_end(const call& c, const call_result& r, const table_t& t)
{
	step_++;
	calls_++;
	if (c.kind == call_kind::ptep_get_lockless) {
		judge_lockless(c, r);
		return;
	}
	in_call_ = false;
	const ended_call e = ending(c, r, t);
	judge_precise(e);
	judge_per_call(e);
	judge_precise_flags(e);
	judge_batch_or(e);

	std::vector<live_event> lost;
	const settlement s = settlement_of(e);
	ledger_.settle(s, lost);
	note_consumption(e, s);
	add_call_set_flags(e);
	order_call_events(s, t, lost);
	fold_runs(e);

	judge_isolation(e);
	judge_hugepage_cleared(e);
	judge_well_formed(t);
	judge_range_flushed(e);
	judge_progress(e);
	set_asks(c, true);
	judge_permission(e);
	judge_no_loss(e, lost);
	q_ = t;
}

void checker::note_lockless_reads(const table_t& t)
{
	for (auto& l : lockless_)
		if (std::find(l.seen.begin(), l.seen.end(), t[l.c.index]) == l.seen.end())
			l.seen.push_back(t[l.c.index]);
}

void checker::forget_lockless(std::size_t index)
{
	auto it = std::find_if(lockless_.begin(), lockless_.end(),
			       [&](const lockless_read& l) { return l.c.index == index; });
	if (it != lockless_.end())
		lockless_.erase(it);
}

// ---- The ledger at a call end ----

checker::ended_call checker::ending(const call& c, const call_result& r, const table_t& t) const
{
	ended_call e{c, r, t, semantics_of(c), c.index, std::min(range_end(c), n_), page_set(n_)};
	for (std::size_t p = e.first; p < e.last; p++)
		e.range.add(p);
	e.young_only = answers_young(c.kind);
	if (e.sem.reports) {
		if (e.young_only)
			e.reported = r.young.value_or(false) ? FLAG_YOUNG : 0u;
		else if (r.pte && pte_present(q_[e.first]))
			e.reported = own_flags(*r.pte);
	}
	e.reportable = e.young_only ? FLAG_YOUNG : 3u;
	return e;
}

// Consumption, possibly widened to the folded runs of the folio the range
// touches.
settlement checker::settlement_of(const ended_call& e) const
{
	settlement s{e.sem, e.reported, 0u, e.first, e.last, e.range, page_set(n_), page_set()};
	s.consumed = (e.sem.consumes_young ? FLAG_YOUNG : 0u) | (e.sem.consumes_dirty ? FLAG_DIRTY : 0u);
	if (e.sem.may_widen && s.consumed) {
		const long folio = folio_of_page(q_, e.first);
		for (std::size_t run = geo_.run_start(e.first); run < e.last; run += geo_.cont_ptes)
			for (std::size_t k = run; k < run + geo_.cont_ptes && k < n_; k++)
				if (!e.range.has(k) && widens_to(q_, run, k, folio))
					s.widened.add(k);
	}
	s.reach = e.range;
	s.reach.unite(s.widened);
	return s;
}

void checker::add_software_event(std::size_t page, unsigned flag, long folio, const page_set& pages, bool latest)
{
	live_event ev;
	ev.id = ledger_.software_id();
	ev.software = true;
	ev.flag = flag;
	ev.folio = folio;
	ev.page = ev.landing = page;
	ev.step = step_;
	ev.pages = pages;
	ledger_.make_pending(pages, flag, ev.id, latest);
	ledger_.add_live(std::move(ev));
}

// Flags a call itself brings: present at map time, or set by
// ptep_set_access_flags.
void checker::add_call_set_flags(const ended_call& e)
{
	const call& c = e.c;
	if (e.sem.maps && pte_present(c.pte)) {
		for (std::size_t p = e.first; p < e.last; p++) {
			page_set one(n_);
			one.add(p);
			for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY})
				if (own_flags(c.pte) & flag)
					add_software_event(p, flag, folio_of_page(e.t, p), one, true);
		}
	}
	if ((c.kind == call_kind::ptep_set_access_flags || c.kind == call_kind::huge_ptep_set_access_flags) &&
	    pte_valid(e.t[e.first])) {
		const page_set u = unit(e.t, e.first, pte_cont(e.t[e.first]), folio_of_page(e.t, e.first));
		for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY})
			if (own_flags(c.pte) & flag)
				add_software_event(e.first, flag, folio_of_page(e.t, e.first), u, true);
	}
}

// Events that landed during the call, ordered before it when that explains
// what it reported or consumed, after it otherwise.
void checker::order_call_events(const settlement& s, const table_t& t, std::vector<live_event>& lost)
{
	for (const auto& ce : call_events_) {
		for (unsigned flag : {FLAG_YOUNG, FLAG_DIRTY}) {
			if (!(hw_flags(ce.e.kind) & flag))
				continue;
			if (event_ledger::discharges(s, flag, ce.unit_pre)) {
				// Ordered before the call, so treated as if it had landed
				// just before the call began: discharged, but still owed
				// to the pages of its unit the call did not reach, exactly
				// as an event between calls would be after the settlement.
				// Where the call did reach it, it is optional: it may have
				// landed after the entry's update and still sit there, so
				// a later report of it is true.
				page_set outside = unit(t, ce.e.page, ce.cont, ce.folio);
				page_set inside = outside;
				outside.subtract(s.reach);
				inside.subtract(outside);
				ledger_.make_optional(inside, flag);
				ledger_.make_pending(outside, flag, ce.e.id);
				continue;
			}
			// Ordered after the call: pending where it lands then.
			live_event ev{ce.e.id, false, flag, ce.folio, ce.e.page, ce.e.landing, ce.step,
				      unit(t, ce.e.page, ce.cont, ce.folio)};
			ledger_.make_pending(ev.pages, flag, ce.e.id);
			if (ev.pages.empty())
				lost.push_back(std::move(ev));
			else
				ledger_.add_live(std::move(ev));
		}
	}
}

// A run the call folded makes its pages' pending events the run's.
void checker::fold_runs(const ended_call& e)
{
	for (std::size_t run = geo_.run_start(e.first); run < e.last; run += geo_.cont_ptes)
		if (run_folded(e.t, run) && !run_folded(q_, run))
			ledger_.fold(run);
}

} // namespace ptespec
