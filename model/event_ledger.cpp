#include "model/event_ledger.h"

#include <algorithm>

#include <fmt/format.h>

namespace ptespec {

namespace {

// Map-time and call-set events carry a tag bit, so hardware event e3 and
// map-time event m3 never print alike.
constexpr std::uint64_t software_id_bit = std::uint64_t{1} << 63;

constexpr unsigned req(unsigned flag) { return flag; }
constexpr unsigned opt(unsigned flag) { return flag << 2; }

} // namespace

std::string flag_name(unsigned f)
{
	switch (f & 3u) {
	case 0: return "old+clean";
	case FLAG_YOUNG: return "young";
	case FLAG_DIRTY: return "dirty";
	default: return "young+dirty";
	}
}

std::string event_name(std::uint64_t id)
{
	return (id & software_id_bit) ? fmt::format("m{}", id & ~software_id_bit) : fmt::format("e{}", id);
}

event_ledger::event_ledger(std::size_t nr_pages, std::size_t cont_ptes)
	: n_(nr_pages), cont_ptes_(cont_ptes), pend_(nr_pages, 0), pend_src_(nr_pages, {0, 0}),
	  live_(nr_pages / cont_ptes + 1), run_dirty_(nr_pages / cont_ptes + 1, 0)
{
}

void event_ledger::make_pending(const page_set& pages, unsigned flag, std::uint64_t id, bool latest)
{
	pages.for_each([&](std::size_t p) {
		if (latest || !(pend_[p] & req(flag)))
			pend_src_[p][flag - 1] = id;
		pend_[p] |= static_cast<std::uint8_t>(req(flag));
	});
}

void event_ledger::make_optional(const page_set& pages, unsigned flag)
{
	pages.for_each([&](std::size_t p) { pend_[p] |= static_cast<std::uint8_t>(opt(flag)); });
}

std::uint64_t event_ledger::software_id() { return software_id_bit | ++sw_ids_; }

void event_ledger::mark_run(std::size_t run)
{
	if (!run_dirty_[run]) {
		run_dirty_[run] = 1;
		dirty_runs_.push_back(run);
	}
}

void event_ledger::add_live(live_event ev)
{
	const std::size_t run = ev.page / cont_ptes_;
	for (const auto& l : live_[run])
		if (l.flag == ev.flag && l.pages == ev.pages)
			return;
	mark_run(run);
	live_[run].push_back(std::move(ev));
}

bool event_ledger::discharges(const settlement& s, unsigned flag, const page_set& pages)
{
	// Handed off to the caller, who acts per folio: a report covers the
	// pages its consumption widened to as well.
	if (s.sem.hands_off && (s.reported & flag) && pages.intersects(s.reach))
		return true;
	return !s.sem.reports && (s.consumed & flag) && pages.intersects(s.reach);	// consumed
}

void event_ledger::settle(const settlement& s, std::vector<live_event>& lost)
{
	const bool rewrites = s.sem.unmaps || s.sem.maps;
	const std::size_t first_run = s.first / cont_ptes_, end_run = (s.last - 1) / cont_ptes_ + 1;
	for (std::size_t run = first_run; run < end_run; run++) {
		mark_run(run);
		auto& bucket = live_[run];
		bucket.erase(std::remove_if(bucket.begin(), bucket.end(),
				   [&](live_event& l) {
					   if (discharges(s, l.flag, l.pages))
						   return true;
					   if ((s.consumed & l.flag) || rewrites) {
						   l.pages.subtract(s.range);	// gone from these pages only
						   l.step_checked = unchecked;	// its visibility must be judged anew
					   }
					   if (!l.pages.empty())
						   return false;
					   lost.push_back(l);	// no page holds it any more
					   return true;
				   }),
		    bucket.end());
	}

	// The range owes nothing of what it consumed, nor anything once it is
	// rewritten; a widened page may still report what the call consumed
	// there, but no longer owes it.
	for (std::size_t p = s.first; p < s.last; p++) {
		pend_[p] &= static_cast<std::uint8_t>(~(req(s.consumed) | opt(s.consumed)));
		if (rewrites)
			pend_[p] = 0;
	}
	s.widened.for_each([&](std::size_t p) {
		const unsigned r_bits = pend_[p] & req(s.consumed);
		pend_[p] = static_cast<std::uint8_t>((pend_[p] & ~r_bits) | (r_bits << 2));
	});
}

void event_ledger::fold(std::size_t run_first)
{
	page_set all(n_);
	std::uint8_t u = 0;
	for (std::size_t k = run_first; k < run_first + cont_ptes_; k++) {
		all.add(k);
		u |= pend_[k];
	}
	for (std::size_t k = run_first; k < run_first + cont_ptes_; k++)
		pend_[k] |= u;
	for (auto& l : live_[run_first / cont_ptes_])
		if (l.pages.intersects(all)) {
			l.pages.unite(all);
			l.step_checked = unchecked;
		}
}

std::size_t event_ledger::live_events() const
{
	std::size_t n = 0;
	for (const auto& b : live_)
		n += b.size();
	return n;
}

std::string event_ledger::text() const
{
	std::string out;
	for (const auto& bucket : live_) {
		for (const auto& l : bucket) {
			std::string pages;
			l.pages.for_each([&](std::size_t p) { pages += fmt::format("{}#{}", pages.empty() ? "" : ",", p); });
			out += fmt::format("  {} {:<5} page #{} landed #{} pending for {}\n", event_name(l.id),
					   flag_name(l.flag), l.page, l.landing, pages);
		}
	}
	return out;
}

} // namespace ptespec
