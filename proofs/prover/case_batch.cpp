// A batch's cases added: each world assumed, its calls run on every
// feasible path one by one (symbolic_run), their claims recorded.
#include "proofs/prover/case_batch.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include <fmt/format.h>

#include "model/errors.h"
#include "proofs/engine/path_solver.h"
#include "proofs/prover/symbolic_run.h"

namespace ptespec::proofs {

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

namespace {
// The same assumptions, term for term (the worlds share one context).
bool same_assumptions(const sym_world& a, const sym_world& b)
{
	if (a.assumptions.size() != b.assumptions.size())
		return false;
	for (std::size_t k = 0; k < a.assumptions.size(); k++)
		if (a.assumptions[k].id() != b.assumptions[k].id())
			return false;
	return true;
}
} // namespace

bool case_batch::add(const sym_world& world, const scenario& sc)
{
	if (!any_open() || stopped_)
		return false;
	const solver_frame frame(oracle_solver_);
	const z3::check_result consistent = assume(world);
	path_solver paths(oracle_solver_, world.assumptions, o_.search.repair_models);
	if (o_.solver.quick_solve_ms < o_.solver.timeout_ms)
		paths.set_fallback(o_.solver.quick_solve_ms, o_.solver.timeout_ms,
				   static_cast<unsigned>(std::min<std::uint64_t>(
					   std::uint64_t{o_.solver.quick_solve_ms} * o_.solver.quick_units_per_ms, 0xffffffffu)));
	paths.set_timeout(o_.solver.timeout_ms);
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
	if (o_.search.repair_models && consistent == z3::sat)
		paths.set_root(oracle_solver_.get_model());

	pending_case pc{world, sc.calls, {}, {}, {}, false};
	if (const std::optional<bool> ended = run_case(paths, world, sc, pc))
		return *ended;
	// A case joins the waiting ones only when it makes the same
	// assumptions (see case_batch::gather): a question of cases with other
	// caller rules must ask each under its own, which took longer than
	// asking them apart (step/wrprotect_ptes at 4K: 224 s against 100 s).
	if (!cases_.empty() && !same_assumptions(cases_.front().world, pc.world)) {
		flush();
		if (!any_open())
			return false;
	}
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
	auto next_check = o_.search.early_checks.begin();
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
		if (k + 1 == sc.calls.size() && o_.probes.count.value_or(0) > 0 && probe(paths, world, table, sc, k, carried, pc))
			return false;
		if (k + 1 == sc.calls.size() && o_.probes.only)
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
		if (next_check != o_.search.early_checks.end() && k + 1 >= *next_check && k + 1 < sc.calls.size() &&
		    !pc.claims.empty()) {
			if (!check_so_far(pc))
				return false;
			// They hold in every model (of the goals still open, the
			// only ones asked again): the final question leaves them out.
			pc.claims.clear();
			while (next_check != o_.search.early_checks.end() && *next_check <= k + 1)
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
	return symbolic_run(ctx_, paths, strat_, world, o_, spent_).run_call(table, c, ordinal, carried);
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

} // namespace ptespec::proofs
