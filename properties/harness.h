// One strategy on one machine, driven by the core-mm callers (mm/callers.h),
// with a racing hardware agent and the checker watching every step.
//
// The callers keep the kernel's rules unless the world is adversarial:
// they walk ranges low to high, read each entry with ptep_get before
// acting on it, batch a folio's consecutive entries, map with nr > 1 only
// over entries that are not present, and write non-present values only into
// cleared entries.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "impl/strategy.h"
#include "mm/caller.h"
#include "mm/caller_rules.h"
#include "mm/callers.h"
#include "model/checker.h"
#include "model/hardware.h"
#include "model/machine.h"
#include "model/word_coverage.h"
#include "properties/world.h"

namespace ptespec {

// A hardware event planned for the `call`-th call of a command: an access
// or write to `page`, recorded in `entry` (when the architecture lets it
// land there; otherwise in the candidate entry % their number), just before
// the `nth` primitive of that call that touches `entry` -- or at the end of
// the call if it touches `entry` fewer times.  Placing events relative to
// the primitives on their own entry (not by a global step count) is what
// makes one-step windows, such as between a read of an entry and a plain
// write back to it, likely rather than rare.
struct hw_plan_event {
	std::size_t call = 0;
	std::size_t entry = 0;
	std::size_t nth = 0;
	hw_kind kind = hw_kind::access;
	std::size_t page = 0;
};

class harness;

// A locked call that runs beside a lockless read, primitive by primitive:
// two step machines over one table.  The writer runs on a thread of its
// own, and the two threads pass one baton, so exactly one of them runs at
// any moment and the order of their steps is decided here alone (the same
// seed gives the same interleaving).  The reader lets the writer make
// `stride` primitives at each of its own gaps (0: the rest of the call).
class interleaved_writer {
public:
	interleaved_writer() = default;
	interleaved_writer(const interleaved_writer&) = delete;
	interleaved_writer& operator=(const interleaved_writer&) = delete;
	~interleaved_writer() { finish_quietly(); }

	bool running() const { return t_.joinable(); }
	bool on_writer_thread() const { return running() && std::this_thread::get_id() == t_.get_id(); }
	// Reader's thread: starts `body` and returns once the writer reaches
	// its first gap (or ends).
	void start(std::function<void()> body, std::size_t stride);
	// Reader's thread, at one of its gaps: the writer's next steps.
	void step();
	// Reader's thread, after the read: the rest of the writer, then join.
	// Rethrows what the writer threw (a property it broke).
	void finish();
	// Writer's thread, at each of its gaps.
	void at_writer_gap();
	// The read stopped by an exception: the writer runs to its end and
	// what it threw is dropped (the case is over).
	void finish_quietly();

private:
	void hand_to_writer(std::size_t allowance);
	std::thread t_;
	std::mutex mu_;
	std::condition_variable cv_;
	bool writer_turn_ = false;
	bool done_ = false;
	std::size_t stride_ = 1;
	std::size_t allowance_ = 0;	// writer gaps left before the baton goes back; 0: no limit
	std::exception_ptr error_;
};

class scheduled_hardware : public hardware_agent {
public:
	explicit scheduled_hardware(harness& h) : h_(h) {}
	// A locked call to run beside the next lockless read from its gap g,
	// `stride` of its primitives at each later gap of the read (0: whole
	// inside gap g).
	void interleave(std::optional<call> writer, std::size_t g, std::size_t stride)
	{
		writer_ = std::move(writer);
		writer_gap_ = g;
		stride_ = stride;
	}
	interleaved_writer& writer_thread() { return iw_; }
	// Whether the step being made is the writer's (on its thread, or run
	// whole inside one of the read's gaps).
	bool in_writer() const { return inline_writer_ || iw_.on_writer_thread(); }
	// The writer if the read ended before its gap came (it then runs after
	// the read: the callers' model expects it to have happened).
	std::optional<call> take_writer()
	{
		std::optional<call> w = std::move(writer_);
		writer_.reset();
		return w;
	}
	void plan(const std::vector<hw_plan_event>& events)
	{
		plan_ = &events;
		call_ = 0;
		fired_.assign(events.size(), false);
	}
	// The plan is kept by reference until clear(): a temporary would dangle.
	void plan(std::vector<hw_plan_event>&&) = delete;
	void clear() { plan_ = nullptr; }
	void next_call()
	{
		call_++;
		for (std::size_t i : touched_)
			touches_[i] = 0;
		touched_.clear();
	}
	void at_gap(hw_port& port) override;

private:
	harness& h_;
	const std::vector<hw_plan_event>* plan_ = nullptr;
	std::size_t call_ = 0;
	std::optional<call> writer_;
	std::size_t writer_gap_ = 0;
	std::size_t stride_ = 0;
	interleaved_writer iw_;
	bool inline_writer_ = false;
	std::vector<bool> fired_;
	std::vector<std::uint32_t> touches_;	// per entry, primitives on it so far in this call
	std::vector<std::size_t> touched_;
	std::vector<std::size_t> cand_;
};

// Raised inside a command when the property under judgement fails, so the
// command stops at the offending call -- or when the caller broke one of
// the caller rules (`breach`), so the call never reached the strategy and
// the case fails on the caller's account.
struct property_failed {
	violation v;
	std::optional<mm::caller_breach> breach;
};

// The harness is the callers' sink: every call they make runs here, under
// the checker.
class harness : public mm::call_sink {
public:
	// A bare harness runs the same callers with no checker and no hardware:
	// the baseline the checked run is measured against.
	harness(strategy& s, const world_layout& w, std::optional<property> judged, history* record = nullptr,
		bool bare = false);

	machine& mach() { return m_; }
	const checker& judge() const { return chk_; }
	const world_layout& layout() const { return w_; }
	std::uint64_t calls() const { return calls_; }

	// The caller variant whose batches the walks below make (mm/caller.h);
	// core-mm's until set.
	void set_caller(const mm::caller& c) { caller_ = &c; }
	// Off: the caller rules are not checked, and every call reaches the
	// strategy (what the rules protect, in the tests).
	void set_caller_rules(bool on) { caller_rules_ = on; }
	// On: a bare harness checks the caller rules too (a breach throws
	// property_failed as on a checked one), without the checker's cost --
	// the cost model's whole-process workload, whose checked run would be
	// quadratic in its folios.
	void set_bare_caller_rules(bool on) { bare_caller_rules_ = on; }
	const mm::caller& caller() const { return *caller_; }

	// Records the fields of the words that reach the strategy into w
	// (--coverage); nullptr records nothing.
	void set_word_coverage(word_coverage* w);

	// Hands the calls to a watcher of the caller's own until unwatch():
	// every step goes to `o`, and the scheduling points to `hw` (an
	// enumerator of placements; nullptr: the planned agent, which follows
	// begin_command's plan).  So explore runs the callers on a bare
	// harness under its own checker and tracer.
	void watch(observer& o, hardware_agent* hw);
	void unwatch();

	// The table as the strategy left it.
	const table_t& table() const { return m_.table(); }
	// Sets entry k to v outside any call: the state a scenario starts
	// from, put there before anyone watches.
	void preset(std::size_t k, std::uint64_t v) { m_.poke(k, v); }
	// What the calls so far cost in primitives and TLB invalidations.
	cost_counters& cost() { return m_.cost(); }

	// Brackets one caller action (a command): hardware follows `plan`;
	// batches are cut after `batch_limit` entries (0: as core-mm finds them).
	// The plan is kept by reference until end_command, so a temporary is
	// refused.
	void begin_command(const std::vector<hw_plan_event>& plan, std::size_t batch_limit = 0)
	{
		hw_.plan(plan);
		batch_limit_ = batch_limit;
	}
	void begin_command(std::vector<hw_plan_event>&& plan, std::size_t batch_limit = 0) = delete;
	void end_command()
	{
		hw_.clear();
		batch_limit_ = 0;
	}

	// --- the callers (mm/callers.h), over this harness's world ---
	void fault_map(std::size_t first, std::size_t nr, std::uint64_t prot);
	void fault_pages(std::size_t first, std::size_t nr, std::uint64_t prot);
	void fault_around(std::size_t first, std::size_t last, std::uint64_t prot);
	void zap(std::size_t first, std::size_t last, bool full, bool batched, bool anon);
	void fork_wrprotect(std::size_t first, std::size_t last);
	void madv_free(std::size_t first, std::size_t last);
	// folio_referenced_one over [first, last) (one VMA's part of a folio):
	// per folio batch with `batched`, otherwise an entry at a time.
	void reclaim(std::size_t first, std::size_t last, bool flush, bool batched);
	void access_fault(std::size_t page, bool write, bool reuse = false);
	// change_pte_range over [first, last) to the protection `newprot`.
	void mprotect(std::size_t first, std::size_t last, std::uint64_t newprot);
	void swap_out(std::size_t page, std::uint64_t swp);
	// NUMA balancing: the scan's change_prot_numa over [first, last), and
	// the hinting fault on `page` that gives its folio's pages back their
	// VMA's protection (read-only, made young).
	void numa_scan(std::size_t first, std::size_t last);
	void numa_fault(std::size_t page);
	// MADV_COLD over [first, last).
	void madv_cold(std::size_t first, std::size_t last);
	// MADV_GUARD_INSTALL / MADV_GUARD_REMOVE over [first, last).
	void guard_install(std::size_t first, std::size_t last);
	void guard_remove(std::size_t first, std::size_t last);
	// mremap moving [first, last) out of the table (move_ptes).
	void mremap_away(std::size_t first, std::size_t last);
	// Migration of the folio holding `page`: try_to_migrate over its pages
	// in the table, its migration entries placing young and dirty for
	// MAX_PHYSMEM_BITS `phys_bits`; and the migration undone
	// (remove_migration_ptes, the folio kept), the pages given back with
	// the VMA's vm_page_prot.
	void migrate(std::size_t page, unsigned phys_bits, bool exclusive);
	void remove_migration(std::size_t page, unsigned phys_bits);
	// GUP-fast: ptep_get_lockless(page), with `writer` (a locked call)
	// starting at the reader's gap `at_gap` and making `stride` primitives
	// at each later gap of the reader (0: all of them at `at_gap`), so the
	// reader may see the table before, during and after it -- a fold or
	// unfold half done included.
	void lockless_read(std::size_t page, std::optional<call> writer, std::size_t at_gap, std::size_t stride = 0);
	void idle();

	// --- the hugetlb callers (mm/hugetlb_callers.h), over a world of
	// hugepages (world_layout::make_hugetlb): each run one CONT_PTE
	// hugepage, named by its first entry ---
	void hugetlb_fault(std::size_t first, std::uint64_t prot);
	void hugetlb_access(std::size_t first, bool write, bool reuse);
	void hugetlb_unmap(std::size_t first, std::size_t last);
	void hugetlb_fork(std::size_t first, std::size_t last);
	void hugetlb_mprotect(std::size_t first, std::size_t last, std::uint64_t newprot, unsigned phys_bits);
	void hugetlb_migrate(std::size_t first, unsigned phys_bits, bool exclusive);
	void hugetlb_remove_migration(std::size_t first, unsigned phys_bits, std::uint64_t prot);
	void hugetlb_mremap_away(std::size_t first);
	void hugetlb_uffd_wp_marker(std::size_t first);

	// mm::call_sink
	bool implements(call_kind k) const override { return s_.implements(k); }
	std::optional<call_result> run(const call& c) override { return do_call(c); }
	void flush_range(std::size_t first, std::size_t nr) override { m_.flush_tlb_range(first, nr); }
	// The strategy's hint, judged against the table by a checked harness.
	std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte) override;
	// The hint whose judgement failed the judged property, if one did.
	const std::optional<batch_hint_seen>& failed_hint() const { return failed_hint_; }

	// Runs one call through the checker; false when the strategy lacks it.
	std::optional<call_result> do_call(const call& c);

	// A mapping of page p with the given prot bits.
	std::uint64_t pte_for(std::size_t p, std::uint64_t prot) const;

private:
	mm::memory memory() const { return {w_.geo, w_.folios}; }
	void judge_now();
	void check_caller_rules(const call& c);
	// Runs a walk of the VMA part [first, last): its batches must stay inside.
	template <class F>
	void walk(std::size_t first, std::size_t last, F f)
	{
		vma_ = mm::vma_range{first, last};
		try {
			f();
		} catch (...) {
			vma_.reset();
			throw;
		}
		vma_.reset();
	}
	friend class scheduled_hardware;
	bool bare_ = false;
	bool in_lockless_ = false;
	bool faulted_ = false;	// a call stopped outside the table: no more calls
	bool abandoned_ = false;	// a call gave up half done: the table is no longer the spec's
	const mm::caller* caller_ = &mm::core_mm();
	bool caller_rules_ = true;
	bool bare_caller_rules_ = false;
	std::optional<mm::vma_range> vma_;	// the walk in progress
	std::size_t batch_limit_ = 0;

	strategy& s_;
	world_layout w_;
	machine m_;
	checker chk_;
	scheduled_hardware hw_;
	observer_list obs_;
	std::unique_ptr<recorder> rec_;
	std::unique_ptr<word_coverage_observer> words_;
	std::optional<property> judged_;
	std::optional<batch_hint_seen> failed_hint_;
	std::uint64_t calls_ = 0;
};

} // namespace ptespec
