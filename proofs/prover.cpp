#include "proofs/prover.h"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "impl/generic.h"
#include "model/errors.h"
#include "proofs/engine/budget.h"
#include "proofs/engine/ground.h"
#include "proofs/engine/path_oracle.h"
#include "proofs/engine/path_solver.h"
#include "proofs/invariant.h"

namespace ptespec::proofs {

namespace {

// The width of a read point: more primitives than one call makes.
constexpr unsigned point_bits = 16;

// The free words the points are made of: the split, the early point, and
// the steps from it to the late point and on to the end.
constexpr const char* split_word = "race.split";
constexpr const char* early_word = "race.early";
constexpr const char* after_early_word = "race.after_early";
constexpr const char* after_late_word = "race.after_late";

z3::expr point_word(z3::context& ctx, const char* name) { return ctx.bv_const(name, point_bits - 2); }

z3::expr point_var(z3::context& ctx, const char* name)
{
	// Each point is the one before it plus a free step, so every
	// placement of the reads is some value of free words (nothing to
	// assume: the path solver's repair may change any of them).
	return z3::zext(point_word(ctx, name), 2);
}

// The points of probe n of `of` (case_batch::probe): its late point sweeps
// the writer's run from start to end over the probes, so each stretch of
// the writer is some probe's; every other probe reads early at the
// writer's start (a read begun before any store), the rest at a random
// point before late; the split and the end at random.
std::vector<valuation::change> probe_points(const concurrent_read& race, std::size_t n, std::size_t of,
					    std::mt19937_64& rng)
{
	z3::context& ctx = race.split.ctx();
	const std::size_t last = race.snapshots.empty() ? 0 : race.snapshots.size() - 1;
	auto upto = [&rng](std::size_t hi) { return std::uniform_int_distribution<std::size_t>(0, hi)(rng); };
	const std::size_t late = of > 1 ? n * last / (of - 1) : upto(last);
	const std::size_t early = n % 2 ? 0 : upto(late);
	const std::size_t end = late + upto(last - late);
	const std::size_t split = 1 + upto(race.split_within - 1);
	return {{point_word(ctx, split_word), split},
		{point_word(ctx, early_word), early},
		{point_word(ctx, after_early_word), late - early},
		{point_word(ctx, after_late_word), end - late}};
}

} // namespace

concurrent_read::concurrent_read(z3::context& ctx, std::size_t within)
	: split_within(within), split(point_var(ctx, split_word)), early(point_var(ctx, early_word)),
	  late(early + point_var(ctx, after_early_word)), end(late + point_var(ctx, after_late_word))
{
}

z3::expr concurrent_read::at(const z3::expr& point, std::size_t i) const
{
	if (snapshots.empty())
		throw internal_error("prover: a lockless read before its writer ran");
	// From the last snapshot back: a term per change of the entry.
	z3::expr out = snapshots.back().at(i);
	for (std::size_t k = snapshots.size() - 1; k-- > 0;) {
		const z3::expr& v = snapshots[k].at(i);
		if (z3::eq(v, snapshots[k + 1].at(i)))
			continue;
		out = z3::ite(z3::ule(point, point.ctx().bv_val(k, point_bits)), v, out);
	}
	return out;
}

z3::expr concurrent_read::read(std::size_t i, std::size_t n)
{
	if (memo_.size() < snapshots.front().size())
		memo_.resize(snapshots.front().size());
	auto& [e, l] = memo_.at(i);
	if (!l)
		l = at(late, i);
	if (n >= split_within)
		return *l;
	if (!e)
		e = at(early, i);
	z3::context& ctx = split.ctx();
	return z3::ite(z3::ult(ctx.bv_val(n, point_bits), split), *e, *l);
}

concurrent_read::points concurrent_read::in(const z3::model& m) const
{
	auto num = [&](const z3::expr& e) {
		return static_cast<std::size_t>(ground_value(m.eval(z3::zext(e, 64 - point_bits), true)));
	};
	return {std::min(num(split), split_within), num(early), num(late), num(end)};
}

std::string_view to_string(proof_verdict v)
{
	switch (v) {
	case proof_verdict::proved: return "proved";
	case proof_verdict::refuted: return "refuted";
	case proof_verdict::unknown: return "unknown";
	}
	return "?";
}

namespace {

// A call needed more paths than the budget allows, or the obligation more
// time.
struct path_budget_exhausted {
	std::string why;
	bool out_of_time = false;	// the obligation's run_seconds, not one call's paths
};

// A path of a call that stopped at a primitive outside the table (the
// symbolic machine's strategy_fault).  The oracle only follows feasible
// sides, so some table and interleaving takes this path: a refutation,
// whatever claims the obligation states.  What its counterexample needs:
struct path_fault {
	strategy_fault fault;
	std::vector<z3::expr> pc;	// the literals of its decisions in the call
	// The call's slots up to the fault: the earlier parts' (each guarded by
	// its path's condition) and this path's.
	std::vector<sym_event> trace;
	// The call's parts up to the faulting one, which is last.
	std::vector<part_paths> parts;
};

// The second solver of a bit-level question (see case_batch::flush):
// bit-blast, then SAT -- with no word-level simplification first, which on
// these formulas costs more than it saves, and no and-inverter-graph
// compression either (slower than bit-blast + SAT alone on the largest
// cases); when the goal still holds a word operator the bit-blaster does
// not take, the qfbv tactic instead.
z3::solver make_circuit_solver(z3::context& ctx, unsigned timeout_ms, unsigned rlimit = 0)
{
	const z3::tactic circuit = z3::tactic(ctx, "bit-blast") & z3::tactic(ctx, "sat");
	z3::solver s = (circuit | z3::tactic(ctx, "qfbv")).mk_solver();
	z3::params p(ctx);
	p.set("timeout", timeout_ms);
	if (rlimit)
		p.set("rlimit", rlimit);
	s.set(p);
	return s;
}

z3::solver make_solver(z3::context& ctx, const prove_options& o, bool incremental)
{
	// The incremental solver answers the many small feasibility questions
	// of the path oracle (bit-level conditions, see bit_slicer.h: the
	// default solver answered them in half the time of the QF_BV one); the
	// final question is one large bit-vector formula, which bit-blasting to
	// SAT solves much faster than the incremental core does.
	z3::solver s = incremental ? z3::solver(ctx) : z3::tactic(ctx, "qfbv").mk_solver();
	z3::params p(ctx);
	p.set("timeout", o.timeout_ms);
	s.set(p);
	return s;
}

// One path of one call.
struct path_run {
	z3::expr pc;	// the conjunction of its decisions' literals
	// The decisions it took, in order: the outcome and the literal that
	// holds on this path (the condition or its negation).
	std::vector<std::pair<bool, z3::expr>> decisions;
	std::vector<z3::expr> table, taken, cached;
	z3::expr stores_well_formed;	// symbolic_machine::stores_well_formed
	sym_call_result result;
	std::vector<sym_event> events;
	std::size_t gaps = 0;	// primitives it made
	std::vector<std::vector<z3::expr>> snapshots;	// symbolic_machine::snapshots
};

// The paths of one call as the binary tree of their decisions: a leaf is a
// path, an inner node a decision with the subtrees where its condition held
// and where it did not.  A value is joined over the paths bottom-up, with
// an ite on a decision only where its two subtrees disagree: a value most
// paths share costs little, and the guard of a slot that only the paths
// past some loop exit have is one literal per decision on the way, not a
// disjunction of whole path conditions.
class decision_tree {
public:
	explicit decision_tree(const std::vector<path_run>& runs) : runs_(runs)
	{
		std::vector<std::size_t> all(runs.size());
		for (std::size_t k = 0; k < all.size(); k++)
			all[k] = k;
		root_ = build(all, 0);
	}

	// One term equal, on each path k, to value(k).
	template <class F>
	z3::expr join(F&& value) const
	{
		std::vector<std::optional<z3::expr>> memo(nodes_.size());
		return join_at(root_, value, memo);
	}

private:
	struct node {
		std::size_t path = 0;	// a leaf's path
		std::optional<z3::expr> cond;	// an inner node's condition
		std::size_t yes = 0, no = 0;
	};

	std::size_t build(const std::vector<std::size_t>& paths, std::size_t depth)
	{
		if (paths.size() == 1) {
			nodes_.push_back({paths[0], std::nullopt, 0, 0});
			return nodes_.size() - 1;
		}
		std::vector<std::size_t> yes, no;
		std::optional<z3::expr> cond;
		for (std::size_t k : paths) {
			const auto& d = runs_[k].decisions;
			// Two paths with the same decisions would be the same path.
			if (depth >= d.size())
				throw internal_error("prover: two paths of one call took the same decisions");
			(d[depth].first ? yes : no).push_back(k);
			if (d[depth].first && !cond)
				cond = d[depth].second;
		}
		// A side with no path was infeasible: nothing to tell apart here.
		if (yes.empty() || no.empty())
			return build(paths, depth + 1);
		const std::size_t y = build(yes, depth + 1);
		const std::size_t n = build(no, depth + 1);
		nodes_.push_back({0, cond, y, n});
		return nodes_.size() - 1;
	}

	template <class F>
	z3::expr join_at(std::size_t at, F& value, std::vector<std::optional<z3::expr>>& memo) const
	{
		if (memo[at])
			return *memo[at];
		const node& nd = nodes_[at];
		std::optional<z3::expr> out;
		if (!nd.cond) {
			out = value(nd.path);
		} else {
			const z3::expr y = join_at(nd.yes, value, memo);
			const z3::expr n = join_at(nd.no, value, memo);
			out = z3::eq(y, n) ? y : z3::ite(*nd.cond, y, n);
		}
		memo[at] = out;
		return *out;
	}

	const std::vector<path_run>& runs_;
	std::vector<node> nodes_;
	std::size_t root_ = 0;
};

std::optional<z3::expr> join_result(const decision_tree& tree, const std::vector<path_run>& runs,
				    std::optional<z3::expr> sym_call_result::*field)
{
	std::size_t have = 0;
	for (const path_run& r : runs)
		have += (r.result.*field).has_value();
	if (have == 0)
		return std::nullopt;
	if (have != runs.size())
		throw internal_error("prover: the paths of one call disagree on what it returns");
	return tree.join([&](std::size_t k) { return *(runs[k].result.*field); });
}

// The distinct slots of the paths (a slot is its firing condition: the
// same variables on the same entry value), each fired only on the paths
// that have it.
std::vector<sym_event> join_events(const decision_tree& tree, const std::vector<path_run>& runs)
{
	z3::context& ctx = runs.front().pc.ctx();
	using key = std::pair<unsigned, unsigned>;
	std::map<key, std::vector<bool>> on_path;
	std::vector<sym_event> distinct;
	std::vector<key> keys;
	for (std::size_t k = 0; k < runs.size(); k++)
		for (const sym_event& e : runs[k].events) {
			const key id{e.fired.id(), e.cont.id()};
			auto [it, fresh] = on_path.try_emplace(id, runs.size(), false);
			it->second[k] = true;
			if (fresh) {
				distinct.push_back(e);
				keys.push_back(id);
			}
		}
	for (std::size_t x = 0; x < distinct.size(); x++) {
		const std::vector<bool>& has = on_path.at(keys[x]);
		const z3::expr guard = tree.join([&](std::size_t k) { return ctx.bool_val(has[k]); });
		if (!guard.is_true())
			distinct[x].fired = distinct[x].fired && guard;
	}
	return distinct;
}

// What one run of the strategy covers: the scenario's call `c`, or one
// entry of it when c is core-mm's generic batch loop (impl/generic.h): then
// part k runs ptep_get_and_clear_full on entry c.index + k, from the table
// and the taken values part k-1 ended with, and only the last part ends the
// call (its end slots).
struct part_spec {
	call run;
	std::size_t index = 0;
	bool last = true;
	std::vector<z3::expr> taken;	// empty: a fresh call
	std::vector<z3::expr> cached;	// the TLB part k-1 left (with taken)
};

// Runs one path of one part of call `c` from `table`, its branches decided
// by `oracle`: the machine set up as the world asks (a racing writer keeps
// its tables, a racing reader reads them, stores judged or not), the
// strategy invoked.  None when the path has no result: infeasible, or a
// lockless read that spun on a table the writer left half done.  A probe
// (a probing oracle) only looks for a counterexample: a path it cannot follow to
// the end, for whatever reason, is simply not one.
std::optional<path_run> run_path(z3::context& ctx, path_oracle& oracle, strategy& strat, const sym_world& w,
				 const std::vector<z3::expr>& table, const call& c, const part_spec& part,
				 std::size_t ordinal, const prove_options& o, const std::vector<bool>& carried,
				 std::vector<bool>& used)
{
	const bool probing = oracle.probing();
	symbolic_machine m(ctx, w.geo, table, oracle, o.hw);
	const bool writer = w.race && ordinal == w.race->writer;
	const bool reader = w.race && ordinal == w.race->reader;
	if (writer)
		m.keep_snapshots();
	if (reader) {
		// The reader's reads are the writer's tables, and its
		// events are the writer's slots: it adds none.
		m.set_hardware(false);
		m.set_torn_reads({[race = w.race](std::size_t i, std::size_t n) { return race->read(i, n); }});
	}
	if (w.stores_judged)
		m.set_run_shape([&w](const std::vector<z3::expr>& t, std::size_t i) {
			return run_well_formed(t, w.geo, w.geo.run_start(i), false);
		});
	else
		m.set_judge_stores(false);
	m.set_folios(w.folios);
	m.set_call_ordinal(ordinal);
	m.set_argument(w.argument(ordinal));
	std::optional<sym_call_result> res;
	std::size_t gaps = 0;
	try {
		m.begin_call(c.index, range_end(c) - c.index);
		if (!part.taken.empty())
			m.resume(part.index, part.taken, part.cached);
		res = strat.invoke(m, part.run);
		gaps = m.gaps();
		if (part.last)
			m.end_call(o.carry_end_slots ? carried : std::vector<bool>{});
	} catch (const path_oracle::infeasible_path&) {
	} catch (const symbolic_limit& e) {
		if (probing)
			return std::nullopt;
		throw path_budget_exhausted{e.what(), false};
	} catch (const strategy_livelock& e) {
		if (probing)
			return std::nullopt;
		// A lockless reader that spun on the writer's table at its
		// late point: if the writer had not ended there, only a
		// third moment of it would let the reader return -- a path
		// outside what the race covers, dropped.  After the
		// writer's end the spin is the reader's own: undecided.
		if (reader && oracle.take(oracle.normal(z3::ult(w.race->late, *w.race->last)))) {
			w.race->spun++;
		} else {
			// A kernel tree's retry loop bounded by primitives: undecided here.
			throw path_budget_exhausted{
				reader ? fmt::format("{} (reading the writer's table at its end)", e.what()) : e.what(),
				false};
		}
	} catch (const strategy_fault& f) {
		if (probing)
			return std::nullopt;
		// The first such path ends the obligation: no other path of
		// the call is needed.
		const std::vector<z3::expr>& lits = oracle.path_condition();
		z3::expr cond = ctx.bool_val(true);
		for (const z3::expr& l : lits)
			cond = cond && l;
		throw path_fault{f, lits, m.events(), {part_paths{{cond, m.gaps()}}}};
	}
	if (!res)
		return std::nullopt;
	for (std::size_t j = 0; j < used.size(); j++)
		used[j] = used[j] || m.used()[j];
	path_run run{ctx.bool_val(true), {}, m.table(), m.taken(), m.cached(), m.stores_well_formed(),
		     *res, m.events(), gaps, m.snapshots()};
	std::size_t lit = 0;
	for (const path_oracle::step& st : oracle.taken()) {
		if (!st.decision)
			continue;
		const z3::expr& l = oracle.path_condition().at(lit++);
		run.decisions.emplace_back(st.taken, l);
		run.pc = run.pc && l;
	}
	return run;
}

// The paths of one part as one step: each value an ite over the decisions
// that tell the paths apart (decision_tree); a racing writer's tables
// joined into the race.
sym_step join_paths(z3::context& ctx, const sym_world& w, const std::vector<z3::expr>& table, const call& c,
		    std::size_t ordinal, const std::vector<path_run>& runs)
{
	sym_step st;
	st.ordinal = ordinal;
	st.c = c;
	st.before = table;
	st.paths = runs.size();
	const decision_tree tree(runs);
	for (std::size_t j = 0; j < table.size(); j++) {
		st.after.push_back(tree.join([&](std::size_t k) { return runs[k].table[j]; }));
		st.taken.push_back(tree.join([&](std::size_t k) { return runs[k].taken[j]; }));
		st.cached.push_back(tree.join([&](std::size_t k) { return runs[k].cached[j]; }));
	}
	if (w.stores_judged)
		st.stores_well_formed = tree.join([&](std::size_t k) { return runs[k].stores_well_formed; });
	st.result.pte = join_result(tree, runs, &sym_call_result::pte);
	st.result.young = join_result(tree, runs, &sym_call_result::young);
	st.result.changed = join_result(tree, runs, &sym_call_result::changed);
	st.events = join_events(tree, runs);
	if (w.race && ordinal == w.race->writer) {
		// Each path's tables, the shorter ones held at their last.
		std::size_t longest = 0;
		for (const path_run& r : runs)
			longest = std::max(longest, r.snapshots.size());
		std::vector<std::vector<z3::expr>>& joined = w.race->snapshots;
		joined.assign(longest, {});
		for (std::size_t k = 0; k < longest; k++)
			for (std::size_t j = 0; j < table.size(); j++)
				joined[k].push_back(tree.join([&](std::size_t p) {
					const auto& sn = runs[p].snapshots;
					return sn[std::min(k, sn.size() - 1)][j];
				}));
		w.race->last = tree.join([&](std::size_t p) {
			return ctx.bv_val(runs[p].snapshots.size() - 1, w.race->end.get_sort().bv_size());
		});
	}
	st.parts.emplace_back();
	for (const path_run& r : runs) {
		st.parts.back().emplace_back(r.pc, r.gaps);
		for (sym_event e : r.events) {
			if (runs.size() > 1)
				e.fired = e.fired && r.pc;
			st.trace.push_back(e);
		}
	}
	return st;
}

// Runs one part of call `c` from `table` on every feasible path
// (depth-first over decision prefixes: each run replays a prefix and leaves
// the alternatives it found feasible for later runs) and joins the paths.
// `carried`: entries whose last slot is the previous call's end slot and
// that no earlier part used; `used` gains the entries some path used.
sym_step run_joined(z3::context& ctx, path_solver& paths, strategy& strat, const sym_world& w,
		    const std::vector<z3::expr>& table, const call& c, const part_spec& part, std::size_t ordinal,
		    const prove_options& o, double& spent, const std::vector<bool>& carried, std::vector<bool>& used)
{
	// Path-running time only: the solver's own time is bounded by
	// timeout_ms, and counting it here would starve the later cases.
	const stopwatch clock;
	struct charge {
		double& spent;
		const stopwatch& clock;
		~charge() { spent += clock.seconds(); }
	} charged{spent, clock};
	std::vector<path_run> runs;
	std::vector<path_oracle::alternative> todo{{{}, paths.root()}};
	std::size_t explored = 0;
	while (!todo.empty()) {
		if (explored++ == o.max_paths)
			throw path_budget_exhausted{fmt::format("{} needs more than {} paths (--max-paths)",
								describe(part.run), o.max_paths)};
		if (spent + clock.seconds() > o.run_seconds)
			throw path_budget_exhausted{fmt::format("gave up at {} after {:.0f} s of paths (--run-seconds)",
								describe(part.run), o.run_seconds),
						    true};
		path_oracle::alternative next = std::move(todo.back());
		todo.pop_back();
		path_oracle oracle(paths, std::move(next));
		std::optional<path_run> run = run_path(ctx, oracle, strat, w, table, c, part, ordinal, o, carried, used);
		for (const auto& alt : oracle.alternatives())
			todo.push_back(alt);
		if (run)
			runs.push_back(std::move(*run));
	}
	if (runs.empty())
		throw internal_error(fmt::format("prover: no feasible path through {}", describe(part.run)));
	return join_paths(ctx, w, table, c, ordinal, runs);
}

// Whether run_call runs call `c` in one part (else as the single-entry
// calls of core-mm's generic batch loop).
bool runs_whole(strategy& strat, const sym_world& w, const call& c, std::size_t ordinal, const prove_options& o)
{
	const bool racing = w.race && (ordinal == w.race->writer || ordinal == w.race->reader);
	return racing || !(o.split_generic_batches && c.nr > 1 && strat.batch_is_generic(c.kind));
}

// Runs call `c` of the scenario: at once, or -- when it is core-mm's
// generic batch loop over the strategy's own ptep_get_and_clear_full -- as
// that loop's single-entry calls with the paths joined after each, so a
// strategy that branches on every entry's flags costs the sum of the
// entries' paths, not their product.  The loop keeps nothing between
// entries but the fold of their answers (generic_batch_fold), which is
// applied here to the joined answers: the same value on every path.
sym_step run_call(z3::context& ctx, path_solver& paths, strategy& strat, const sym_world& w,
		  const std::vector<z3::expr>& table, const call& c, std::size_t ordinal, const prove_options& o,
		  double& spent, std::vector<bool>& carried)
{
	std::vector<bool> used(table.size(), false);
	// What the next call may carry: the entries no part of this one used.
	auto hand_on = [&](sym_step st) {
		carried.assign(table.size(), false);
		for (std::size_t j = 0; j < used.size(); j++)
			carried[j] = !used[j];
		return st;
	};
	if (runs_whole(strat, w, c, ordinal, o))
		return hand_on(run_joined(ctx, paths, strat, w, table, c, part_spec{c, 0, true, {}, {}}, ordinal, o, spent,
					  carried, used));
	sym_step whole;
	whole.ordinal = ordinal;
	whole.c = c;
	whole.before = table;
	std::vector<z3::expr> now = table;
	std::vector<z3::expr> taken(table.size(), ctx.bv_val(0, 64));
	std::vector<z3::expr> cached;
	if (w.stores_judged)
		whole.stores_well_formed = ctx.bool_val(true);
	for (std::size_t k = 0; k < c.nr; k++) {
		part_spec part{call{call_kind::ptep_get_and_clear_full, c.index + k, 1, c.full, 0, 0}, k,
			       k + 1 == c.nr, taken, cached};
		// The last part's end slots: entries the earlier parts used end
		// the call with a slot of their own.
		std::vector<bool> still = carried;
		for (std::size_t j = 0; j < still.size() && j < used.size(); j++)
			still[j] = still[j] && !used[j];
		sym_step st;
		try {
			st = run_joined(ctx, paths, strat, w, now, c, part, ordinal, o, spent, still, used);
		} catch (path_fault& f) {
			// The parts before it place its slots in the call.
			f.trace.insert(f.trace.begin(), whole.trace.begin(), whole.trace.end());
			f.parts.insert(f.parts.begin(), whole.parts.begin(), whole.parts.end());
			throw;
		}
		now = st.after;
		taken = st.taken;
		cached = st.cached;
		if (w.stores_judged)
			whole.stores_well_formed = *whole.stores_well_formed && *st.stores_well_formed;
		whole.paths += st.paths;
		whole.events.insert(whole.events.end(), st.events.begin(), st.events.end());
		whole.trace.insert(whole.trace.end(), st.trace.begin(), st.trace.end());
		whole.parts.push_back(std::move(st.parts.front()));
		if (c.kind == call_kind::get_and_clear_full_ptes) {
			if (!st.result.pte)
				throw internal_error("prover: ptep_get_and_clear_full returned no value");
			whole.result.pte = k == 0 ? *st.result.pte : generic_batch_fold(*whole.result.pte, *st.result.pte);
		}
	}
	whole.after = now;
	whole.taken = taken;
	whole.cached = cached;
	return hand_on(std::move(whole));
}

std::vector<bool> claims_hold(const z3::model& mdl, const std::vector<claim>& claims)
{
	std::vector<z3::expr> asked;
	for (const claim& c : claims)
		asked.push_back(c.holds);
	return ground_truths(mdl, asked);
}

// Where each part of each call begins, in the call's gaps, under the
// model: the sum of the primitives of the paths the model took through the
// earlier parts.
std::vector<std::vector<std::size_t>> part_offsets(
	const z3::model& mdl, const std::vector<std::vector<part_paths>>& parts)
{
	std::vector<z3::expr> asked;
	for (const auto& call_parts : parts)
		for (std::size_t p = 0; p + 1 < call_parts.size(); p++)
			for (const auto& [pc, gaps] : call_parts[p])
				asked.push_back(pc);
	const std::vector<bool> truth = ground_truths(mdl, asked);
	std::size_t at = 0;
	std::vector<std::vector<std::size_t>> out;
	for (const auto& call_parts : parts) {
		out.emplace_back(call_parts.size(), 0);
		for (std::size_t p = 0; p + 1 < call_parts.size(); p++) {
			std::size_t taken = 0, gaps = 0;
			for (const auto& path : call_parts[p])
				if (truth[at++]) {
					taken++;
					gaps = path.second;
				}
			if (taken != 1)
				throw internal_error(fmt::format("prover: the model takes {} paths through one part", taken));
			out.back()[p + 1] = out.back()[p] + gaps;
		}
	}
	return out;
}

counterexample extract(const z3::model& mdl, const sym_world& world, const scenario& sc,
		       const std::vector<sym_event>& events, const std::vector<claim>& claims,
		       const std::vector<std::vector<part_paths>>& parts)
{
	const std::vector<std::vector<std::size_t>> offset = part_offsets(mdl, parts);
	counterexample ce;
	ce.geo = world.geo;
	ce.folios = world.folios;
	for (const z3::expr& e : world.initial)
		ce.initial.push_back(ground_value(mdl.eval(e, true)));
	std::vector<z3::expr> asked;
	for (const sym_event& e : events) {
		asked.push_back(e.fired);
		asked.push_back(e.write);
	}
	const std::vector<bool> truth = ground_truths(mdl, asked);
	for (std::size_t k = 0; k < events.size(); k++) {
		if (!truth[2 * k])
			continue;
		const sym_event& e = events[k];
		ce.events.push_back({e.call, offset.at(e.call).at(e.part) + e.gap, e.entry,
				     truth[2 * k + 1] ? hw_kind::write : hw_kind::access});
	}
	ce.calls = sc.calls;
	if (world.race)
		ce.race = world.race->in(mdl);
	for (std::size_t k = 0; k < ce.calls.size(); k++)
		if (const std::optional<z3::expr> v = world.argument(k))
			ce.calls[k].pte = ground_value(mdl.eval(*v, true));
	// The first claim the model falsifies names the property to replay.
	const std::vector<bool> held = claims_hold(mdl, claims);
	for (std::size_t k = 0; k < claims.size(); k++) {
		if (held[k])
			continue;
		ce.prop = claims[k].prop;
		ce.witness = claims[k].witness;
		break;
	}
	return ce;
}

// The counterexample of a faulting path, built as a sat final question's
// is: a model of the world's assumptions and the path's decisions (the
// earlier calls are joined, so the model picks a path through each of
// them), read off the calls up to the faulting one with the slots that
// fired.  None when the solver cannot give such a model (the oracle took a
// side as feasible on an unknown answer).
std::optional<counterexample> fault_counterexample(path_solver& paths, const sym_world& world,
						   const std::vector<call>& calls, std::size_t at,
						   std::vector<sym_event> trace, std::vector<std::vector<part_paths>> parts,
						   const path_fault& f)
{
	const std::optional<z3::model> mdl = paths.model_of(f.pc).second;
	if (!mdl)
		return std::nullopt;
	trace.insert(trace.end(), f.trace.begin(), f.trace.end());
	parts.push_back(f.parts);
	scenario upto;
	upto.calls.assign(calls.begin(), calls.begin() + static_cast<std::ptrdiff_t>(at + 1));
	counterexample ce = extract(*mdl, world, upto, trace, {}, parts);
	// What the checker's on_fault reports for it.
	ce.prop = f.fault.flush ? property::well_formed : property::isolation;
	return ce;
}

// Why a goal is refuted by a fault, whichever property it is about.
std::string fault_note(const call& c, const strategy_fault& f)
{
	if (f.flush)
		return fmt::format("the strategy flushed past the table on a feasible path ({} flushed the TLB for "
				   "#{}..#{} of {} entries): refuted as well-formed",
				   describe(c), f.index, f.index + f.nr - 1, f.table_size);
	return fmt::format("the strategy touched an entry outside the table on a feasible path ({} touched #{} of "
			   "{} entries): refuted as isolation",
			   describe(c), f.index, f.table_size);
}

} // namespace

case_batch::case_batch(z3::context& ctx, strategy& s, const prove_options& o, proof_result& into,
		       std::size_t entries)
	: case_batch(ctx, s, o, std::vector<goal>{goal{{}, &into}}, entries)
{
}

case_batch::case_batch(z3::context& ctx, strategy& s, const prove_options& o, std::vector<goal> goals,
		       std::size_t entries)
	: ctx_(ctx), strat_(s), o_(o), entries_(entries), oracle_solver_(make_solver(ctx, o, true))
{
	if (goals.empty())
		throw internal_error("prover: a case batch with nothing to prove");
	for (goal& g : goals)
		goals_.push_back(goal_state{std::move(g)});
}

bool case_batch::goal_state::covers(const claim& c) const
{
	return c.invariant == g.invariant &&
	       (g.props.empty() || std::find(g.props.begin(), g.props.end(), c.prop) != g.props.end());
}

bool case_batch::any_open() const
{
	return std::any_of(goals_.begin(), goals_.end(), [](const goal_state& g) { return g.open(); });
}

void case_batch::count_time_stops(std::size_t n)
{
	std::vector<proof_result*> counted;
	for (goal_state& g : goals_)
		if (n > 0 && std::find(counted.begin(), counted.end(), g.g.into) == counted.end()) {
			g.g.into->time_stops += n;
			counted.push_back(g.g.into);
		}
}

namespace {

// A solver frame for one case: the world's assumptions hold for it only.
class solver_frame {
public:
	explicit solver_frame(z3::solver& s) : s_(s) { s_.push(); }
	~solver_frame() { s_.pop(); }
	solver_frame(const solver_frame&) = delete;
	solver_frame& operator=(const solver_frame&) = delete;

private:
	z3::solver& s_;
};

} // namespace

bool case_batch::add(const sym_world& world, const scenario& sc)
{
	if (!any_open() || stopped_)
		return false;
	const solver_frame frame(oracle_solver_);
	const z3::check_result consistent = assume(world);
	path_solver paths(oracle_solver_, world.assumptions, o_.repair_models);
	if (o_.quick_solve_ms < o_.timeout_ms)
		paths.set_fallback(o_.quick_solve_ms, o_.timeout_ms,
				   static_cast<unsigned>(std::min<std::uint64_t>(
					   std::uint64_t{o_.quick_solve_ms} * o_.quick_units_per_ms, 0xffffffffu)));
	paths.set_timeout(o_.timeout_ms);
	slicer_ = &paths.slicer();
	struct forget {	// the slicer ends with the path solver, which counted its questions
		bit_slicer*& p;
		const path_solver& solver;
		std::vector<goal_state>& goals;
		case_batch& batch;
		~forget()
		{
			p = nullptr;
			for (goal_state& g : goals)
				g.g.into->path_questions += solver.solver_calls();
			batch.count_time_stops(solver.time_stops());
		}
	} forgotten{slicer_, paths, goals_, *this};
	if (o_.repair_models && consistent == z3::sat)
		paths.set_root(oracle_solver_.get_model());

	pending_case pc{world, sc.calls, {}, {}, {}, false};
	if (const std::optional<bool> ended = run_case(paths, world, sc, pc))
		return *ended;
	cases_.push_back(std::move(pc));
	// Big tables make big formulas: fewer cases per question.
	if (cases_.size() * world.initial.size() >= entries_)
		flush();
	return any_open();
}

z3::check_result case_batch::assume(const sym_world& world)
{
	for (const z3::expr& a : world.assumptions)
		oracle_solver_.add(a);
	// A world whose assumptions contradict each other would prove anything.
	const z3::check_result consistent = oracle_solver_.check();
	if (consistent == z3::unsat)
		throw internal_error("prover: the world's assumptions are unsatisfiable");
	return consistent;
}

std::optional<bool> case_batch::run_case(path_solver& paths, const sym_world& world, const scenario& sc,
					 pending_case& pc)
{
	std::vector<z3::expr> table = world.initial;
	std::vector<bool> carried;	// none before the first call
	auto next_check = o_.early_checks.begin();
	for (std::size_t k = 0; k < sc.calls.size(); k++) {
		if (const std::optional<z3::expr> rule = sc.requires_ ? sc.requires_(k, table) : std::nullopt) {
			const std::optional<bool> reachable = paths.assume(*rule);
			// Undecided, the assumptions may contradict each other: every
			// claim asked under them would hold vacuously.
			if (!reachable)
				return give_up_case(fmt::format("the solver could not decide whether a table before {} "
								"meets the caller's rule for it",
								describe(sc.calls[k])),
						    false, pc, k);
			if (!*reachable) {
				unreachable_++;
				// The calls before this one ran on reachable tables:
				// their claims are asked.
				if (!pc.claims.empty())
					return check_so_far(pc);
				return true;
			}
			pc.world.assumptions.push_back(*rule);
		}
		if (k + 1 == sc.calls.size() && o_.probes.value_or(0) > 0 && probe(paths, world, table, sc, k, carried, pc))
			return false;
		if (k + 1 == sc.calls.size() && o_.probe_only)
			return any_open();
		sym_step st;
		try {
			st = run_charged(paths, world, table, sc.calls[k], k, carried);
		} catch (const path_budget_exhausted& e) {
			return give_up_case(e.why, e.out_of_time, pc, k);
		} catch (const path_fault& f) {
			refute_by_fault(sc.calls[k], f.fault,
					fault_counterexample(paths, world, sc.calls, k, pc.trace, pc.parts, f));
			return false;
		}
		record(st, sc, pc);
		table = st.after;
		if (next_check != o_.early_checks.end() && k + 1 >= *next_check && k + 1 < sc.calls.size() &&
		    !pc.claims.empty()) {
			if (!check_so_far(pc))
				return false;
			// They hold in every model (of the goals still open, the
			// only ones asked again): the final question leaves them out.
			pc.claims.clear();
			while (next_check != o_.early_checks.end() && *next_check <= k + 1)
				++next_check;
		}
	}
	return std::nullopt;
}

sym_step case_batch::run_charged(path_solver& paths, const sym_world& world, const std::vector<z3::expr>& table,
				 const call& c, std::size_t ordinal, std::vector<bool>& carried)
{
	struct charge {	// the run seconds of this call, to every goal
		case_batch& b;
		double before;
		~charge()
		{
			for (goal_state& g : b.goals_)
				g.g.into->run_seconds += b.spent_ - before;
		}
	};
	const charge charged{*this, spent_};
	return run_call(ctx_, paths, strat_, world, table, c, ordinal, o_, spent_, carried);
}

bool case_batch::give_up_case(const std::string& why, bool out_of_time, const pending_case& pc,
			      std::size_t calls_run)
{
	note(why);
	// The calls that did run may already break a claim: that refutes the
	// obligation whatever the rest would do.
	if (!pc.claims.empty() && check_so_far(pc))
		note(fmt::format("the claims of the {} calls before it hold", calls_run));
	for (goal_state& g : goals_)
		if (g.open())
			g.verdict = proof_verdict::unknown;
	// The budget is gone for every later case too.
	stopped_ = stopped_ || out_of_time;
	return any_open() && !stopped_;
}

// Refutes every goal still open, whatever its property: the checker reports
// the fault itself (isolation, well-formed) before any claim about the call
// could be judged.
void case_batch::refute_by_fault(const call& c, const strategy_fault& fault, const std::optional<counterexample>& ce)
{
	for (goal_state& g : goals_) {
		if (!g.open())
			continue;
		note(*g.g.into, fault_note(c, fault));
		if (!ce) {
			note(*g.g.into, "the solver gave no model of that path");
			g.verdict = proof_verdict::unknown;
			g.gave_up = true;
			continue;
		}
		g.g.into->ce = *ce;
		g.g.into->ce->hw = o_.hw;
		g.verdict = proof_verdict::refuted;
	}
}

namespace {

std::function<void(const proof_result&)>& progress_sink()
{
	static std::function<void(const proof_result&)> sink;
	return sink;
}

} // namespace

void set_proof_progress(std::function<void(const proof_result&)> sink) { progress_sink() = std::move(sink); }

void report_proof_progress(const proof_result& r)
{
	if (progress_sink())
		progress_sink()(r);
}

void case_batch::record(sym_step& st, const scenario& sc, pending_case& pc)
{
	for (goal_state& g : goals_)
		g.g.into->paths += st.paths;
	report_proof_progress(*goals_.front().g.into);
	// Joined: some part of the call had paths to tell apart (ite terms).
	for (const auto& part : st.parts)
		pc.joined = pc.joined || part.size() > 1;
	if (sc.observe)
		sc.observe(st, pc.claims);
	pc.trace.insert(pc.trace.end(), st.trace.begin(), st.trace.end());
	pc.parts.push_back(std::move(st.parts));
}

// The claims of `pc` not yet proved, on the calls it has run so far (each
// claim is about a call that ran and the history before it, so a later
// call cannot change its truth), asked with the cases waiting in the batch.
// true while some goal is still open (not refuted, not given up).
bool case_batch::check_so_far(const pending_case& pc)
{
	cases_.push_back(pc);
	flush();
	return any_open();
}

proof_verdict case_batch::check()
{
	flush();
	for (goal_state& g : goals_)
		g.g.into->verdict = g.verdict;
	return goals_.front().verdict;
}

void case_batch::note(proof_result& r, const std::string& why)
{
	if (r.detail.find(why) == std::string::npos)
		r.detail += why + "; ";
}

void case_batch::note(const std::string& why)
{
	for (goal_state& g : goals_)
		note(*g.g.into, why);
}

// The cases' claims in one formula: the conjunction is valid iff every case
// is (the cases share the world's variables, and identical subterms --
// the same entry after the same hardware slot -- are one term), so Z3
// bit-blasts what the cases have in common once.
//
// The question is asked in a context of its own, a copy of just the
// formula: the shared context, after running the paths, holds every term
// they made, and the same formula is solved several times slower there.  A sat
// model is translated back, so counterexamples are read off the shared
// context's terms as before.  Each question's context is deleted when it
// is answered (that takes milliseconds: it held one formula).
//
// With several goals, the open ones are asked in one question; when the
// model breaks some, each of those is refuted and the rest are asked again
// without them; when the solver gives up on several, each is asked alone.
void case_batch::flush()
{
	std::vector<std::vector<std::size_t>> queue;
	std::vector<std::size_t> open;
	for (std::size_t k = 0; k < goals_.size(); k++)
		if (goals_[k].open())
			open.push_back(k);
	if (!open.empty())
		queue.push_back(open);
	while (!cases_.empty() && !queue.empty()) {
		const std::vector<std::size_t> ask = std::move(queue.back());
		queue.pop_back();
		const std::unique_ptr<z3::context> question = std::make_unique<z3::context>();
		for (std::vector<std::size_t>& next : flush_in(*question, ask))
			queue.push_back(std::move(next));
	}
	cases_.clear();
}

std::vector<std::vector<std::size_t>> case_batch::flush_in(z3::context& qctx, const std::vector<std::size_t>& ask)
{
	pending_question q = gather(ask);
	if (q.claims.empty())
		return {};
	for (std::size_t g : ask)
		goals_[g].g.into->formulas++;
	stopwatch clock;
	// Cases whose calls joined several paths carry ite trees over their
	// decisions: at bit level (bit_slicer.h) they shrink to the few flag
	// bits the claims read.  A single-path case is left at word level,
	// which the bit-vector simplifier handles better.
	const bool bit_level = q.joined && o_.bit_level_claims;
	q.asserted.push_back(!claims_formula(q.claims, bit_level));
	answer a = solve(qctx, q.asserted, bit_level, o_.timeout_ms);
	for (std::size_t g : ask)
		goals_[g].g.into->solve_seconds += clock.seconds();
	switch (a.result) {
	case z3::unsat:
		return {};
	case z3::sat:
		return refute_by_model(a.solver.get_model(), ask);
	case z3::unknown:
		break;
	}
	return give_up_question(a.solver, ask);
}

case_batch::pending_question case_batch::gather(const std::vector<std::size_t>& ask) const
{
	auto asked = [&](const claim& cl) {
		return std::any_of(ask.begin(), ask.end(), [&](std::size_t g) { return goals_[g].covers(cl); });
	};
	// One flat conjunction: grown one claim at a time it would nest as deep
	// as there are claims.
	pending_question q{z3::expr_vector(ctx_), z3::expr_vector(ctx_), false};
	for (const pending_case& c : cases_) {
		q.joined = q.joined || c.joined;
		for (const z3::expr& a : c.world.assumptions)
			q.asserted.push_back(a);
		for (const claim& cl : c.claims)
			if (asked(cl))
				q.claims.push_back(cl.holds);
	}
	return q;
}

z3::expr case_batch::claims_formula(const z3::expr_vector& claims, bool bit_level)
{
	const z3::expr all = z3::mk_and(claims);
	if (!bit_level)
		return all;
	// The slicer that sliced the case's branch conditions already has many
	// of the words' bits, so it slices the question faster than a fresh one.
	std::optional<bit_slicer> own;
	bit_slicer& bits = slicer_ ? *slicer_ : own.emplace(ctx_);
	return bits.truth(all);
}

// A bit-level question goes to the qfbv tactic for a short while, then, if
// that was not enough, to the circuit solver for the full timeout.  Each is
// several times faster than the other on some of these formulas, and
// neither is on all of them.
case_batch::answer case_batch::solve(z3::context& qctx, const z3::expr_vector& asserted, bool bit_level,
				     unsigned timeout_ms, unsigned rlimit) const
{
	const z3::expr_vector moved(qctx, asserted);
	z3::solver fs = make_solver(qctx, o_, false);
	if (timeout_ms != o_.timeout_ms || rlimit) {
		z3::params p(qctx);
		p.set("timeout", timeout_ms);
		if (rlimit)
			p.set("rlimit", rlimit);
		fs.set(p);
	}
	for (const z3::expr& a : moved)
		fs.add(a);
	if (!bit_level) {
		const timed_answer a = timed_check(fs);
		return {a.result, fs, rlimit && stopped_by_time(a, timeout_ms)};
	}
	bool time_stop = false;
	if (o_.quick_solve_ms < timeout_ms) {
		z3::params quick(qctx);
		// With a resource limit the first solver's share of it is the
		// share of time it has, not the time itself; the time is a net.
		const unsigned quick_ms = rlimit ? std::min(timeout_ms, safety_net_ms(o_.quick_solve_ms)) : o_.quick_solve_ms;
		quick.set("timeout", quick_ms);
		if (rlimit) {
			quick.set("rlimit", std::max(1u, static_cast<unsigned>(std::uint64_t{rlimit} * o_.quick_solve_ms /
										timeout_ms)));
		}
		fs.set(quick);
		const timed_answer a = timed_check(fs);
		if (a.result != z3::unknown)
			return {a.result, fs};
		time_stop = rlimit && stopped_by_time(a, quick_ms);
	}
	z3::solver circuit = make_circuit_solver(qctx, timeout_ms, rlimit);
	for (const z3::expr& a : moved)
		circuit.add(a);
	const timed_answer a = timed_check(circuit);
	return {a.result, circuit, time_stop || (rlimit && stopped_by_time(a, timeout_ms))};
}

// The model breaks some asked goal: each it breaks is refuted by the first
// case whose claims of that goal it falsifies; the others are asked again.
std::vector<std::vector<std::size_t>> case_batch::refute_by_model(z3::model qm, const std::vector<std::size_t>& ask)
{
	const z3::model mdl(qm, ctx_, z3::model::translate{});
	std::vector<std::size_t> again;
	for (std::size_t g : ask)
		if (!refuted_by(mdl, goals_[g]))
			again.push_back(g);
	if (again.size() == ask.size())
		throw internal_error("prover: a model falsifies the batch but none of its cases");
	if (again.empty())
		return {};
	return {again};
}

bool case_batch::refuted_by(const z3::model& mdl, goal_state& gs) const
{
	return std::any_of(cases_.begin(), cases_.end(),
			   [&](const pending_case& c) { return refuted_by(mdl, gs, c); });
}

bool case_batch::refuted_by(const z3::model& mdl, goal_state& gs, const pending_case& c) const
{
	std::vector<claim> mine;
	for (const claim& cl : c.claims)
		if (gs.covers(cl))
			mine.push_back(cl);
	const std::vector<bool> held = claims_hold(mdl, mine);
	if (std::find(held.begin(), held.end(), false) == held.end())
		return false;
	scenario sc;
	sc.calls = c.calls;
	gs.g.into->ce = extract(mdl, c.world, sc, c.trace, mine, c.parts);
	gs.g.into->ce->hw = o_.hw;
	gs.verdict = proof_verdict::refuted;
	return true;
}

// Probes call k, the case's last, before it runs on every path
// (prove_options::probes): each probe follows one path through it
// (path_oracle::probe) and asks whether a model of the world and that path
// breaks a claim of an open goal.  Such a model is a counterexample like
// any other, whatever the paths not taken would do.  A probe that finds
// none proves nothing; the search that follows decides.  true when the
// probes left no goal open.
bool case_batch::probe(path_solver& paths, const sym_world& world, const std::vector<z3::expr>& table,
		       const scenario& sc, std::size_t k, const std::vector<bool>& carried, const pending_case& pc)
{
	const call& c = sc.calls[k];
	if (!paths.root() || !runs_whole(strat_, world, c, k, o_))
		return false;
	const stopwatch clock;
	// Some probes follow the models they are given, the others turn off
	// them, more or less often: the seed makes a run repeatable.
	static constexpr double flips[] = {0.5, 0.125, 0.25, 0};
	path_oracle::probe policy{std::mt19937_64(probe_seed_++), 0, o_.probe_decision_ms, o_.probe_decision_rlimit};
	std::size_t asked = 0;
	for (std::size_t n = 0; n < *o_.probes && clock.seconds() < o_.probe_seconds && any_open(); n++) {
		policy.flip = flips[n % std::size(flips)];
		// Half the probes start from the model every path starts from,
		// the others from a model of the assumptions with random phases
		// (another table, other flags).
		valuation start = *paths.root();
		if (n % 2 == 1)
			if (std::optional<valuation> other = random_model(pc.world.assumptions, n))
				start = std::move(*other);
		if (world.race && k == world.race->reader && start.complete())
			start = start.with(probe_points(*world.race, n, *o_.probes, policy.rng));
		path_oracle oracle(paths, std::move(start), policy);
		std::vector<bool> used(table.size(), false);
		std::optional<path_run> run =
			run_path(ctx_, oracle, strat_, world, table, c, part_spec{c, 0, true, {}, {}}, k, o_, carried, used);
		if (!run)
			continue;
		pending_case one = pc;
		for (const auto& [taken, lit] : run->decisions)
			one.world.assumptions.push_back(lit);
		std::vector<path_run> runs;
		runs.push_back(std::move(*run));
		sym_step st = join_paths(ctx_, world, table, c, k, runs);
		if (sc.observe)
			sc.observe(st, one.claims);
		one.trace.insert(one.trace.end(), st.trace.begin(), st.trace.end());
		one.parts.push_back(std::move(st.parts));
		asked++;
		if (probe_refutes(one)) {
			note(fmt::format("refuted by probe {} (one path of {}, its model asked of the claims)", n + 1,
					 describe(c)));
			break;
		}
	}
	// Probes left unsent for time: their number is work, not time.
	if (any_open() && clock.seconds() >= o_.probe_seconds)
		count_time_stops(1);
	probes_asked_ += asked;
	probe_seconds_ += clock.seconds();
	return !any_open();
}

// A model of `assumptions` that bit-blasting with random phases gives:
// another table than the first model's, with other flags.
std::optional<valuation> case_batch::random_model(const std::vector<z3::expr>& assumptions, std::size_t seed)
{
	z3::solver s = z3::tactic(ctx_, "qfbv").mk_solver();
	z3::params p(ctx_);
	p.set("timeout", o_.probe_solve_ms);
	if (o_.probe_solve_rlimit)
		p.set("rlimit", o_.probe_solve_rlimit);
	p.set("random_seed", static_cast<unsigned>(seed));
	p.set("phase", ctx_.str_symbol("random"));
	s.set(p);
	for (const z3::expr& a : assumptions)
		s.add(a);
	const timed_answer a = timed_check(s);
	if (o_.probe_solve_rlimit && stopped_by_time(a, o_.probe_solve_ms))
		count_time_stops(1);
	if (a.result != z3::sat)
		return std::nullopt;
	return valuation::of(s.get_model());
}

bool case_batch::probe_refutes(const pending_case& c)
{
	z3::expr_vector claims(ctx_), asserted(ctx_);
	for (const claim& cl : c.claims)
		if (std::any_of(goals_.begin(), goals_.end(), [&](const goal_state& g) { return g.open() && g.covers(cl); }))
			claims.push_back(cl.holds);
	if (claims.empty())
		return false;
	for (const z3::expr& a : c.world.assumptions)
		asserted.push_back(a);
	const bool bit_level = c.joined && o_.bit_level_claims;
	asserted.push_back(!claims_formula(claims, bit_level));
	const std::unique_ptr<z3::context> question = std::make_unique<z3::context>();
	answer a = solve(*question, asserted, bit_level, o_.probe_solve_ms, o_.probe_solve_rlimit);
	if (a.time_stop)
		count_time_stops(1);
	if (a.result != z3::sat)
		return false;
	z3::model qm = a.solver.get_model();
	const z3::model mdl(qm, ctx_, z3::model::translate{});
	bool any = false;
	for (goal_state& g : goals_)
		if (g.open())
			any = refuted_by(mdl, g, c) || any;
	if (!any)
		throw internal_error("prover: a probe's model falsifies its claims but none of its goals'");
	return true;
}

std::vector<std::vector<std::size_t>> case_batch::give_up_question(z3::solver& answered,
								   const std::vector<std::size_t>& ask)
{
	// Several goals at once may be more than the solver can take where
	// each alone is not.
	if (ask.size() > 1) {
		std::vector<std::vector<std::size_t>> alone;
		for (std::size_t g : ask)
			alone.push_back({g});
		return alone;
	}
	goal_state& gs = goals_[ask.front()];
	note(*gs.g.into, "solver: " + answered.reason_unknown());
	// The obligation cannot be proved any more, and its later cases are
	// as large: they would spend the same timeout again.
	gs.verdict = proof_verdict::unknown;
	gs.gave_up = true;
	return {};
}

} // namespace ptespec::proofs
