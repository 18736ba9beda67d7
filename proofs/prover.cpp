#include "proofs/prover.h"

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec::proofs {

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
};

z3::solver make_solver(z3::context& ctx, const prove_options& o, bool incremental)
{
	// The incremental solver answers the many small feasibility questions
	// of the path oracle; the final question is one large bit-vector
	// formula, which bit-blasting to SAT solves much faster than the
	// incremental core does.
	z3::solver s = incremental ? z3::solver(ctx, "QF_BV") : z3::tactic(ctx, "qfbv").mk_solver();
	z3::params p(ctx);
	p.set("timeout", o.timeout_ms);
	s.set(p);
	return s;
}

// One term over the paths: the one they agree on, else an ite on their
// conditions (the last path is the default: the paths are exhaustive).
z3::expr join(const std::vector<z3::expr>& pcs, const std::vector<z3::expr>& vals)
{
	bool same = true;
	for (std::size_t k = 1; k < vals.size() && same; k++)
		same = z3::eq(vals[k], vals[0]);
	if (same)
		return vals[0];
	z3::expr out = vals.back();
	for (std::size_t k = vals.size() - 1; k-- > 0;)
		out = z3::ite(pcs[k], vals[k], out);
	return out;
}

std::optional<z3::expr> join(const std::vector<z3::expr>& pcs, const std::vector<sym_call_result>& rs,
			     std::optional<z3::expr> sym_call_result::*field)
{
	std::vector<z3::expr> vals;
	for (const sym_call_result& r : rs)
		if (r.*field)
			vals.push_back(*(r.*field));
	if (vals.empty())
		return std::nullopt;
	if (vals.size() != rs.size())
		throw internal_error("prover: the paths of one call disagree on what it returns");
	return join(pcs, vals);
}

// One path of one call.
struct path_run {
	z3::expr pc;
	std::vector<z3::expr> table, taken;
	sym_call_result result;
	std::vector<sym_event> events;
};

// Runs call `c` from `table` on every feasible path (depth-first over
// decision prefixes: each run replays a prefix and leaves the alternatives
// it found feasible for later runs) and joins the paths.
sym_step run_joined(z3::context& ctx, z3::solver& s, strategy& strat, const sym_world& w,
		    const std::vector<z3::expr>& table, const call& c, std::size_t ordinal, const prove_options& o,
		    const stopwatch& clock)
{
	std::vector<path_run> runs;
	std::vector<std::vector<path_oracle::step>> todo{{}};
	std::size_t explored = 0;
	while (!todo.empty()) {
		if (explored++ == o.max_paths)
			throw path_budget_exhausted{fmt::format("{} needs more than {} paths", describe(c), o.max_paths)};
		if (clock.seconds() > o.run_seconds)
			throw path_budget_exhausted{fmt::format("gave up at {} after {:.0f} s of paths", describe(c),
								o.run_seconds)};
		std::vector<path_oracle::step> prefix = std::move(todo.back());
		todo.pop_back();
		s.push();
		path_oracle oracle(s, prefix);
		symbolic_machine m(ctx, w.geo, table, oracle);
		m.set_folios(w.folios);
		m.set_call_ordinal(ordinal);
		std::optional<sym_call_result> res;
		try {
			m.begin_call();
			res = strat.invoke(m, c);
			m.end_call();
		} catch (const path_oracle::infeasible_path&) {
		}
		for (const auto& alt : oracle.alternatives())
			todo.push_back(alt);
		s.pop();
		if (!res)
			continue;
		z3::expr pc = ctx.bool_val(true);
		for (const z3::expr& lit : oracle.path_condition())
			pc = pc && lit;
		runs.push_back({pc, m.table(), m.taken(), *res, m.events()});
	}
	if (runs.empty())
		throw internal_error(fmt::format("prover: no feasible path through {}", describe(c)));

	sym_step st;
	st.ordinal = ordinal;
	st.c = c;
	st.before = table;
	st.paths = runs.size();
	std::vector<z3::expr> pcs;
	std::vector<sym_call_result> results;
	for (const path_run& r : runs) {
		pcs.push_back(r.pc);
		results.push_back(r.result);
	}
	for (std::size_t j = 0; j < table.size(); j++) {
		std::vector<z3::expr> now, took;
		for (const path_run& r : runs) {
			now.push_back(r.table[j]);
			took.push_back(r.taken[j]);
		}
		st.after.push_back(join(pcs, now));
		st.taken.push_back(join(pcs, took));
	}
	st.result.pte = join(pcs, results, &sym_call_result::pte);
	st.result.young = join(pcs, results, &sym_call_result::young);
	st.result.changed = join(pcs, results, &sym_call_result::changed);
	for (const path_run& r : runs)
		for (sym_event e : r.events) {
			if (runs.size() > 1)
				e.fired = e.fired && r.pc;
			st.events.push_back(e);
		}
	return st;
}

counterexample extract(const z3::model& mdl, const sym_world& world, const scenario& sc,
		       const std::vector<sym_event>& events, const std::vector<claim>& claims)
{
	counterexample ce;
	ce.geo = world.geo;
	ce.folios = world.folios;
	for (const z3::expr& e : world.initial)
		ce.initial.push_back(ground_value(mdl.eval(e, true)));
	for (const sym_event& e : events) {
		if (!ground_truth(mdl.eval(e.fired, true)))
			continue;
		const bool write = ground_truth(mdl.eval(e.write, true));
		ce.events.push_back({e.call, e.gap, e.entry, write ? hw_kind::write : hw_kind::access});
	}
	ce.calls = sc.calls;
	// The first claim the model falsifies names the property to replay.
	for (const claim& c : claims) {
		if (ground_truth(mdl.eval(c.holds, true)))
			continue;
		ce.prop = c.prop;
		ce.witness = c.witness;
		break;
	}
	return ce;
}

} // namespace

case_batch::case_batch(z3::context& ctx, strategy& s, const prove_options& o, proof_result& into,
		       std::size_t entries)
	: ctx_(ctx), strat_(s), o_(o), into_(into), entries_(entries), oracle_solver_(make_solver(ctx, o, true))
{
}

bool case_batch::add(const sym_world& world, const scenario& sc)
{
	if (verdict_ == proof_verdict::refuted)
		return false;
	z3::solver& s = oracle_solver_;
	s.push();
	for (const z3::expr& a : world.assumptions)
		s.add(a);
	// A world whose assumptions contradict each other would prove anything.
	if (s.check() == z3::unsat)
		throw internal_error("prover: the world's assumptions are unsatisfiable");

	pending_case pc{world, sc.calls, {}, {}};
	std::vector<z3::expr> table = world.initial;
	for (std::size_t k = 0; k < sc.calls.size(); k++) {
		sym_step st;
		try {
			st = run_joined(ctx_, s, strat_, world, table, sc.calls[k], k, o_, clock_);
		} catch (const path_budget_exhausted& e) {
			s.pop();
			note(e.why);
			verdict_ = proof_verdict::unknown;
			return true;
		}
		into_.paths += st.paths;
		if (sc.observe)
			sc.observe(st, pc.claims);
		pc.events.insert(pc.events.end(), st.events.begin(), st.events.end());
		table = st.after;
	}
	s.pop();
	cases_.push_back(std::move(pc));
	// Big tables make big formulas: fewer cases per question.
	if (cases_.size() * world.initial.size() >= entries_)
		flush();
	return verdict_ != proof_verdict::refuted;
}

proof_verdict case_batch::check()
{
	flush();
	return verdict_;
}

void case_batch::note(const std::string& why)
{
	if (into_.detail.find(why) == std::string::npos)
		into_.detail += why + "; ";
}

// The cases' claims in one formula: the conjunction is valid iff every case
// is (the cases share the world's variables, and identical subterms --
// the same entry after the same hardware slot -- are one term), so Z3
// bit-blasts what the cases have in common once.
void case_batch::flush()
{
	if (cases_.empty() || verdict_ == proof_verdict::refuted)
		return;
	into_.formulas++;
	z3::solver fs = make_solver(ctx_, o_, false);
	z3::expr all = ctx_.bool_val(true);
	for (const pending_case& c : cases_) {
		for (const z3::expr& a : c.world.assumptions)
			fs.add(a);
		for (const claim& cl : c.claims)
			all = all && cl.holds;
	}
	fs.add(!all);
	switch (fs.check()) {
	case z3::unsat:
		break;
	case z3::sat: {
		const z3::model mdl = fs.get_model();
		for (const pending_case& c : cases_) {
			bool holds = true;
			for (const claim& cl : c.claims)
				holds = holds && ground_truth(mdl.eval(cl.holds, true));
			if (holds)
				continue;
			scenario sc;
			sc.calls = c.calls;
			into_.ce = extract(mdl, c.world, sc, c.events, c.claims);
			break;
		}
		if (!into_.ce)
			throw internal_error("prover: a model falsifies the batch but none of its cases");
		verdict_ = proof_verdict::refuted;
		break;
	}
	case z3::unknown:
		note("solver: " + fs.reason_unknown());
		verdict_ = proof_verdict::unknown;
		break;
	}
	cases_.clear();
}

} // namespace ptespec::proofs
