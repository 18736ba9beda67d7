// The machine of the proofs: the same interface as basic_machine
// (model/machine.h), over Z3 words, so strategy source runs on it unchanged.
//
// Indices, loop bounds and the sequence of primitives are concrete; entry
// values are symbolic.  Where a strategy branches on a word (m.branch), the
// machine asks a path_oracle, which follows a prefix of decisions and checks
// each new one for feasibility; the proofs re-run the strategy once per
// feasible path (proofs/prover.h).
//
// The hardware (BRIEF §3), encoded once here, for every strategy:
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
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <z3++.h>

#include "model/call.h"
#include "model/errors.h"
#include "model/geometry.h"
#include "model/history.h"
#include "model/bit_slicer.h"
#include "model/evaluator.h"
#include "model/pte.h"
#include "model/symbolic_word.h"
#include "model/valuation.h"

namespace ptespec {

inline std::uint64_t ground_value(const z3::expr& w)
{
	std::uint64_t v = 0;
	if (!w.is_numeral() || !w.is_numeral_u64(v))
		throw internal_error("symbolic word is not ground: " + w.to_string());
	return v;
}

inline bool ground_truth(const z3::expr& b)
{
	if (b.is_true())
		return true;
	if (b.is_false())
		return false;
	throw internal_error("symbolic boolean is not ground: " + b.to_string());
}

// The truth of each of `bs` under `m`, evaluated a few thousand at a time
// as the bits of one word: Z3 shares the work on common subterms within one
// evaluation only, and the many conditions of a counterexample share most
// of theirs (one by one, extracting a CONT_PTES 32 teardown took 25 s).
inline std::vector<bool> ground_truths(const z3::model& m, const std::vector<z3::expr>& bs)
{
	std::vector<bool> out;
	out.reserve(bs.size());
	constexpr std::size_t chunk = 4096;
	for (std::size_t at = 0; at < bs.size(); at += chunk) {
		const std::size_t n = std::min(chunk, bs.size() - at);
		z3::context& ctx = bs[at].ctx();
		z3::expr_vector bits(ctx);
		for (std::size_t k = 0; k < n; k++)
			bits.push_back(z3::ite(bs[at + k], ctx.bv_val(1, 1), ctx.bv_val(0, 1)));
		const z3::expr word = n == 1 ? bits[0] : z3::concat(bits);
		const z3::expr v = m.eval(word, true);
		if (!v.is_numeral())
			throw internal_error("symbolic booleans are not ground: " + v.to_string());
		// Most significant first: the first of bs is the string's first
		// character once padded to n digits.
		std::string digits = Z3_get_numeral_binary_string(ctx, v);
		if (digits.size() > n)
			throw internal_error("ground_truths: a numeral wider than its word");
		digits.insert(0, n - digits.size(), '0');
		for (char d : digits)
			out.push_back(d == '1');
	}
	return out;
}

// What a call returned, symbolically (call_result over Z3 terms).
struct sym_call_result {
	std::optional<z3::expr> pte;
	std::optional<z3::expr> young;
	std::optional<z3::expr> changed;
};

// The solver side of the path oracle, shared by every path of a case:
// branch conditions in bit-level form (bit_slicer.h), and a proxy constant
// p per literal with (p => literal) asserted once, so a path is checked
// with its decisions as assumptions, with no push or pop: what the solver
// learnt on one path serves the next.
//
// Most new decisions need no solver at all: a decision is asked with a
// model of the path so far in hand (path_oracle), and the other side is
// usually reached by changing only variables that neither the assumptions
// nor the path's decisions mention -- the hardware slot just made, the
// flags of an entry the loop reads for the first time.  Such a change keeps
// the model a model of everything the path assumed, so if the new literal
// holds under it, that is a witness; only when no candidate change works is
// the solver asked (repair()).  Models are held as valuations, and the
// literals evaluated under them without building terms (evaluator.h).
class path_solver {
public:
	// `repairs`: off, every new decision asks the solver (to test that
	// the shortcut changes nothing).
	path_solver(z3::solver& s, const std::vector<z3::expr>& assumptions, bool repairs = true)
		: s_(s), slicer_(s.ctx()), repairs_(repairs)
	{
		for (const z3::expr& a : assumptions)
			for (const var& v : vars_of(a)) {
				grow_for(bound_, v.id, false);
				bound_[v.id] = true;
			}
	}

	z3::expr normal(const z3::expr& cond) { return slicer_.truth(cond); }
	// The slicer, with every condition of the case sliced so far: a later
	// question about the same terms (the prover's final one) reuses it.
	bit_slicer& slicer() { return slicer_; }

	// Whether `lit` is consistent with the assumptions and `decided`; when
	// it is, a model that shows it (none when the solver only says unknown,
	// which counts as consistent: exploring too much is safe, too little
	// is not).
	struct answer {
		bool feasible;
		std::optional<valuation> witness;
	};
	answer feasible(const std::vector<z3::expr>& decided, const z3::expr& lit)
	{
		solver_calls_++;
		z3::expr_vector a(lit.ctx());
		for (const z3::expr& d : decided)
			a.push_back(proxy(d));
		a.push_back(proxy(lit));
		switch (s_.check(a)) {
		case z3::unsat: return {false, std::nullopt};
		case z3::sat: return {true, valuation::of(s_.get_model())};
		default: return {true, std::nullopt};
		}
	}

	// A model of the assumptions and `decided` (a path's literals), as the
	// solver gives it, with the solver's answer (no model unless sat).
	std::pair<z3::check_result, std::optional<z3::model>> model_of(const std::vector<z3::expr>& decided)
	{
		z3::expr_vector a(s_.ctx());
		for (const z3::expr& d : decided)
			a.push_back(proxy(d));
		const z3::check_result r = s_.check(a);
		if (r != z3::sat)
			return {r, std::nullopt};
		return {r, s_.get_model()};
	}

	// The truth of `cond` under `m` with `overrides` made, where it is
	// known: the evaluator's, or where it does not know a term, Z3's.
	std::optional<bool> holds(const valuation& m, const z3::expr& cond,
				  std::span<const valuation::change> overrides = {})
	{
		if (const std::optional<std::uint64_t> v = eval_(cond, m, overrides))
			return *v != 0;
		const z3::expr v = m.eval(cond, overrides);
		if (v.is_true() || v.is_false())
			return v.is_true();
		return std::nullopt;
	}

	// A model of the assumptions, `decided` and `lit`, made from `m` (a
	// model of the assumptions and `decided`) by changing only variables
	// that those do not mention; none when no candidate change makes `lit`
	// hold.  Candidates: each free variable flipped (a boolean negated, a
	// word complemented), all set, all clear.
	std::optional<valuation> repair(const valuation& m, const std::vector<z3::expr>& decided, const z3::expr& lit)
	{
		if (!repairs_ || !m.complete())
			return std::nullopt;
		// The decisions' variables, marked for this repair: one pass over
		// their lists, then one look per variable of the literal.
		if (++decided_epoch_ == 0) {
			std::fill(decided_mark_.begin(), decided_mark_.end(), 0u);
			decided_epoch_ = 1;
		}
		for (const z3::expr& d : decided)
			for (const var& v : vars_of(d)) {
				grow_for(decided_mark_, v.id, 0u);
				decided_mark_[v.id] = decided_epoch_;
			}
		std::vector<valuation::change> to;
		std::vector<unsigned> widths;
		for (const var& v : vars_of(lit)) {
			const bool bound = v.id < bound_.size() && bound_[v.id];
			const bool decided_on = v.id < decided_mark_.size() && decided_mark_[v.id] == decided_epoch_;
			// A variable no valuation holds is left alone: fewer
			// candidates, never a wrong one.
			if (bound || decided_on || v.width == 0)
				continue;
			to.push_back({z3::expr(lit.ctx(), v.term), 0});
			widths.push_back(v.width);
		}
		if (to.empty())
			return std::nullopt;
		for (int pattern = 0; pattern < 3; pattern++) {
			for (std::size_t k = 0; k < to.size(); k++) {
				const std::uint64_t all = low_bits(widths[k]);
				if (pattern == 0)
					to[k].value = ~m.value(to[k].constant.id()) & all;
				else
					to[k].value = pattern == 1 ? all : 0;
			}
			if (holds(m, lit, to) != true)
				continue;
			repaired_++;
			return m.with(std::move(to));
		}
		return std::nullopt;
	}

	// A model of the assumptions: the witness a call's first path starts
	// with (it has decided nothing yet).
	void set_root(const z3::model& m) { root_ = valuation::of(m); }
	const std::optional<valuation>& root() const { return root_; }

	// Decisions the solver answered, and those a repaired model did.
	std::size_t solver_calls() const { return solver_calls_; }
	std::size_t repaired() const { return repaired_; }

private:
	// An uninterpreted constant of a term: its id, and its width (1 for
	// a boolean; 0 for a sort no valuation holds).
	struct var {
		unsigned id;
		Z3_ast term;
		unsigned width;
	};

	// The variables of a literal, computed once; a negation shares its
	// operand's list (a decision asks both).  The term is kept with them:
	// it keeps theirs alive, and an id names a term only while it lives.
	const std::vector<var>& vars_of(const z3::expr& lit)
	{
		const z3::expr t = lit.is_not() ? lit.arg(0) : lit;
		auto it = vars_.find(t.id());
		if (it == vars_.end()) {
			it = vars_.emplace(t.id(), std::pair{t, std::vector<var>{}}).first;
			collect(t, it->second.second);
		}
		return it->second.second;
	}

	// The uninterpreted constants of `e`.
	void collect(const z3::expr& e, std::vector<var>& into)
	{
		// On the raw terms (e keeps them alive), with a mark per term id for
		// this walk: the walks are many and the terms shared.
		Z3_context c = e.ctx();
		if (++epoch_ == 0) {
			std::fill(mark_.begin(), mark_.end(), 0u);
			epoch_ = 1;
		}
		std::vector<Z3_ast> todo{e};
		while (!todo.empty()) {
			const Z3_ast t = todo.back();
			todo.pop_back();
			// The mark first: most terms are met again, and asking a
			// term's kind costs more than its id.
			const unsigned id = Z3_get_ast_id(c, t);
			grow_for(mark_, id, 0u);
			if (mark_[id] == epoch_)
				continue;
			mark_[id] = epoch_;
			if (Z3_get_ast_kind(c, t) != Z3_APP_AST)
				continue;
			const Z3_app a = Z3_to_app(c, t);
			const unsigned n = Z3_get_app_num_args(c, a);
			if (n == 0) {
				if (Z3_get_decl_kind(c, Z3_get_app_decl(c, a)) == Z3_OP_UNINTERPRETED)
					into.push_back({id, t, value_width(c, t)});
				continue;
			}
			for (unsigned k = 0; k < n; k++)
				todo.push_back(Z3_get_app_arg(c, a, k));
		}
	}

	z3::expr proxy(const z3::expr& lit)
	{
		if (auto it = proxies_.find(lit.id()); it != proxies_.end())
			return it->second.second;
		const z3::expr p = lit.ctx().bool_const(("path!" + std::to_string(proxies_.size())).c_str());
		s_.add(z3::implies(p, lit));
		// The literal is kept with its proxy: an id names a term only while
		// the term lives.
		proxies_.emplace(lit.id(), std::pair{lit, p});
		return p;
	}

	z3::solver& s_;
	bit_slicer slicer_;
	evaluator eval_;
	std::vector<bool> bound_;	// per term id: a variable of the assumptions
	std::unordered_map<unsigned, std::pair<z3::expr, std::vector<var>>> vars_;
	bool repairs_;
	std::optional<valuation> root_;
	std::vector<unsigned> mark_;	// collect(): the walk that last saw a term id
	unsigned epoch_ = 0;
	std::vector<unsigned> decided_mark_;	// repair(): the repair whose decisions name a term id
	unsigned decided_epoch_ = 0;
	std::size_t solver_calls_ = 0, repaired_ = 0;
	std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> proxies_;
};

// Decides the strategy's branches on one path: replays `prefix`, then takes
// the first feasible side of each new decision, noting the other side when
// it is feasible too.  Feasible means: consistent with the assumptions and
// the decisions so far (a solver query per new decision).
//
// The prefix records every branch the path took, constant ones included, so
// a replay costs neither a simplification nor a solver call.
class path_oracle {
public:
	struct infeasible_path {};
	// One branch of a path: its outcome, and whether it was a decision
	// (both sides possible) or forced by the terms themselves.
	struct step {
		bool taken;
		bool decision;
	};
	// A path left to explore: the branches to replay, and a model of its
	// decisions when one is known.
	struct alternative {
		std::vector<step> prefix;
		std::optional<valuation> witness;
	};

	path_oracle(path_solver& solver, alternative start)
		: solver_(solver), prefix_(std::move(start.prefix)), witness_(std::move(start.witness))
	{
	}

	// The condition in the form the oracle decides on (bit level).
	z3::expr normal(const z3::expr& cond) { return solver_.normal(cond); }

	bool replaying() const { return pos_ < prefix_.size(); }

	// Replays the next recorded branch on `cond`.
	bool replay(const z3::expr& cond)
	{
		const step st = prefix_[pos_++];
		taken_.push_back(st);
		if (st.decision)
			pc_.push_back(st.taken ? cond : !cond);
		return st.taken;
	}

	// A branch whose condition simplified to a constant.
	bool forced(bool value)
	{
		pos_++;
		taken_.push_back({value, false});
		return value;
	}

	// A new decision.  A model of the path so far shows one side feasible
	// without asking the solver: a decision costs one question, not two.
	bool decide(const z3::expr& cond)
	{
		std::optional<path_solver::answer> yes, no;
		if (witness_) {
			const std::optional<bool> v = solver_.holds(*witness_, cond);
			if (v == true)
				yes = path_solver::answer{true, witness_};
			else if (v == false)
				no = path_solver::answer{true, witness_};
			// The other side, from the same model where it can be.
			if (yes && !no)
				if (auto other = solver_.repair(*witness_, pc_, !cond))
					no = path_solver::answer{true, std::move(other)};
			if (no && !yes)
				if (auto other = solver_.repair(*witness_, pc_, cond))
					yes = path_solver::answer{true, std::move(other)};
		}
		if (!yes)
			yes = solver_.feasible(pc_, cond);
		if (!no)
			no = solver_.feasible(pc_, !cond);
		// Neither side: the decisions so far are themselves contradictory
		// (an earlier check could only say "unknown"); the path needs no
		// proof.
		if (!yes->feasible && !no->feasible)
			throw infeasible_path{};
		const bool both = yes->feasible && no->feasible;
		const bool take = yes->feasible;
		if (both) {
			std::vector<step> other(taken_.begin(), taken_.end());
			other.push_back({false, true});
			alternatives_.push_back({std::move(other), no->witness});
		}
		pos_++;
		taken_.push_back({take, both});
		witness_ = take ? yes->witness : no->witness;
		// A side that alone is feasible is implied: no literal needed.
		if (both)
			pc_.push_back(take ? cond : !cond);
		return take;
	}

	// The branches this path took, and the paths left to explore.
	const std::vector<step>& taken() const { return taken_; }
	const std::vector<alternative>& alternatives() const { return alternatives_; }
	// The literals of its decisions, in order.
	const std::vector<z3::expr>& path_condition() const { return pc_; }

private:
	path_solver& solver_;
	std::vector<step> prefix_;
	std::optional<valuation> witness_;	// satisfies the world and pc_
	std::size_t pos_ = 0;
	std::vector<step> taken_;
	std::vector<alternative> alternatives_;
	std::vector<z3::expr> pc_;
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

	symbolic_machine(z3::context& ctx, geometry geo, std::vector<z3::expr> initial, path_oracle& oracle)
		: ctx_(ctx), geo_(geo), table_(std::move(initial)), oracle_(oracle)
	{
		taken_.assign(table_.size(), ctx_.bv_val(0, 64));
	}

	const geometry& geo() const { return geo_; }
	std::size_t size() const { return table_.size(); }
	z3::context& ctx() const { return ctx_; }

	// --- the primitives ---

	z3::expr read(std::size_t i)
	{
		schedule(i);
		return table_[i];
	}

	void write(std::size_t i, const z3::expr& v)
	{
		schedule(i);
		store(i, v);
	}

	z3::expr exchange(std::size_t i, const z3::expr& v)
	{
		schedule(i);
		const z3::expr old = table_[i];
		store(i, v);
		return old;
	}

	template <class F>
	z3::expr atomic_update(std::size_t i, F&& f)
	{
		schedule(i);
		const z3::expr old = table_[i];
		store(i, f(old));
		return old;
	}

	// A TLB invalidation changes no landing (see the header comment): it
	// only counts as a scheduling point.
	void flush_tlb_page(std::size_t i) { flush(i, 1); }
	void flush_tlb_range(std::size_t first, std::size_t nr) { flush(first, nr); }
	void flush_tlb_all() { flush(0, table_.size()); }

	bool branch(const z3::expr& c)
	{
		const z3::expr n = oracle_.normal(c);
		if (oracle_.replaying())
			return oracle_.replay(n);
		if (n.is_true() || n.is_false())
			return oracle_.forced(n.is_true());
		return oracle_.decide(n);
	}
	z3::expr lit(std::uint64_t v) const { return ctx_.bv_val(v, 64); }

	// Whether [first_pfn, first_pfn + nr) lies inside one declared folio.
	z3::expr folio_covers(const z3::expr& first_pfn, std::size_t nr) const
	{
		z3::expr any = ctx_.bool_val(false);
		for (const folio_extent& f : folios_) {
			const z3::expr lo = ctx_.bv_val(f.first_pfn, 64);
			const z3::expr end = ctx_.bv_val(f.first_pfn + f.nr_pages, 64);
			any = any || (z3::uge(first_pfn, lo) && z3::ule(first_pfn + ctx_.bv_val(nr, 64), end) &&
				       z3::ult(first_pfn, first_pfn + ctx_.bv_val(nr, 64)));
		}
		return any;
	}

	// --- the proof side ---

	void set_folios(std::vector<folio_extent> f) { folios_ = std::move(f); }
	// The ordinal of the next call in its scenario: names its hardware
	// slots (the prover runs each call of a scenario on a fresh machine
	// from the merged state, see proofs/prover.h).
	void set_call_ordinal(std::size_t c) { call_ = c; }
	// With hardware off no slot is created (the helper algebra, dry runs).
	void set_hardware(bool on) { hw_ = on; }
	const std::vector<z3::expr>& table() const { return table_; }
	const std::vector<sym_event>& events() const { return events_; }
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
	// named by the part, and `taken` is what the earlier parts took.
	void resume(std::size_t part, std::vector<z3::expr> taken)
	{
		part_ = part;
		if (taken.size() != table_.size())
			throw internal_error("symbolic machine: resumed with a taken vector of the wrong size");
		taken_ = std::move(taken);
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

	void flush(std::size_t first, std::size_t nr)
	{
		if (nr == 0)
			return;
		if (first + nr > table_.size() || first + nr < first)
			throw strategy_fault(true, first, nr, table_.size());
		gap_++;
	}

	void store(std::size_t i, const z3::expr& v)
	{
		const z3::expr old = table_[i];
		table_[i] = v;
		// The checker's "taken": the last valid value a store made invalid;
		// a valid store puts it back.
		taken_[i] = z3::ite(pte_valid(v), ctx_.bv_val(0, 64),
				    z3::ite(pte_valid(old), old, taken_[i]));
		bool seen = false;
		for (std::size_t k : touched_)
			seen = seen || k == i;
		if (!seen)
			touched_.push_back(i);
	}

	// One event slot on entry j: the hardware rule of BRIEF §3 applied to
	// the entry as it is now.
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
	path_oracle& oracle_;
	std::vector<sym_event> events_;
	std::vector<std::size_t> seq_;
	std::size_t seq_call_ = ~std::size_t{0};
	std::size_t call_ = 0;
	std::size_t gap_ = 0;
	std::size_t part_ = 0;
	bool hw_ = true;
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
