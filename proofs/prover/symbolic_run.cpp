#include "proofs/prover/symbolic_run.h"

#include <utility>

#include <fmt/format.h>

#include "impl/generic.h"
#include "model/errors.h"
#include "proofs/invariant.h"

namespace ptespec::proofs {

// The machine set up as the world asks for call `ordinal`: a racing writer
// keeps its tables, a racing reader reads them, stores judged or not.
void symbolic_run::set_up(symbolic_machine& m, std::size_t ordinal) const
{
	const bool writer = w_.race && ordinal == w_.race->writer;
	const bool reader = w_.race && ordinal == w_.race->reader;
	if (writer)
		m.keep_snapshots();
	if (reader) {
		// The reader's reads are the writer's tables, and its
		// events are the writer's slots: it adds none.
		m.set_hardware(false);
		m.set_torn_reads({[race = w_.race](std::size_t i, std::size_t n) { return race->read(i, n); }});
	}
	if (w_.stores_judged)
		m.set_run_shape([&w = w_](const std::vector<z3::expr>& t, std::size_t i) {
			return run_well_formed(t, w.geo, w.geo.run_start(i), false);
		});
	else
		m.set_judge_stores(false);
	m.set_folios(w_.folios);
	m.set_call_ordinal(ordinal);
	m.set_argument(w_.argument(ordinal));
}

// A lockless reader that spun on the writer's table at its late point: if
// the writer had not ended there, only a third moment of it would let the
// reader return -- a path outside what the race covers, dropped (returns).
// After the writer's end the spin is the reader's own: undecided.
void symbolic_run::livelocked(path_oracle& oracle, const strategy_livelock& e, bool reader) const
{
	if (reader && oracle.take(oracle.normal(z3::ult(w_.race->late, *w_.race->last)))) {
		w_.race->spun++;
		return;
	}
	// A kernel tree's retry loop bounded by primitives: undecided here.
	throw path_budget_exhausted{
		reader ? fmt::format("{} (reading the writer's table at its end)", e.what()) : e.what(), false};
}

// The machine set up (set_up), the strategy invoked.  A probe (a probing
// oracle) only looks for a counterexample: a path it cannot follow to the
// end, for whatever reason, is simply not one.
std::optional<path_run> symbolic_run::run_path(path_oracle& oracle, const std::vector<z3::expr>& table,
					       const call& c, const part_spec& part, std::size_t ordinal,
					       const std::vector<bool>& carried, std::vector<bool>& used)
{
	const bool probing = oracle.probing();
	symbolic_machine m(ctx_, w_.geo, table, oracle, o_.hw);
	const bool reader = w_.race && ordinal == w_.race->reader;
	set_up(m, ordinal);
	std::optional<sym_call_result> res;
	std::size_t gaps = 0;
	try {
		m.begin_call(c.index, range_end(c) - c.index);
		if (!part.taken.empty())
			m.resume(part.index, part.taken, part.cached);
		res = strat_.invoke(m, part.run);
		gaps = m.gaps();
		if (part.last)
			m.end_call(o_.search.carry_end_slots ? carried : std::vector<bool>{});
	} catch (const path_oracle::infeasible_path&) {
	} catch (const symbolic_limit& e) {
		if (probing)
			return std::nullopt;
		throw path_budget_exhausted{e.what(), false};
	} catch (const strategy_livelock& e) {
		if (probing)
			return std::nullopt;
		livelocked(oracle, e, reader);
	} catch (const strategy_fault& f) {
		if (probing)
			return std::nullopt;
		// The first such path ends the obligation: no other path of
		// the call is needed.
		const std::vector<z3::expr>& lits = oracle.path_condition();
		z3::expr cond = ctx_.bool_val(true);
		for (const z3::expr& l : lits)
			cond = cond && l;
		throw path_fault{f, lits, m.events(), {part_paths{{cond, m.gaps()}}}};
	}
	if (!res)
		return std::nullopt;
	for (std::size_t j = 0; j < used.size(); j++)
		used[j] = used[j] || m.used()[j];
	path_run run{ctx_.bool_val(true), {}, m.table(), m.taken(), m.cached(), m.stores_well_formed(),
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

// Runs one part of call `c` from `table` on every feasible path
// (depth-first over decision prefixes: each run replays a prefix and leaves
// the alternatives it found feasible for later runs) and joins the paths.
// `carried`: entries whose last slot is the previous call's end slot and
// that no earlier part used; `used` gains the entries some path used.
sym_step symbolic_run::run_joined(const std::vector<z3::expr>& table, const call& c, const part_spec& part,
				  std::size_t ordinal, const std::vector<bool>& carried, std::vector<bool>& used)
{
	// Path-running time only: the solver's own time is bounded by
	// timeout_ms, and counting it here would starve the later cases.
	const stopwatch clock;
	struct charge {
		double& spent;
		const stopwatch& clock;
		~charge() { spent += clock.seconds(); }
	} charged{spent_, clock};
	std::vector<path_run> runs;
	std::vector<path_oracle::alternative> todo{{{}, paths_.root()}};
	std::size_t explored = 0;
	while (!todo.empty()) {
		if (explored++ == o_.search.max_paths)
			throw path_budget_exhausted{fmt::format("{} needs more than {} paths (--max-paths)",
								describe(part.run), o_.search.max_paths)};
		if (spent_ + clock.seconds() > o_.search.run_seconds)
			throw path_budget_exhausted{fmt::format("gave up at {} after {:.0f} s of paths (--run-seconds)",
								describe(part.run), o_.search.run_seconds),
						    true};
		path_oracle::alternative next = std::move(todo.back());
		todo.pop_back();
		path_oracle oracle(paths_, std::move(next));
		std::optional<path_run> run = run_path(oracle, table, c, part, ordinal, carried, used);
		for (const auto& alt : oracle.alternatives())
			todo.push_back(alt);
		if (run)
			runs.push_back(std::move(*run));
	}
	if (runs.empty())
		throw internal_error(fmt::format("prover: no feasible path through {}", describe(part.run)));
	return join_paths(ctx_, w_, table, c, ordinal, runs);
}

bool symbolic_run::runs_whole(const call& c, std::size_t ordinal) const
{
	const bool racing = w_.race && (ordinal == w_.race->writer || ordinal == w_.race->reader);
	return racing || !(o_.search.split_generic_batches && c.nr > 1 && strat_.batch_is_generic(c.kind));
}

sym_step symbolic_run::run_call(const std::vector<z3::expr>& table, const call& c, std::size_t ordinal,
				std::vector<bool>& carried)
{
	std::vector<bool> used(table.size(), false);
	sym_step st = runs_whole(c, ordinal)
			      ? run_joined(table, c, part_spec{c, 0, true, {}, {}}, ordinal, carried, used)
			      : run_parts(table, c, ordinal, carried, used);
	// What the next call may carry: the entries no part of this one used.
	carried.assign(table.size(), false);
	for (std::size_t j = 0; j < used.size(); j++)
		carried[j] = !used[j];
	return st;
}

// Call `c` as core-mm's generic batch loop: one part per entry, each from
// the table and the taken values the part before it left.  The loop keeps
// nothing between entries but the fold of their answers
// (generic_batch_fold), which is applied here to the joined answers: the
// same value on every path.
sym_step symbolic_run::run_parts(const std::vector<z3::expr>& table, const call& c, std::size_t ordinal,
				 const std::vector<bool>& carried, std::vector<bool>& used)
{
	sym_step whole;
	whole.ordinal = ordinal;
	whole.c = c;
	whole.before = table;
	std::vector<z3::expr> now = table;
	std::vector<z3::expr> taken(table.size(), ctx_.bv_val(0, 64));
	std::vector<z3::expr> cached;
	if (w_.stores_judged)
		whole.stores_well_formed = ctx_.bool_val(true);
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
			st = run_joined(now, c, part, ordinal, still, used);
		} catch (path_fault& f) {
			// The parts before it place its slots in the call.
			f.trace.insert(f.trace.begin(), whole.trace.begin(), whole.trace.end());
			f.parts.insert(f.parts.begin(), whole.parts.begin(), whole.parts.end());
			throw;
		}
		now = st.after;
		taken = st.taken;
		cached = st.cached;
		if (w_.stores_judged)
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
	return whole;
}

} // namespace ptespec::proofs
