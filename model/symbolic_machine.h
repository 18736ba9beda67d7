// The machine of the proofs: the same interface as basic_machine
// (model/machine.h), over Z3 words, so strategy source runs on it unchanged.
//
// Indices, loop bounds and the sequence of primitives are concrete; entry
// values are symbolic.  Where a strategy branches on a word (m.branch), the
// machine asks a branch_oracle (model/branch_oracle.h); the proofs' oracle
// follows a prefix of decisions and checks each new one for feasibility
// (proofs/engine/path_oracle.h), and the proofs re-run the strategy once per
// feasible path (proofs/prover.h).
//
// The hardware, encoded once here, for every strategy:
//
//   * Where an event may land depends only on the entry it lands in: an
//     access lands in a valid entry, a write in a valid writable one (a
//     page whose own entry is valid and not CONT uses that entry; any valid
//     CONT entry of a run is a landing for an access to a page of the run,
//     itself included; a cached CONT translation only ever points at one).
//     And the checker's unit of an event is decided by the entry it lands in
//     (its CONT bit and folio).  So an event names its landing entry and,
//     without loss of generality, its page is that entry.
//   * An event changes only the entry it lands in, and whether it may land
//     there depends only on that entry.  So events on entry j that happen
//     anywhere between two primitives on j (or between the last one and
//     the end of the call) have exactly the effect, on the table and on the
//     checker's verdict, of the same events just before the later primitive
//     (or at the call's last gap).  Two events there collapse into one (the
//     write subsumes the access).  So one symbolic slot per entry before each
//     primitive on it, and one per entry at the end of each call, with a
//     symbolic enable and kind, covers ANY number of events in every gap.
//   * Across calls: an entry j that a call leaves alone (no primitive on
//     it) and whose landing unit the call's range does not meet (j itself
//     for a plain entry, its whole run for a CONT one) neither sees nor is
//     judged by that call: the call's report hands off only units its range
//     meets, and its per-call claim is about its range.  So an event on j
//     in the gap before such a call, during it, or after it has the same
//     effect on the table and the same verdict; when the last slot on j is
//     the previous call's end slot, that slot stands for this call's gaps
//     too and no new one is made (end_call's `carried`).  In a teardown of
//     n entries this turns n^2 end slots into n.
//
// The TLB, as model/tlb.h keeps it for the checker, over terms: per entry
// what some CPU may still hold (0: nothing), so every store of a valid value
// is judged for break-before-make where it happens, flush flags (local,
// without DSB, stride, level) and BBML2 included.  A call begins with the
// TLB holding exactly what its table maps: whatever earlier calls changed
// was invalidated by their callers before this call (tlb_finish_mmu, the
// flush of ptep_clear_flush) -- a call's own stale translations it must
// deal with itself, and that is what is judged.  (A hardware event leaves
// the cached value as it was: see slot().)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "model/branch_oracle.h"
#include "model/call.h"
#include "model/errors.h"
#include "model/geometry.h"
#include "model/hardware_options.h"
#include "model/history.h"
#include "model/pte.h"
#include "model/symbolic_word.h"

namespace ptespec {

// Whether pfn is one of folio f's pages.
inline z3::expr in_folio(const folio_extent& f, const z3::expr& pfn)
{
	z3::context& ctx = pfn.ctx();
	return z3::uge(pfn, ctx.bv_val(f.first_pfn, 64)) && z3::ult(pfn, ctx.bv_val(f.first_pfn + f.nr_pages, 64));
}

// Whether [first_pfn, first_pfn + nr) lies inside one of `folios`: what
// the machine answers a strategy, and what a proof assumes of a caller.
inline z3::expr folio_covers(const std::vector<folio_extent>& folios, const z3::expr& first_pfn, std::size_t nr)
{
	z3::context& ctx = first_pfn.ctx();
	const z3::expr end = first_pfn + ctx.bv_val(nr, 64);
	z3::expr any = ctx.bool_val(false);
	for (const folio_extent& f : folios)
		any = any || (in_folio(f, first_pfn) && z3::ule(end, ctx.bv_val(f.first_pfn + f.nr_pages, 64)) &&
			      z3::ult(first_pfn, end));
	return any;
}

// What a call returned, symbolically (call_result over Z3 terms).
struct sym_call_result {
	std::optional<z3::expr> pte;
	std::optional<z3::expr> young;
	std::optional<z3::expr> changed;
};

// One symbolic hardware slot: an event on `entry` at the given gap of the
// given call (gap numbering as basic_machine: primitives done so far in the
// call).  `fired` is the condition under which the event happened.
struct sym_event {
	std::size_t call = 0;
	std::size_t gap = 0;	// counted from the start of its part
	std::size_t entry = 0;
	std::size_t part = 0;	// of the call (symbolic_machine::resume)
	z3::expr on, write, fired, cont;	// cont: the landing entry carried CONT
};

class symbolic_machine {
public:
	using word = z3::expr;
	using boolean = z3::expr;

	symbolic_machine(z3::context& ctx, geometry geo, std::vector<z3::expr> initial, branch_oracle& oracle,
			 hardware_options hw = {})
		: ctx_(ctx), geo_(geo), table_(std::move(initial)), oracle_(oracle), features_(hw),
		  well_formed_(ctx.bool_val(true))
	{
		taken_.assign(table_.size(), ctx_.bv_val(0, 64));
		for (const z3::expr& e : table_)
			cached_.push_back(mapped(e));
	}

	const geometry& geo() const { return geo_; }
	std::size_t size() const { return table_.size(); }
	z3::context& ctx() const { return ctx_; }
	// What the CPU supports, as the kernel's system_supports_*() tests ask
	// (the proofs model HAFDBS hardware: no_hafdbs is never set here).
	const hardware_options& features() const { return features_; }

	// --- the primitives ---

	z3::expr read(std::size_t i)
	{
		schedule(i);
		if (torn_)
			return torn_->read(i, reads_++);
		snap();
		return table_[i];
	}

	void write(std::size_t i, const z3::expr& v)
	{
		schedule(i);
		store(i, v);
		snap();
	}

	z3::expr exchange(std::size_t i, const z3::expr& v)
	{
		schedule(i);
		const z3::expr old = table_[i];
		store(i, v);
		snap();
		return old;
	}

	template <class F>
	z3::expr atomic_update(std::size_t i, F&& f)
	{
		schedule(i);
		const z3::expr old = table_[i];
		store(i, f(old));
		snap();
		return old;
	}

	// The store of a read-modify-write whose read was this path's last
	// primitive, on entry i (a kernel tree's cmpxchg loop run as one atomic
	// update at its linearisation point, kernel/rmw_loop.h): no slot and
	// no gap of its own -- with the read it is one step, as a cmpxchg that
	// succeeds at once is; returns the value it replaced.
	z3::expr commit(std::size_t i, const z3::expr& v)
	{
		check_index(i);
		const z3::expr old = table_[i];
		store(i, v);
		if (!snapshots_.empty())
			snapshots_.back() = table_;
		return old;
	}

	// A TLB invalidation changes no landing (see the header comment); it is
	// a scheduling point, and it drops what the TLB holds for the entries
	// it reaches, if it reaches every CPU and completes (model/tlb.h).
	void flush_tlb_page(std::size_t i, unsigned flags = 0) { flush(i, 1, flags); }
	void flush_tlb_range(std::size_t first, std::size_t nr, unsigned flags = 0) { flush(first, nr, flags); }
	void flush_tlb_all(unsigned flags = 0) { flush(0, table_.size(), flags); }

	bool branch(const z3::expr& c) { return oracle_.take(oracle_.normal(c)); }
	// A value word w has on this path, if the oracle knows one (a guess:
	// branch on w equal to it to learn whether it is the only one).
	std::optional<std::uint64_t> value_on_path(const z3::expr& w) { return oracle_.value_on_path(w); }
	z3::expr lit(std::uint64_t v) const { return ctx_.bv_val(v, 64); }
	// The value a call passes (set_ptes' pte, ptep_set_access_flags'
	// entry, the mprotect commit's pte): the symbolic word the proof gave
	// this call, else the call's own concrete one.
	z3::expr argument(const call& c) const { return argument_ ? *argument_ : lit(c.pte); }

	// Whether [first_pfn, first_pfn + nr) lies inside one declared folio.
	z3::expr folio_covers(const z3::expr& first_pfn, std::size_t nr) const
	{
		return ptespec::folio_covers(folios_, first_pfn, nr);
	}

	// --- the proof side ---

	void set_folios(std::vector<folio_extent> f) { folios_ = std::move(f); }
	const std::vector<folio_extent>& folios() const { return folios_; }
	// A symbolic value for the next call's argument (none: its concrete
	// call.pte), so one proof covers every value the caller may pass.
	void set_argument(std::optional<z3::expr> v) { argument_ = std::move(v); }
	// The ordinal of the next call in its scenario: names its hardware
	// slots (the prover runs each call of a scenario on a fresh machine
	// from the merged state, see proofs/prover.h).
	void set_call_ordinal(std::size_t c) { call_ = c; }
	// With hardware off no slot is created (the helper algebra, dry runs).
	void set_hardware(bool on) { hw_ = on; }
	const std::vector<z3::expr>& table() const { return table_; }
	// Per entry, what some CPU's TLB may hold (0: nothing).
	const std::vector<z3::expr>& cached() const { return cached_; }
	// Every store so far kept break-before-make (the checker's
	// well-formed at a store, model/tlb.h): a CONT change between valid
	// values only after an invalidation that dropped the old translation
	// everywhere -- or, under BBML2, between values that translate alike;
	// and after each store of a valid value, `run_shape` (set_run_shape)
	// held of its run.
	const z3::expr& stores_well_formed() const { return well_formed_; }
	// What a run must be after a store of a valid value into it, given the
	// table and the stored entry (none: nothing asked).
	void set_run_shape(std::function<z3::expr(const std::vector<z3::expr>&, std::size_t)> f)
	{
		run_shape_ = std::move(f);
	}
	// Off: no store is judged (stores_well_formed() stays true) and the
	// TLB is not followed -- for a proof none of whose claims asks it, as
	// those terms cost at every store.
	void set_judge_stores(bool on) { judge_stores_ = on; }
	const std::vector<sym_event>& events() const { return events_; }
	// A call that runs while a lockless reader reads the table: the table
	// after each of its primitives is kept (snapshots()[k]: after k of
	// them, the first entry the table before any; the last, at end_call,
	// after the call's end slots).
	void keep_snapshots() { snapshots_ = {table_}; }
	const std::vector<std::vector<z3::expr>>& snapshots() const { return snapshots_; }
	// The lockless reader's side: its n-th read of entry i returns
	// read(i, n) -- the entry as it was at some moment of a concurrent
	// writer's call -- instead of the table's.  Such a reader only reads:
	// any store is outside what was modelled, and stops the path as a
	// symbolic_limit.
	struct torn_reads {
		std::function<z3::expr(std::size_t entry, std::size_t nth)> read;
	};
	void set_torn_reads(torn_reads r) { torn_.emplace(std::move(r)); }
	// Per entry: the valid value the current call took out of it (0: none),
	// as the checker's batch-or judgement counts it.
	const std::vector<z3::expr>& taken() const { return taken_; }
	// Entries the current call stored to (isolation looks only at these).
	const std::vector<std::size_t>& touched() const { return touched_; }
	std::size_t calls() const { return call_; }

	// `range`: the entries the call is about (call_semantics), first and
	// count; entries outside it may carry the previous call's end slot.
	void begin_call(std::size_t first = 0, std::size_t nr = 0)
	{
		gap_ = 0;
		part_ = 0;
		for (auto& t : taken_)
			t = ctx_.bv_val(0, 64);
		touched_.clear();
		used_.assign(table_.size(), false);
		range_first_ = first;
		range_nr_ = nr;
	}
	// Goes on with the call from where an earlier part of it left the
	// table (the prover runs core-mm's generic batch loop one entry per
	// part, impl/generic.h): gaps count from this part's start, slots are
	// named by the part, `taken` is what the earlier parts took and
	// `cached` what they left in the TLB (empty: the first part).
	void resume(std::size_t part, std::vector<z3::expr> taken, std::vector<z3::expr> cached)
	{
		part_ = part;
		if (taken.size() != table_.size() || (!cached.empty() && cached.size() != table_.size()))
			throw internal_error("symbolic machine: resumed with a taken or cached vector of the wrong size");
		taken_ = std::move(taken);
		if (!cached.empty())
			cached_ = std::move(cached);
	}
	// Primitives so far in this part.
	std::size_t gaps() const { return gap_; }
	// The call's last gap: every entry may receive events after the last
	// primitive on it.  carried[j]: the last slot on j is the previous
	// call's end slot; it stands for this call's gaps too when this call
	// left j alone and its range does not meet j's landing unit (see the
	// header comment).
	void end_call(const std::vector<bool>& carried = {})
	{
		for (std::size_t j = 0; j < table_.size(); j++)
			if (!(j < carried.size() && carried[j] && !used_[j] && unit_outside_range(j)))
				slot(j);
		snap();
		call_++;
	}
	// Entries with a primitive on them in this call.
	const std::vector<bool>& used() const { return used_; }

	// ptespec's own use of an index (not the strategy's): outside the
	// table is ptespec's bug.
	void check_index(std::size_t i) const
	{
		if (i >= table_.size())
			throw internal_error("symbolic machine: entry " + std::to_string(i) + " outside a table of " +
					     std::to_string(table_.size()));
	}

private:
	void schedule(std::size_t i)
	{
		// A strategy's own index: past the end is its bug, refused before
		// the slot, as the concrete machine refuses it before the hardware
		// acts (the prover turns it into a refutation).
		if (i >= table_.size())
			throw strategy_fault(false, i, 1, table_.size());
		slot(i);
		if (i < used_.size())
			used_[i] = true;
		gap_++;
	}

	// Whether the call's range meets [first, end).
	bool range_meets(std::size_t first, std::size_t end) const
	{
		return first < range_first_ + range_nr_ && range_first_ < end;
	}

	// Whether the call's range misses j's landing unit: j itself, and the
	// whole run too unless j is surely not CONT.
	bool unit_outside_range(std::size_t j)
	{
		if (range_meets(j, j + 1))
			return false;
		const std::size_t run = geo_.run_start(j);
		if (!range_meets(run, run + geo_.cont_ptes))
			return true;
		return oracle_.normal(pte_cont(table_[j])).is_false();
	}

	void flush(std::size_t first, std::size_t nr, unsigned flags)
	{
		if (nr == 0)
			return;
		if (first + nr > table_.size() || first + nr < first)
			throw strategy_fault(true, first, nr, table_.size());
		gap_++;
		snap();
		// What tlb_shadow::flush drops, over terms.
		if (!judge_stores_ || (flags & flush_nosync) || ((flags & flush_local) && !features_.one_cpu))
			return;
		for (std::size_t i = first - first % (std::size_t{1} << flush_stride_log2(flags)); i < first + nr; i++)
			if (flush_reaches(i, first, nr, flags, geo_.level))
				cached_[i] = mapped(table_[i]);
	}

	void snap()
	{
		if (!snapshots_.empty())
			snapshots_.push_back(table_);
	}

	// What a TLB may cache of entry value e: e if valid, else nothing.
	z3::expr mapped(const z3::expr& e) const
	{
		std::uint64_t v = 0;
		if (e.is_numeral() && e.is_numeral_u64(v))
			return ctx_.bv_val(pte_valid(v) ? v : 0, 64);
		return z3::ite(pte_valid(e), e, ctx_.bv_val(0, 64));
	}

	void store(std::size_t i, const z3::expr& v)
	{
		if (torn_)
			throw symbolic_limit("a lockless reader stored to entry " + std::to_string(i) +
					     ": only a reader that reads is modelled beside a writer");
		const z3::expr old = table_[i];
		table_[i] = v;
		// tlb_shadow::store: a valid value whose CONT differs from what
		// may be cached needs the cached translation gone, or under
		// BBML2 the two differing in size and permissions only.
		std::uint64_t nv = 0;
		if (judge_stores_ && !(v.is_numeral() && v.is_numeral_u64(nv) && !pte_valid(nv))) {
			const z3::expr c = cached_[i];
			z3::expr ok = c == ctx_.bv_val(0, 64) || pte_cont(c) == pte_cont(v);
			if (features_.bbml2_noabort)
				ok = ok || pte_bbml2_compatible(c, v);
			if (run_shape_)
				ok = ok && run_shape_(table_, i);
			well_formed_ = well_formed_ && z3::implies(pte_valid(v), ok);
			cached_[i] = z3::ite(pte_valid(v), v, c);
		}
		// The checker's "taken": the last present value (valid or
		// PROT_NONE) a store made non-present; a present store puts it back.
		taken_[i] = z3::ite(pte_present(v), ctx_.bv_val(0, 64),
				    z3::ite(pte_present(old), old, taken_[i]));
		bool seen = false;
		for (std::size_t k : touched_)
			seen = seen || k == i;
		if (!seen)
			touched_.push_back(i);
	}

	// One event slot on entry j: the hardware rule of the header comment
	// applied to the entry as it is now.
	void slot(std::size_t j)
	{
		if (!hw_)
			return;
		const z3::expr e = table_[j];
		std::uint64_t v = 0;
		if (e.is_numeral() && e.is_numeral_u64(v) && !pte_valid(v))
			return;	// hardware never updates an invalid entry
		const std::string name = "hw" + std::to_string(call_) + "." + std::to_string(part_) + "." +
					 std::to_string(j) + "." + std::to_string(seq(j));
		const z3::expr on = ctx_.bool_const((name + ".on").c_str());
		const z3::expr wr = ctx_.bool_const((name + ".write").c_str());
		const z3::expr fired = on && pte_valid(e) && (!wr || pte_write(e));
		table_[j] = z3::ite(fired, hw_update(e, wr), e);
		// The MMU caches what it wrote, but cached_[j] need not follow:
		// an event only sets AF and clears RDONLY of a valid entry (whose
		// cached value is not 0), and neither the CONT comparison nor
		// pte_bbml2_compatible looks at those bits.
		events_.push_back({call_, gap_, j, part_, on, wr, fired, pte_cont(e)});
	}

	// The update the MMU makes: AF, and for a write through a writable
	// entry, RDONLY cleared (dirty).
	static z3::expr hw_update(const z3::expr& e, const z3::expr& write)
	{
		const z3::expr y = pte_mkyoung(e);
		return z3::ite(write && pte_write(y), pte_clear_bits(y, PTE_RDONLY), y);
	}

	std::size_t seq(std::size_t j)
	{
		if (seq_call_ != call_ || seq_.size() != table_.size()) {
			seq_.assign(table_.size(), 0);
			seq_call_ = call_;
		}
		return seq_[j]++;
	}

	z3::context& ctx_;
	geometry geo_;
	std::vector<z3::expr> table_;
	std::vector<z3::expr> taken_;
	std::vector<std::size_t> touched_;
	std::vector<folio_extent> folios_;
	std::optional<z3::expr> argument_;
	branch_oracle& oracle_;
	hardware_options features_;
	std::vector<z3::expr> cached_;
	z3::expr well_formed_;
	std::function<z3::expr(const std::vector<z3::expr>&, std::size_t)> run_shape_;
	std::vector<sym_event> events_;
	std::vector<std::size_t> seq_;
	std::size_t seq_call_ = ~std::size_t{0};
	std::size_t call_ = 0;
	std::size_t gap_ = 0;
	std::size_t part_ = 0;
	bool hw_ = true;
	bool judge_stores_ = true;
	std::vector<std::vector<z3::expr>> snapshots_;
	std::optional<torn_reads> torn_;
	std::size_t reads_ = 0;
	std::vector<bool> used_;
	std::size_t range_first_ = 0, range_nr_ = 0;
};

// How dispatch (impl/adapter.h) turns a strategy's answer into a result on
// this machine: the terms themselves, not values.
template <class M>
struct dispatch_result;

template <>
struct dispatch_result<symbolic_machine> {
	using type = sym_call_result;
	static z3::expr value(const z3::expr& w) { return w; }
	static z3::expr truth(const z3::expr& b) { return b; }
};

} // namespace ptespec
