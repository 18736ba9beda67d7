// What a model of a case tells: the counterexample the concrete machine
// replays.
#include <fmt/format.h>

#include "model/errors.h"
#include "proofs/engine/ground.h"
#include "proofs/prover/symbolic_run.h"

namespace ptespec::proofs {

std::vector<bool> claims_hold(const z3::model& mdl, const std::vector<claim>& claims)
{
	std::vector<z3::expr> asked;
	for (const claim& c : claims)
		asked.push_back(c.holds);
	return ground_truths(mdl, asked);
}

namespace {

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

} // namespace

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

} // namespace ptespec::proofs
