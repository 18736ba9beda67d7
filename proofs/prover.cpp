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

counterexample extract(const z3::model& mdl, const sym_world& world, const symbolic_machine& m,
		       const path_result& r)
{
	counterexample ce;
	ce.geo = world.geo;
	ce.folios = world.folios;
	for (const z3::expr& e : world.initial)
		ce.initial.push_back(ground_value(mdl.eval(e, true)));
	for (const sym_event& e : m.events()) {
		if (!ground_truth(mdl.eval(e.fired, true)))
			continue;
		const bool write = ground_truth(mdl.eval(e.write, true));
		ce.events.push_back({e.call, e.gap, e.entry, write ? hw_kind::write : hw_kind::access});
	}
	ce.calls = r.calls;
	// The first claim the model falsifies names the property to replay.
	for (const claim& c : r.claims) {
		if (ground_truth(mdl.eval(c.holds, true)))
			continue;
		ce.prop = c.prop;
		ce.witness = c.witness;
		break;
	}
	return ce;
}

} // namespace

proof_verdict prove_paths(z3::context& ctx, const sym_world& world,
			  const std::function<path_result(symbolic_machine&)>& scenario, const prove_options& o,
			  proof_result& into)
{
	z3::solver s(ctx);
	z3::params p(ctx);
	p.set("timeout", o.timeout_ms);
	s.set(p);
	for (const z3::expr& a : world.assumptions)
		s.add(a);

	proof_verdict verdict = proof_verdict::proved;
	// Depth-first over decision prefixes: each run replays a prefix and
	// leaves the alternatives it found feasible for later runs.
	std::vector<std::vector<bool>> todo{{}};
	std::size_t explored = 0;
	while (!todo.empty()) {
		if (explored++ == o.max_paths) {
			into.detail += fmt::format("path budget ({}) exhausted; ", o.max_paths);
			return proof_verdict::unknown;
		}
		std::vector<bool> prefix = std::move(todo.back());
		todo.pop_back();
		s.push();
		path_oracle oracle(s, prefix);
		symbolic_machine m(ctx, world.geo, world.initial, oracle);
		m.set_folios(world.folios);
		std::optional<path_result> run;
		try {
			run = scenario(m);
		} catch (const path_oracle::infeasible_path&) {
			for (const auto& alt : oracle.alternatives())
				todo.push_back(alt);
			s.pop();
			continue;
		}
		const path_result& r = *run;
		for (const auto& alt : oracle.alternatives())
			todo.push_back(alt);
		into.paths++;
		into.formulas++;

		z3::expr all = ctx.bool_val(true);
		for (const claim& c : r.claims)
			all = all && c.holds;
		s.add(!all);
		const z3::check_result res = s.check();
		if (res == z3::sat) {
			into.ce = extract(s.get_model(), world, m, r);
			s.pop();
			return proof_verdict::refuted;
		}
		if (res == z3::unknown)
			verdict = proof_verdict::unknown;
		s.pop();
	}
	return verdict;
}

} // namespace ptespec::proofs
