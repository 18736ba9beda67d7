#include "model/checker.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/permission.h"
#include "model/pte.h"

namespace ptespec {

namespace {

unsigned own_flags(std::uint64_t e)
{
	return (pte_young(e) ? FLAG_YOUNG : 0u) | (pte_dirty(e) ? FLAG_DIRTY : 0u);
}

// An access sets young; a write sets dirty too.
unsigned hw_flags(hw_kind k) { return FLAG_YOUNG | (k == hw_kind::write ? FLAG_DIRTY : 0u); }

// Everything that must agree across the CONT entries of a run except the
// address (checked separately), the flags hardware and the flag helpers
// change, and WRITE (which may differ inside a call, see check_run_shape).
constexpr std::uint64_t run_attr_ignore = PTE_AF | PTE_DIRTY | PTE_RDONLY | PTE_WRITE;

// Write permission as a run must agree on it once a call is over: DBM set
// (hardware may then clear RDONLY entry by entry, so RDONLY may differ), or
// DBM clear and RDONLY itself, which nothing but software changes.
std::uint64_t write_key(std::uint64_t e) { return (e & PTE_WRITE) ? PTE_WRITE : e & PTE_RDONLY; }

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
	  ledger_(initial.size(), geo.cont_ptes), tlb_(hw), taken_(initial.size(), 0),
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
				if (flush_reaches(j, p.index, p.nr, p.flags)) {
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
	const std::uint64_t page_pfn = pte_pfn(e.old_value, geo_) + e.page - e.landing;
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
	judge_well_formed(t);
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
	if (c.kind == call_kind::ptep_set_access_flags && pte_valid(e.t[e.first])) {
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

// ---- The judges, one per property ----

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
// from outside it (a run straddling the range edge), or when the call
// reached outside at all.
void checker::judge_isolation(const ended_call& e)
{
	bool exposed = false;
	const std::size_t end = std::min(n_, geo_.run_start(e.last - 1) + geo_.cont_ptes);
	for (std::size_t k = geo_.run_start(e.first); k < end && !exposed; k++)
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
			  : !flush_reaches(i, f.index, f.nr, f.flags) ? "issued no TLBI for it"
								      : nullptr;
	if (!why)
		return "";
	return fmt::format(": the invalidation of #{}..#{}{} {}", f.index, f.index + f.nr - 1, flush_flag_text(f.flags),
			   why);
}

// well-formed at a store: CONT changes between valid values go through
// break-before-make (or, under BBML2, translate alike: model/tlb.h), and
// the run stays one run.
void checker::judge_well_formed(const primitive_step& p, const table_t& t)
{
	const std::uint64_t cached = tlb_.cached(p.index);
	if (!tlb_.store(p.index, p.new_value))
		report(property::well_formed, p.index,
		       tlb_.bbml2() ? fmt::format("#{} changed CONT to {:#018x} without break-before-make, but the TLB "
						  "may still hold {:#018x}, which translates differently: even BBML2 "
						  "lets a lookup answer with either",
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
		const std::uint64_t b = pte_pfn(e, geo_) - (k - first);
		const std::uint64_t a = pte_pgprot(e, geo_) & ~run_attr_ignore;
		const std::uint64_t w = write_key(e);
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

// progress: ptep_set_access_flags leaves the named entry itself granting
// what was asked, to a walker that reads it alone.  With hardware
// access/dirty management the walker sets AF itself and, through DBM,
// clears RDONLY: a valid entry grants the access, a writable one the
// write.  Without it (a CPU without HAFDBS, an SMMU without HTTU) the
// walker faults on an entry without AF, or with RDONLY for a write, and
// the fault comes back to this call: only the entry itself can end it.
void checker::judge_progress(const ended_call& e)
{
	if (e.c.kind != call_kind::ptep_set_access_flags)
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

namespace ptespec {

// ---- permission ----

// What a call asks an entry of its range to grant, given what was asked
// before: set_ptes installs the value core-mm passed, a clear takes
// everything away, wrprotect takes write away, and ptep_set_access_flags
// may add write only when the fault's entry grants it (the kernel's call
// adds AF, dirty and write permission, and never takes any away).  The
// calls that only read or clear access/dirty ask for no change: mkclean
// sets RDONLY on a writable entry, which still grants write (perms_of).
unsigned checker::asks_after(const call& c, unsigned before) const
{
	const call_semantics sem = semantics_of(c);
	if (sem.maps)
		return perms_of(c.pte);
	if (sem.unmaps)
		return 0;
	if (c.kind == call_kind::wrprotect_ptes)
		return before & ~PERM_WRITE;
	if (c.kind == call_kind::ptep_set_access_flags && before)
		return before | (perms_of(c.pte) & PERM_WRITE);
	return before;
}

// At a call's beginning its entries may grant the old ask or the new one
// until it ends; at its end only the new one.
void checker::set_asks(const call& c, bool ended)
{
	const std::size_t last = std::min(range_end(c), n_);
	for (std::size_t p = c.index; p < last; p++) {
		const unsigned after = asks_after(c, asked_[p]);
		if (ended)
			asked_[p] = allowed_[p] = after;
		else
			allowed_[p] = asked_[p] | after;
	}
}

// The permissions hardware may use for each valid page of a run: its own
// entry; for a CONT entry, any valid CONT entry of the run (the TLB may
// cache a walk of one as the translation of the whole run); and the CONT
// translation the TLB may still hold of a cleared entry of the run, which
// covers every page of it until a flush reaches the run.  A cleared page
// is left out: what the TLB still holds for it is the clearing caller's to
// flush, as core-mm does at the end of a zap, and so is what it holds for
// the pages of the call's own range.  (A translation left beside a changed
// entry -- BBML2's stale one, or a write-protected entry's old value -- is
// the flush core-mm makes after the call, which the shadow does not see
// for fork: it is not judged here; a repaint that changes permission
// without a flush is well-formed's.)
bool checker::judge_run_permission(const table_t& t, std::size_t run, const std::string& when)
{
	const std::size_t last = std::min(run + geo_.cont_ptes, n_);
	unsigned table_cont = 0, tlb_cont = 0;
	for (std::size_t k = run; k < last; k++) {
		if (pte_valid_cont(t[k]))
			table_cont |= perms_of(t[k]);
		if (!run_wide_in_tlb(k))
			continue;
		if (pte_valid_cont(tlb_.cached(k)))
			tlb_cont |= perms_of(tlb_.cached(k));
	}
	bool any = false;
	for (std::size_t k = run; k < last; k++) {
		if (!pte_valid(t[k]))
			continue;
		any = true;
		// In the call's range the TLB is the caller's to flush: core-mm
		// flushes what it cleared once the call is done.
		const bool in_range = k >= cur_.index && k < range_end(cur_);
		unsigned g = perms_of(t[k]) | (in_range ? 0u : tlb_cont);
		if (pte_cont(t[k]))
			g |= table_cont;
		const unsigned extra = g & ~allowed_[k];
		if (extra) {
			report(property::permission, k,
			       fmt::format("{} #{} grants {} through {}, but the calls asked it for {}", when, k,
					   perm_names(extra), grant_source(t, k, extra), perm_names(allowed_[k])));
			break;
		}
	}
	return any;
}

// Entry k's CONT translations in the TLB shadow may still cover every page
// of its run: no flush has reached the run since they were cached.
bool checker::run_wide_in_tlb(std::size_t k) const
{
	return cached_at_[k] >= run_flushed_at_[k / geo_.cont_ptes];
}

// Which translation gave page `page` the permissions in `extra`.
std::string checker::grant_source(const table_t& t, std::size_t page, unsigned extra) const
{
	if (perms_of(t[page]) & extra)
		return fmt::format("its own entry {:#018x}", t[page]);
	const std::size_t run = geo_.run_start(page);
	for (std::size_t k = run; k < run + geo_.cont_ptes && k < n_; k++)
		if (pte_valid_cont(t[k]) && pte_cont(t[page]) && (perms_of(t[k]) & extra))
			return fmt::format("#{}'s CONT translation ({:#018x})", k, t[k]);
	for (std::size_t k = run; k < run + geo_.cont_ptes && k < n_; k++)
		if (run_wide_in_tlb(k) && pte_valid_cont(tlb_.cached(k)) && (perms_of(tlb_.cached(k)) & extra))
			return fmt::format("a CONT translation of cleared #{} the TLB may still hold ({:#018x})", k,
					   tlb_.cached(k));
	return "?";
}

// permission at a store: the value stored, and the run it joins.
void checker::judge_permission(const primitive_step& p, const table_t& t)
{
	if (!pte_valid(p.new_value) || seen(property::permission))
		return;
	exercise(property::permission);
	judge_run_permission(t, geo_.run_start(p.index), fmt::format("when {} stored {:#018x} into #{},", describe(cur_),
								       p.new_value, p.index));
}

// permission at a call end: every run the call's range or its stores
// reached, now that its entries answer to what it asked.
void checker::judge_permission(const ended_call& e)
{
	if (seen(property::permission))
		return;
	std::vector<std::size_t> runs;
	for (std::size_t run = geo_.run_start(e.first); run < e.last; run += geo_.cont_ptes)
		runs.push_back(run);
	for (std::size_t k : touched_)
		runs.push_back(geo_.run_start(k));
	std::sort(runs.begin(), runs.end());
	runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
	bool any = false;
	const std::string when = fmt::format("after {}", describe(e.c));
	for (std::size_t run : runs)
		any = judge_run_permission(e.t, run, when) || any;
	if (any)
		exercise(property::permission);
}

} // namespace ptespec
