// The checker's ledger: which access/dirty events each page still owes, and
// which events are live (landed, not yet handed off or consumed).
//
// Per page it keeps the flags pending for it, in two kinds: required (a
// report about the page must include them, and some page of the event must
// still show them) and optional (true if reported, owed by nobody: an event
// a call discharged that may still sit in the entry it updated).  It knows
// pages and runs only; what a table entry maps, and so which pages an
// event's unit covers, is the checker's to say.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/call.h"
#include "model/page_set.h"

namespace ptespec {

// Flags as the spec counts them: bit 0 young, bit 1 dirty.
inline constexpr unsigned FLAG_YOUNG = 1;
inline constexpr unsigned FLAG_DIRTY = 2;

// A set of flags in words: "old+clean", "young", "dirty", "young+dirty".
std::string flag_name(unsigned f);
// An event as the ledger and the checker's messages name it: e<n> for a
// hardware event, m<n> for one present at map time or set by a call.
std::string event_name(std::uint64_t id);

struct live_event {
	std::uint64_t id = 0;
	bool software = false;	// present at map time or set by a call
	unsigned flag = 0;	// FLAG_YOUNG or FLAG_DIRTY
	long folio = 0;
	std::size_t page = 0, landing = 0, step = 0;
	page_set pages;	// pages it is pending for
	// The call end that last judged it visible; reset whenever its pages
	// change, so it is judged again.
	std::size_t step_checked = static_cast<std::size_t>(-1);
};

// What a call did to the events of the pages it reached.
struct settlement {
	call_semantics sem;
	unsigned reported = 0;	// flags the call reported (FLAG_*)
	unsigned consumed = 0;	// flags the call consumes
	std::size_t first = 0, last = 0;	// its range, [first, last)
	page_set range;
	page_set widened;	// pages of folded runs its consumption widened to
	page_set reach;	// range and widened
};

class event_ledger {
public:
	event_ledger(std::size_t nr_pages, std::size_t cont_ptes);

	// Required flags of page p.
	unsigned required(std::size_t p) const { return pend_[p] & 3u; }
	// flag is pending for p, required or optional: a report of it is true.
	bool reportable(std::size_t p, unsigned flag) const { return (pend_[p] & (flag | flag << 2)) != 0; }
	// An event behind p's required flag, 0 when none was recorded.
	std::uint64_t source(std::size_t p, unsigned flag) const { return pend_src_[p][flag - 1]; }

	// Makes flag required for every page of pages, owed to event id.  A page
	// that owed it already keeps naming the event it owed it to first,
	// unless `latest`: a flag a call sets itself is named after that call.
	void make_pending(const page_set& pages, unsigned flag, std::uint64_t id, bool latest = false);
	// Makes flag optional for every page of pages.
	void make_optional(const page_set& pages, unsigned flag);

	// A fresh id for an event no hardware recorded.
	std::uint64_t software_id();
	// Records ev as live.  Events of one flag pending for the same pages are
	// indistinguishable from then on: the oldest is kept.
	void add_live(live_event ev);

	// Whether the call discharged an event of flag pending for pages: it
	// reported the flag about a page of them and hands it off, or it
	// consumed the flag on a page it reached without reporting.
	static bool discharges(const settlement& s, unsigned flag, const page_set& pages);
	// The call's effect on the live events of its range and on the pending
	// flags of the pages it reached.  Events no page holds any more go to lost.
	void settle(const settlement& s, std::vector<live_event>& lost);
	// The run starting at page run_first became folded: its pages' pending
	// flags and events become the whole run's.
	void fold(std::size_t run_first);

	// Runs to look at when the current call ends.
	void mark_run(std::size_t run);
	// Judges at a call end the live events of the marked runs: an event
	// already judged visible is judged again only when its pages changed
	// since or meet written.  Events not visible leave the ledger and go to
	// vanished, in order.  Returns how many non-empty runs were looked at.
	template <class Visible>
	std::size_t sweep(const page_set& written, std::size_t at_step, Visible&& visible,
			  std::vector<live_event>& vanished);

	std::size_t live_events() const;
	// One line per live event, for demos and counterexamples.
	std::string text() const;

private:
	static constexpr std::size_t unchecked = static_cast<std::size_t>(-1);

	std::size_t n_, cont_ptes_;
	std::vector<std::uint8_t> pend_;	// per page: bits 0-1 required, 2-3 optional
	std::vector<std::array<std::uint64_t, 2>> pend_src_;	// an event behind each required flag
	// Live events by run: a unit never leaves its run, so a call need only
	// look at the runs it covers, writes, or adds events to.
	std::vector<std::vector<live_event>> live_;
	std::vector<std::uint8_t> run_dirty_;
	std::vector<std::size_t> dirty_runs_;
	std::uint64_t sw_ids_ = 0;
};

template <class Visible>
std::size_t event_ledger::sweep(const page_set& written, std::size_t at_step, Visible&& visible,
				std::vector<live_event>& vanished)
{
	std::size_t looked = 0;
	for (std::size_t run : dirty_runs_) {
		run_dirty_[run] = 0;
		auto& bucket = live_[run];
		if (!bucket.empty())
			looked++;
		std::size_t kept = 0;
		for (std::size_t i = 0; i < bucket.size(); i++) {
			live_event& l = bucket[i];
			const bool fresh = l.step_checked == unchecked;
			l.step_checked = at_step;
			if ((!fresh && !l.pages.intersects(written)) || visible(l)) {
				if (kept != i)
					bucket[kept] = std::move(l);
				kept++;
			} else {
				vanished.push_back(std::move(l));
			}
		}
		bucket.erase(bucket.begin() + static_cast<std::ptrdiff_t>(kept), bucket.end());
	}
	dirty_runs_.clear();
	return looked;
}

} // namespace ptespec
