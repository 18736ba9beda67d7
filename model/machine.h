// The machine strategies run on: a page table that software touches only
// through its primitives (read, write, exchange, compare-exchange as
// atomic_update, TLB invalidation), each a scheduling point where the
// hardware agent may act, each counted for the cost model.
//
// basic_machine<W> hands strategies words of type W (uint64_t, or an
// instrumented word); the table itself is concrete.  The symbolic machine of
// the proofs offers the same interface over Z3 words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <vector>

#include "model/call.h"
#include "model/coverage.h"
#include "model/errors.h"
#include "model/geometry.h"
#include "model/hardware.h"
#include "model/hardware_options.h"
#include "model/observer.h"
#include "model/pte.h"
#include "model/tlb.h"
#include "model/word.h"

namespace ptespec {

struct cost_counters {
	std::uint64_t reads = 0;
	std::uint64_t writes = 0;
	std::uint64_t atomics = 0;
	std::uint64_t tlbi_page = 0;
	std::uint64_t tlbi_range = 0;
	std::uint64_t tlbi_all = 0;
	std::uint64_t hw_events = 0;

	std::uint64_t tlbis() const { return tlbi_page + tlbi_range + tlbi_all; }
};

template <class W = std::uint64_t>
class basic_machine final : private hw_port {
public:
	using word = W;
	using boolean = boolean_of<W>;

	basic_machine(geometry geo, std::size_t nr_entries, hardware_options hw = {})
		: geo_(geo), features_(hw), table_(nr_entries, 0), tlb_(hw, geo.level)
	{
		tlb_.reset(table_);
	}

	const geometry& geo() const { return geo_; }
	// What the CPU supports, as the kernel's system_supports_*() tests ask.
	const hardware_options& features() const { return features_; }
	std::size_t size() const { return table_.size(); }

	// --- the primitives (all a strategy may do to the table) ---

	W read(std::size_t i)	// __ptep_get
	{
		schedule(i);
		cost_.reads++;
		const std::uint64_t v = table_[i];
		notify({prim_kind::read, i, 1, v, v});
		return word_ops<W>::from(v);
	}

	void write(std::size_t i, const W& v)	// __set_pte
	{
		schedule(i);
		cost_.writes++;
		store(prim_kind::write, i, word_ops<W>::value(v));
	}

	W exchange(std::size_t i, const W& v)	// xchg; __ptep_get_and_clear is exchange(i, 0)
	{
		schedule(i);
		cost_.atomics++;
		const std::uint64_t old = table_[i];
		store(prim_kind::exchange, i, word_ops<W>::value(v));
		return word_ops<W>::from(old);
	}

	// A cmpxchg loop whose new value is a pure function of the old: it
	// takes effect atomically.  Returns the old value.
	template <class F>
	W atomic_update(std::size_t i, F&& f)
	{
		schedule(i);
		cost_.atomics++;
		const std::uint64_t old = table_[i];
		const W nv = f(word_ops<W>::from(old));
		store(prim_kind::atomic_update, i, word_ops<W>::value(nv));
		return word_ops<W>::from(old);
	}

	// TLB invalidations; `flags` are flush_flag bits (model/history.h): 0
	// is a broadcast invalidation followed by its DSB.
	void flush_tlb_page(std::size_t i, unsigned flags = 0) { flush(prim_kind::tlbi_page, i, 1, flags); }
	void flush_tlb_range(std::size_t first, std::size_t nr, unsigned flags = 0)
	{
		flush(prim_kind::tlbi_range, first, nr, flags);
	}
	void flush_tlb_all(unsigned flags = 0) { flush(prim_kind::tlbi_all, 0, table_.size(), flags); }

	// A strategy branches on a word-derived condition only through here,
	// so the symbolic machine can fork or merge the path.
	// `at` names the strategy's branch for --coverage.
	bool branch(const boolean& c, const std::source_location& at = std::source_location::current())
	{
		const bool taken = word_ops<W>::truth(c);
		if (coverage_)
			coverage_->record(at, taken);
		return taken;
	}
	W lit(std::uint64_t v) const { return word_ops<W>::from(v); }

	// The struct-page world behind the table: which pfns form one folio.
	// A strategy may only fold a run whose pfns lie in one folio.
	boolean folio_covers(const W& first_pfn, std::size_t nr) const
	{
		const std::uint64_t pfn = word_ops<W>::value(first_pfn);
		const long f = folio_of(folios_, pfn);
		return f >= 0 && pfn + nr <= folios_[static_cast<std::size_t>(f)].first_pfn +
							folios_[static_cast<std::size_t>(f)].nr_pages;
	}

	// --- the harness side ---

	void set_folios(std::vector<folio_extent> folios) { folios_ = std::move(folios); }
	const std::vector<folio_extent>& folios() const { return folios_; }

	void set_observer(observer* o) { obs_ = o; }
	void set_coverage(branch_coverage* c) { coverage_ = c; }
	void set_hardware(hardware_agent* hw) { hw_ = hw; }
	const table_t& table() const { return table_; }
	const tlb_shadow& tlb() const { return tlb_; }
	cost_counters& cost() { return cost_; }

	// Initial contents: not a primitive, no scheduling, no observer.
	void poke(std::size_t i, std::uint64_t v)
	{
		check_index(i);
		table_[i] = v;
		tlb_.reset(table_);
	}

	// Calls may nest (a locked call running inside a lockless read): each
	// keeps its own count of scheduling points.
	void begin_call(const call& c)
	{
		saved_gaps_.push_back(gap_);
		gap_ = 0;
		depth_++;
		if (obs_)
			obs_->on_call_begin(c, table_);
	}
	void end_call(const call& c, const call_result& r)
	{
		next_ = npos;
		if (hw_)
			hw_->at_gap(*this);	// the gap after the last primitive
		depth_--;
		if (!saved_gaps_.empty()) {
			gap_ = saved_gaps_.back();
			saved_gaps_.pop_back();
		}
		if (obs_)
			obs_->on_call_end(c, r, table_);
	}
	// A call that ended by an exception (the strategy livelocked): the
	// machine forgets it without telling the observers.
	void abandon_call()
	{
		depth_--;
		if (!saved_gaps_.empty()) {
			gap_ = saved_gaps_.back();
			saved_gaps_.pop_back();
		}
	}
	// Hardware between calls.
	void idle()
	{
		gap_ = 0;
		next_ = npos;
		if (hw_)
			hw_->at_gap(*this);
	}
	void check_index(std::size_t i) const
	{
		if (i >= table_.size())
			throw internal_error("machine: entry " + std::to_string(i) + " outside a table of " +
					     std::to_string(table_.size()));
	}
	// The strategy's call c stopped at a primitive outside the table (a
	// strategy_fault): the machine forgets the call, and the observers
	// hear where it stopped.
	void fault_call(const call& c, const strategy_fault& f)
	{
		abandon_call();
		if (obs_)
			obs_->on_fault({c, f.flush, f.index, f.nr, f.table_size, f.assertion}, table_);
	}

private:
	void schedule(std::size_t i)
	{
		// A strategy's own index: past the end is its bug, refused before
		// the scheduling point (the step never happens).
		if (i >= table_.size())
			throw strategy_fault(false, i, 1, table_.size());
		next_ = i;
		if (hw_)
			hw_->at_gap(*this);
		gap_++;
	}
	void notify(const primitive_step& p)
	{
		if (obs_)
			obs_->on_primitive(p, table_);
	}
	void store(prim_kind k, std::size_t i, std::uint64_t v)
	{
		const std::uint64_t old = table_[i];
		table_[i] = v;
		tlb_.store(i, v);
		notify({k, i, 1, old, v});
	}
	void flush(prim_kind k, std::size_t first, std::size_t nr, unsigned flags)
	{
		if (nr == 0)
			return;
		// Refuse a bad range before the scheduling point, like every other
		// primitive: the hardware must not act for a step that never happens.
		if (first + nr > table_.size() || first + nr < first)
			throw strategy_fault(true, first, nr, table_.size());
		schedule(first);
		flags = flush_hint_for(flags, geo_.page_shift);
		if (k == prim_kind::tlbi_page)
			cost_.tlbi_page++;
		else if (k == prim_kind::tlbi_range)
			cost_.tlbi_range++;
		else
			cost_.tlbi_all++;
		tlb_.flush(first, nr, table_, flags);
		notify({k, first, nr, 0, 0, flags});
	}

	// hw_port
	std::size_t nr_pages() const override { return table_.size(); }
	std::size_t gap() const override { return gap_; }
	std::size_t next_index() const override { return next_; }
	void candidates(std::size_t page, hw_kind kind, std::vector<std::size_t>& out) const override
	{
		hw_candidates(table_, tlb_, geo_, page, kind, out, features_);
	}
	bool fire(hw_kind kind, std::size_t page, std::size_t landing) override
	{
		candidates(page, kind, cand_);
		bool ok = false;
		for (std::size_t c : cand_)
			ok = ok || c == landing;
		if (!ok)
			return false;
		const std::uint64_t old = table_[landing];
		table_[landing] = hw_update(old, kind);
		tlb_.store(landing, table_[landing]);
		cost_.hw_events++;
		if (obs_)
			obs_->on_hw_event({++hw_ids_, kind, page, landing, old, table_[landing]}, table_);
		return true;
	}

	geometry geo_;
	hardware_options features_;
	std::vector<folio_extent> folios_;
	table_t table_;
	tlb_shadow tlb_;
	cost_counters cost_;
	observer* obs_ = nullptr;
	hardware_agent* hw_ = nullptr;
	branch_coverage* coverage_ = nullptr;
	std::size_t gap_ = 0;
	std::size_t next_ = npos;
	std::vector<std::size_t> saved_gaps_;
	int depth_ = 0;
	std::uint64_t hw_ids_ = 0;
	mutable std::vector<std::size_t> cand_;
};

using machine = basic_machine<std::uint64_t>;

} // namespace ptespec
