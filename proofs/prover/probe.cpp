// A batch's probes: one path of a case's last call each, its model asked
// of the claims before the full search.
#include <algorithm>
#include <memory>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "model/errors.h"
#include "proofs/engine/budget.h"
#include "proofs/engine/path_oracle.h"
#include "proofs/engine/path_solver.h"
#include "proofs/prover/case_batch.h"
#include "proofs/prover/symbolic_run.h"

namespace ptespec::proofs {

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
	symbolic_run run(ctx_, paths, strat_, world, o_, spent_);
	if (!paths.root() || !run.runs_whole(c, k))
		return false;
	const stopwatch clock;
	// Some probes follow the models they are given, the others turn off
	// them, more or less often: the seed makes a run repeatable.
	static constexpr double flips[] = {0.5, 0.125, 0.25, 0};
	path_oracle::probe policy{std::mt19937_64(probe_seed_++), 0, o_.probes.decision_ms, o_.probes.decision_rlimit};
	std::size_t asked = 0;
	for (std::size_t n = 0; n < *o_.probes.count && clock.seconds() < o_.probes.seconds && any_open(); n++) {
		policy.flip = flips[n % std::size(flips)];
		// Half the probes start from the model every path starts from,
		// the others from a model of the assumptions with random phases
		// (another table, other flags).
		valuation start = *paths.root();
		if (n % 2 == 1)
			if (std::optional<valuation> other = random_model(pc.world.assumptions, n))
				start = std::move(*other);
		if (world.race && k == world.race->reader && start.complete())
			start = start.with(probe_points(*world.race, n, *o_.probes.count, policy.rng));
		path_oracle oracle(paths, std::move(start), policy);
		std::vector<bool> used(table.size(), false);
		std::optional<path_run> one_path =
			run.run_path(oracle, table, c, part_spec{c, 0, true, {}, {}}, k, carried, used);
		if (!one_path)
			continue;
		pending_case one = pc;
		for (const auto& [taken, lit] : one_path->decisions)
			one.world.assumptions.push_back(lit);
		std::vector<path_run> runs;
		runs.push_back(std::move(*one_path));
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
	if (any_open() && clock.seconds() >= o_.probes.seconds)
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
	p.set("timeout", o_.probes.solve_ms);
	if (o_.probes.solve_rlimit)
		p.set("rlimit", o_.probes.solve_rlimit);
	p.set("random_seed", static_cast<unsigned>(seed));
	p.set("phase", ctx_.str_symbol("random"));
	s.set(p);
	for (const z3::expr& a : assumptions)
		s.add(a);
	const timed_answer a = timed_check(s);
	if (o_.probes.solve_rlimit && stopped_by_time(a, o_.probes.solve_ms))
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
	const bool bit_level = c.joined && o_.solver.bit_level_claims;
	asserted.push_back(!claims_formula(claims, bit_level));
	const std::unique_ptr<z3::context> question = std::make_unique<z3::context>();
	answer a = solve(*question, asserted, bit_level, o_.probes.solve_ms, o_.probes.solve_rlimit);
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

} // namespace ptespec::proofs
