// The reference spec as a judge of the named properties (model/property.h).
//
// The checker watches a stream of steps (online, from a machine, or replayed
// from a history) and keeps the ledger (model/event_ledger.h): which
// access/dirty events are pending for which page, which are live (not yet
// handed off or consumed).  At every call boundary it judges the call against
// each named property, one judge per property, and records the first
// violation of each, with the step and the page.  It sees
// only steps: it cannot know which strategy produced them.
//
// Linearizability: an event that lands while a call runs may be ordered
// before or after it.  The checker orders it before when that explains the
// call's result (the call reported or consumed it), after otherwise; an
// event ordered after must then still be pending, and visible, afterwards.
// An event ordered before is what it would be had it landed just before the
// call began: discharged, yet still owed to the pages of its unit outside
// the call's reach, and optional (reportable, not owed) inside it.
//
// Flags in the initial table are events with the unit of the entry holding
// them, like a hardware event that had landed there.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/call.h"
#include "model/event_ledger.h"
#include "model/hardware_options.h"
#include "model/history.h"
#include "model/observer.h"
#include "model/page_set.h"
#include "model/property.h"
#include "model/tlb.h"

namespace ptespec {

// What the reference ptep_get reads for page p of a quiescent table: the
// entry's own flags, or the OR over the valid CONT entries of its run.
unsigned ref_flags(const table_t& t, const geometry& geo, std::size_t p);
// An entry's own young and dirty, as FLAG_* bits.
unsigned own_flags(std::uint64_t e);

class checker : public observer {
public:
	// `hw`: the hardware the history ran on; BBML2 changes what
	// break-before-make requires (model/tlb.h).
	checker(geometry geo, std::vector<folio_extent> folios, const table_t& initial, hardware_options hw = {});

	void on_call_begin(const call& c, const table_t& t) override;
	void on_primitive(const primitive_step& p, const table_t& t) override;
	void on_hw_event(const hw_event& e, const table_t& t) override;
	void on_call_end(const call& c, const call_result& r, const table_t& t) override;

	// A call that never returned: the strategy livelocked in it.  Judged
	// as a failure of the property the call answers to (lockless for
	// ptep_get_lockless, progress otherwise).
	void on_call_abandoned(const call& c, const std::string& why);
	// The arch's pte_batch_hint answered n for entry i holding pte (as the
	// caller read it): it vouches that entries i..i+n-1 map pte's page and
	// the n-1 after it with pte's attributes, so a folio batch may take
	// them unread.  An answer that vouches for anything else breaks
	// per-call (the hint is an arch call, and says what is not so).
	void on_batch_hint(std::size_t i, std::uint64_t pte, std::size_t n, const table_t& t);
	// A call that ended at a primitive outside the table: an entry access
	// there breaks isolation (memory past the page table is not the call's
	// to touch), a TLB flush past it breaks well-formed.
	void on_fault(const fault_step& f, const table_t& t) override;

	const std::vector<violation>& violations() const { return violations_; }
	const violation* first(property p) const;
	bool failed(property p) const { return first(p) != nullptr; }
	std::size_t steps() const { return step_; }
	std::size_t calls() const { return calls_; }
	// How many judgements of p had something to judge: a call (or a store,
	// for well-formed) where the property could have failed.  A strategy
	// that never maps judges every property vacuously; zero here is what
	// tells "held" from "never exercised".
	std::uint64_t exercised(property p) const { return exercised_[static_cast<std::size_t>(p)]; }

	// Pending flags of page p (FLAG_*), required ones only.
	unsigned pending(std::size_t p) const { return ledger_.required(p); }
	// Flags a report about page p may carry (FLAG_*): required or optional.
	unsigned reportable(std::size_t p) const
	{
		return (ledger_.reportable(p, FLAG_YOUNG) ? FLAG_YOUNG : 0u) |
		       (ledger_.reportable(p, FLAG_DIRTY) ? FLAG_DIRTY : 0u);
	}
	// What the checker's TLB shadow may hold (model/tlb.h).
	const tlb_shadow& tlb() const { return tlb_; }
	std::size_t live_events() const { return ledger_.live_events(); }
	// The ledger, one line per live event, for demos and counterexamples.
	std::string ledger() const { return ledger_.text(); }

private:
	struct call_event {
		hw_event e;
		std::size_t step = 0;
		bool cont = false;
		long folio = 0;
		page_set unit_pre;
	};
	struct lockless_read {
		call c;
		std::vector<std::uint64_t> seen;
		unsigned pending_at_begin = 0;	// required flags of the page when it began
	};
	// A call at its end, as the judges see it: q_ still holds the table
	// before it, t the table after.
	struct ended_call {
		const call& c;
		const call_result& r;
		const table_t& t;
		call_semantics sem;
		std::size_t first = 0, last = 0;	// its range, [first, last)
		page_set range;
		bool young_only = false;	// it answers young only, as a bool
		unsigned reported = 0;	// what it reported, as flags
		unsigned reportable = 0;	// the flags it can report
	};

	long folio_key(std::uint64_t pte) const;
	long folio_of_page(const table_t& t, std::size_t p) const;
	page_set unit(const table_t& t, std::size_t page, bool cont, long folio) const;
	bool run_folded(const table_t& t, std::size_t run_first) const;
	// Whether a consuming call may widen to entry k of the run at
	// run_first: k maps a page of `folio`, and the run is folded or k is
	// a PROT_NONE entry with CONT (contpte_set_ptes sets CONT only on a
	// whole run of one folio, and zap may clear part of such a run, since
	// only a valid run is unfolded first).
	bool widens_to(const table_t& t, std::size_t run_first, std::size_t k, long folio) const;
	void report(property p, std::size_t page, std::string msg);
	void exercise(property p) { exercised_[static_cast<std::size_t>(p)]++; }
	bool seen(property p) const { return seen_[static_cast<std::size_t>(p)]; }
	void note_lockless_reads(const table_t& t);
	void forget_lockless(std::size_t index);

	// The ledger at a call end: what the call discharged, the flags it set
	// itself, where the events that landed during it are ordered, and the
	// runs it folded.
	ended_call ending(const call& c, const call_result& r, const table_t& t) const;
	settlement settlement_of(const ended_call& e) const;
	void add_software_event(std::size_t page, unsigned flag, long folio, const page_set& pages, bool latest);
	void add_call_set_flags(const ended_call& e);
	void order_call_events(const settlement& s, const table_t& t, std::vector<live_event>& lost);
	void fold_runs(const ended_call& e);

	// One judge per property, in the order of model/property.h.
	void judge_batch_or(const ended_call& e);
	void judge_no_loss(const ended_call& e, const std::vector<live_event>& lost);
	void judge_per_call(const ended_call& e);
	void judge_precise(const ended_call& e);
	void judge_precise_flags(const ended_call& e);
	void judge_isolation(const ended_call& e);
	void judge_well_formed(const primitive_step& p, const table_t& t);
	void judge_well_formed(const table_t& t);
	void check_run_shape(const table_t& t, std::size_t i, bool at_boundary);
	void judge_lockless(const call& c, const call_result& r);
	void judge_progress(const ended_call& e);
	void judge_permission(const primitive_step& p, const table_t& t);
	void judge_permission(const ended_call& e);
	void judge_mapping(const primitive_step& p);
	void judge_hugepage_cleared(const ended_call& e);
	void judge_range_flushed(const ended_call& e);
	bool judge_run_permission(const table_t& t, std::size_t run, const std::function<std::string()>& when);
	unsigned asks_after(const call& c, unsigned before) const;
	void set_asks(const call& c, bool ended);
	std::string grant_source(const table_t& t, std::size_t page, unsigned extra) const;
	bool run_wide_in_tlb(std::size_t k) const;

	geometry geo_;
	std::vector<folio_extent> folios_;
	std::size_t n_;
	table_t q_;	// the table at the last quiescent point
	event_ledger ledger_;
	tlb_shadow tlb_;

	bool in_call_ = false;
	call cur_;
	std::vector<call_event> call_events_;
	std::vector<std::uint64_t> taken_;	// per entry: value cleared out during the call (0: none)
	std::vector<std::size_t> touched_;
	std::vector<std::uint8_t> touched_mark_;
	std::vector<lockless_read> lockless_;
	std::vector<int> run_or_;	// per run, the folded OR at a call end (-1: not yet)
	// Per entry, the permissions (PERM_*) the calls asked it to grant, and
	// what it may grant right now: the same, but while a call runs, for the
	// entries in its range, what was asked before or what the call asks --
	// a call changes its entries one store at a time.
	std::vector<unsigned> asked_;
	std::vector<unsigned> allowed_;
	// When each entry's translation last went into the TLB shadow, and when
	// a flush last reached each run: a TLBI by the address of any page of a
	// run evicts a translation cached for the whole run, so a CONT
	// translation older than that covers only its own page, if any.
	std::vector<std::size_t> cached_at_;
	std::vector<std::size_t> run_flushed_at_;
	// The last TLB invalidation and its step, to say why a translation
	// cached before it outlived it.
	std::optional<primitive_step> last_flush_;
	std::size_t last_flush_at_ = 0;
	std::string missed_by_last_flush(std::size_t i) const;
	// Per page and flag (young, dirty): the last call that consumed it
	// there, so an imprecise report can say where its events went.
	struct consumption {
		call c;
		std::size_t step = 0;
		bool known = false;
	};
	std::vector<std::array<consumption, 2>> consumed_by_;
	void note_consumption(const ended_call& e, const settlement& s);
	std::string consumed_flag_cause(const ended_call& e, unsigned flag) const;

	std::vector<violation> violations_;
	std::array<bool, nr_properties> seen_{};
	std::array<std::uint64_t, nr_properties> exercised_{};
	std::size_t step_ = 0;
	std::size_t calls_ = 0;
};

} // namespace ptespec
