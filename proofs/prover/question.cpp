// A batch's questions: the waiting cases' claims asked in one formula,
// solved, and the answer read -- a model refutes, an unknown gives up.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <utility>

#include "model/errors.h"
#include "proofs/engine/budget.h"
#include "proofs/prover/case_batch.h"
#include "proofs/prover/symbolic_run.h"

namespace ptespec::proofs {

// The second solver of a bit-level question (see case_batch::flush):
// bit-blast, then SAT -- with no word-level simplification first, which on
// these formulas costs more than it saves, and no and-inverter-graph
// compression either (slower than bit-blast + SAT alone on the largest
// cases); when the goal still holds a word operator the bit-blaster does
// not take, the qfbv tactic instead.
z3::solver make_circuit_solver(z3::context& ctx, unsigned timeout_ms, unsigned rlimit)
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
	p.set("timeout", o.solver.timeout_ms);
	s.set(p);
	return s;
}

// The cases' claims in one formula, each case's under its own assumptions:
// the cases share the world's variables (identical subterms -- the same
// entry after the same hardware slot -- are one term, so Z3 bit-blasts
// what the cases have in common once), but not every assumption: a case's
// caller rule, or a table of another geometry, is its own.  The question
// asserts the assumptions every case makes and asks, of each case, its
// claims where its own other assumptions hold -- so it is valid iff every
// case is.  (Asserting every case's assumptions at once would prove a
// case only over the tables the other cases' rules admit too.)
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
	std::vector<std::size_t> all(goals_.size());
	for (std::size_t k = 0; k < all.size(); k++)
		all[k] = k;
	ask_open(all);
	cases_.clear();
}

void case_batch::ask_open(const std::vector<std::size_t>& of)
{
	std::vector<std::vector<std::size_t>> queue;
	std::vector<std::size_t> open;
	for (std::size_t g : of)
		if (goals_[g].open())
			open.push_back(g);
	if (!open.empty())
		queue.push_back(open);
	// ask_each_case leaves no case waiting: then nothing is left to ask.
	while (!cases_.empty() && !queue.empty()) {
		const std::vector<std::size_t> ask = std::move(queue.back());
		queue.pop_back();
		const std::unique_ptr<z3::context> question = std::make_unique<z3::context>();
		for (std::vector<std::size_t>& next : flush_in(*question, ask))
			queue.push_back(std::move(next));
	}
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
	const bool bit_level = q.joined && o_.solver.bit_level_claims;
	q.asserted.push_back(!claims_formula(q.claims, bit_level));
	answer a = solve(qctx, q.asserted, bit_level, o_.solver.timeout_ms);
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
	// Several cases at once may be more than the solver can take where
	// each alone is not.  (While several cases wait, the queue of flush()
	// holds one group of goals: a question of several cases never gets to
	// give_up_question's split by goal.)
	if (cases_alone_ && cases_.size() > 1) {
		ask_each_case(ask);
		return {};
	}
	return give_up_question(a.solver, ask);
}

void case_batch::ask_each_case(const std::vector<std::size_t>& ask)
{
	std::vector<pending_case> all = std::move(cases_);
	for (pending_case& c : all) {
		cases_.clear();
		cases_.push_back(std::move(c));
		ask_open(ask);
	}
	cases_.clear();
}

case_batch::pending_question case_batch::gather(const std::vector<std::size_t>& ask) const
{
	auto asked = [&](const claim& cl) {
		return std::any_of(ask.begin(), ask.end(), [&](std::size_t g) { return goals_[g].covers(cl); });
	};
	// One flat conjunction: grown one claim at a time it would nest as deep
	// as there are claims.
	pending_question q{z3::expr_vector(ctx_), z3::expr_vector(ctx_), false};
	// The assumptions every case makes (one term each: the same context).
	std::set<unsigned> everyone;
	for (std::size_t k = 0; k < cases_.size(); k++) {
		std::set<unsigned> mine;
		for (const z3::expr& a : cases_[k].world.assumptions)
			mine.insert(a.id());
		if (k == 0)
			everyone = std::move(mine);
		else
			std::erase_if(everyone, [&](unsigned id) { return !mine.contains(id); });
	}
	bool first = true;
	for (const pending_case& c : cases_) {
		q.joined = q.joined || c.joined;
		z3::expr own = ctx_.bool_val(true);
		for (const z3::expr& a : c.world.assumptions) {
			if (!everyone.contains(a.id()))
				own = own && a;
			else if (first)
				q.asserted.push_back(a);
		}
		first = false;
		const bool alone = own.is_true();
		for (const claim& cl : c.claims)
			if (asked(cl))
				q.claims.push_back(alone ? cl.holds : (!own || cl.holds));
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

// A bit-level question goes to the qfbv tactic for a while
// (claims_first_ms; a probe's, with a resource limit, for quick_solve_ms's
// share of it), then, if that was not enough, to the circuit solver for
// the full timeout.  Each is several times faster than the other on some
// of these formulas, and neither is on all of them.
case_batch::answer case_batch::solve(z3::context& qctx, const z3::expr_vector& asserted, bool bit_level,
				     unsigned timeout_ms, unsigned rlimit) const
{
	const z3::expr_vector moved(qctx, asserted);
	z3::solver fs = make_solver(qctx, o_, false);
	if (timeout_ms != o_.solver.timeout_ms || rlimit) {
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
	// (0 would be no limit at all to Z3: a timeout of 1 ms has no first try.)
	const unsigned first_ms = rlimit ? o_.solver.quick_solve_ms : std::min(o_.solver.claims_first_ms, timeout_ms / 2);
	if (first_ms > 0 && first_ms < timeout_ms) {
		z3::params quick(qctx);
		// With a resource limit the first solver's share of it is the
		// share of time it has, not the time itself; the time is a net.
		const unsigned quick_ms = rlimit ? std::min(timeout_ms, safety_net_ms(first_ms)) : first_ms;
		quick.set("timeout", quick_ms);
		if (rlimit) {
			quick.set("rlimit", std::max(1u, static_cast<unsigned>(std::uint64_t{rlimit} * o_.solver.quick_solve_ms /
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
	// A model refutes a case only where the case's own assumptions hold.
	for (const z3::expr& a : c.world.assumptions)
		if (!mdl.eval(a, true).is_true())
			return false;
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
