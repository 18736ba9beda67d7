#include "proofs/engine/path_solver.h"

#include <algorithm>
#include <string>

namespace ptespec::proofs {

path_solver::path_solver(z3::solver& s, const std::vector<z3::expr>& assumptions, bool repairs)
	: s_(s), slicer_(s.ctx()), repairs_(repairs)
{
	for (const z3::expr& a : assumptions)
		for (const var& v : vars_of(a)) {
			grow_for(bound_, v.id, false);
			bound_[v.id] = true;
		}
}

std::optional<bool> path_solver::assume(const z3::expr& a)
{
	s_.add(a);
	for (const var& v : vars_of(a)) {
		grow_for(bound_, v.id, false);
		bound_[v.id] = true;
	}
	const z3::check_result r = s_.check();
	if (r == z3::unsat)
		return false;
	if (r != z3::sat) {
		root_.reset();
		return std::nullopt;
	}
	// The root must be a model of every assumption.
	if (root_)
		root_ = valuation::of(s_.get_model());
	return true;
}

path_solver::outcome path_solver::ask(const std::vector<z3::expr>& decided, const z3::expr& lit, unsigned first_ms,
				      unsigned blast_ms, unsigned first_rlimit, unsigned blast_rlimit)
{
	solver_calls_++;
	z3::expr_vector a(lit.ctx());
	for (const z3::expr& d : decided)
		a.push_back(proxy(d));
	a.push_back(proxy(lit));
	if (first_ms)
		s_.set("timeout", first_ms);
	if (first_rlimit)
		s_.set("rlimit", first_rlimit);
	const timed_answer first = timed_check(s_, a);
	z3::check_result r = first.result;
	if (first_rlimit && stopped_by_time(first, first_ms ? first_ms : usual_ms_))
		time_stops_++;
	if (first_ms)
		s_.set("timeout", usual_ms_);
	if (first_rlimit)
		s_.set("rlimit", 0u);
	if (r == z3::sat)
		return {r, valuation::of(s_.get_model())};
	if (r == z3::unsat || !blast_ms)
		return {r, std::nullopt};
	// The fallback: the same question, bit-blasted.
	z3::solver blast = z3::tactic(s_.ctx(), "qfbv").mk_solver();
	blast.set("timeout", blast_ms);
	if (blast_rlimit)
		blast.set("rlimit", blast_rlimit);
	blast.add(s_.assertions());
	for (const z3::expr& d : decided)
		blast.add(d);
	blast.add(lit);
	const timed_answer blasted = timed_check(blast);
	r = blasted.result;
	if (blast_rlimit && stopped_by_time(blasted, blast_ms))
		time_stops_++;
	if (r == z3::sat)
		return {r, valuation::of(blast.get_model())};
	return {r, std::nullopt};
}

path_solver::answer path_solver::feasible(const std::vector<z3::expr>& decided, const z3::expr& lit)
{
	outcome o = ask(decided, lit, quick_ms_, quick_ms_ ? full_ms_ : 0, quick_rlimit_);
	return {o.result != z3::unsat, std::move(o.model)};
}

std::optional<valuation> path_solver::model_within(const std::vector<z3::expr>& decided, const z3::expr& lit,
						       unsigned ms, unsigned rlimit)
{
	// The incremental solver first, briefly (as feasible() does), then
	// bit-blasting for the rest of the time (and work).
	const unsigned first = quick_ms_ ? std::min(quick_ms_, ms) : ms;
	// The first try stops where feasible()'s does; a question with no
	// second try has the whole budget.
	unsigned first_rlimit = first == ms ? rlimit : 0;
	if (quick_rlimit_)
		first_rlimit = rlimit ? std::min(quick_rlimit_, rlimit) : quick_rlimit_;
	return ask(decided, lit, first, first == ms ? 0 : ms, first_rlimit, first == ms ? 0 : rlimit).model;
}

std::pair<z3::check_result, std::optional<z3::model>> path_solver::model_of(const std::vector<z3::expr>& decided)
{
	z3::expr_vector a(s_.ctx());
	for (const z3::expr& d : decided)
		a.push_back(proxy(d));
	const z3::check_result r = s_.check(a);
	if (r != z3::sat)
		return {r, std::nullopt};
	return {r, s_.get_model()};
}

std::optional<bool> path_solver::holds(const valuation& m, const z3::expr& cond,
				       std::span<const valuation::change> overrides)
{
	if (const std::optional<std::uint64_t> v = eval_(cond, m, overrides))
		return *v != 0;
	const z3::expr v = m.eval(cond, overrides);
	if (v.is_true() || v.is_false())
		return v.is_true();
	return std::nullopt;
}

std::optional<valuation> path_solver::repair(const valuation& m, const std::vector<z3::expr>& decided,
					    const z3::expr& lit)
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

std::optional<valuation> path_solver::repair_randomly(const valuation& m, const std::vector<z3::expr>& decided,
						     const z3::expr& lit, std::mt19937_64& rng, unsigned tries)
{
	if (!m.complete())
		return std::nullopt;
	std::vector<valuation::change> to;
	std::vector<unsigned> widths;
	for (const var& v : vars_of(lit)) {
		if ((v.id < bound_.size() && bound_[v.id]) || v.width == 0)
			continue;
		to.push_back({z3::expr(lit.ctx(), v.term), 0});
		widths.push_back(v.width);
	}
	if (to.empty())
		return std::nullopt;
	for (unsigned t = 0; t < tries; t++) {
		for (std::size_t k = 0; k < to.size(); k++) {
			const std::uint64_t all = low_bits(widths[k]);
			const bool small = widths[k] <= 16 && std::bernoulli_distribution(0.75)(rng);
			to[k].value = (small ? std::uniform_int_distribution<std::uint64_t>(0, 63)(rng) : rng()) & all;
		}
		if (holds(m, lit, to) != true)
			continue;
		const bool kept = std::all_of(decided.begin(), decided.end(),
					      [&](const z3::expr& d) { return holds(m, d, to) == true; });
		if (!kept)
			continue;
		repaired_++;
		return m.with(to);
	}
	return std::nullopt;
}

const std::vector<path_solver::var>& path_solver::vars_of(const z3::expr& lit)
{
	const z3::expr t = lit.is_not() ? lit.arg(0) : lit;
	auto it = vars_.find(t.id());
	if (it == vars_.end()) {
		it = vars_.emplace(t.id(), std::pair{t, std::vector<var>{}}).first;
		collect(t, it->second.second);
	}
	return it->second.second;
}

void path_solver::collect(const z3::expr& e, std::vector<var>& into)
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

z3::expr path_solver::proxy(const z3::expr& lit)
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

} // namespace ptespec::proofs
