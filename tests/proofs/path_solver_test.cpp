// The path oracle's shortcut (proofs/engine/path_solver.h, path_solver::repair):
// a model of the assumptions and the decisions so far, changed only in
// variables neither mentions, stands as the witness that a new literal is
// feasible.  What it returns must really be a model of all three, and it
// must not claim a literal the assumptions and decisions rule out.  It
// returns a valuation (proofs/engine/valuation.h); the checks read it as a model.

#include <gtest/gtest.h>

#include "proofs/engine/evaluator.h"
#include "proofs/engine/path_oracle.h"
#include "proofs/engine/path_solver.h"

using namespace ptespec;
using namespace ptespec::proofs;

namespace {

// Every one of `bs` true under m.
bool all_hold(const z3::model& m, const std::vector<z3::expr>& bs)
{
	for (const z3::expr& b : bs)
		if (!m.eval(b, true).is_true())
			return false;
	return true;
}

struct fixture {
	z3::context ctx;
	z3::expr x = ctx.bv_const("x", 8), w = ctx.bv_const("w", 8);
	z3::expr y = ctx.bool_const("y"), z = ctx.bool_const("z");
	std::vector<z3::expr> assumptions{(x & ctx.bv_val(1, 8)) == ctx.bv_val(1, 8)};
	std::vector<z3::expr> decided{y};
	z3::solver s{ctx};
	// The oracle's solver: the assumptions asserted, as case_batch does.
	z3::solver oracle{ctx};

	fixture()
	{
		for (const z3::expr& a : assumptions)
			oracle.add(a);
	}

	z3::model model_of_path()
	{
		for (const z3::expr& a : assumptions)
			s.add(a);
		for (const z3::expr& d : decided)
			s.add(d);
		// A model that leaves the free variables where the literals below
		// do not hold: z false, w zero.
		s.add(!z && w == ctx.bv_val(0, 8));
		EXPECT_EQ(s.check(), z3::sat);
		return s.get_model();
	}
};

TEST(path_solver, repair_changes_only_free_variables_and_keeps_a_model)
{
	fixture f;
	path_solver paths(f.oracle, f.assumptions);
	const z3::model m = f.model_of_path();
	// z and w are free: a literal over them is reached by changing them.
	const z3::expr lit = f.z && f.w == f.ctx.bv_val(0xff, 8);
	ASSERT_FALSE(m.eval(lit, true).is_true());
	const std::optional<valuation> v = paths.repair(valuation::of(m), f.decided, lit);
	ASSERT_TRUE(v.has_value());
	const z3::model r = v->to_model(f.ctx);
	std::vector<z3::expr> all = f.assumptions;
	all.insert(all.end(), f.decided.begin(), f.decided.end());
	all.push_back(lit);
	EXPECT_TRUE(all_hold(r, all));
	// The bound variables kept their values.
	EXPECT_TRUE(z3::eq(r.eval(f.x, true), m.eval(f.x, true)));
	EXPECT_TRUE(r.eval(f.y, true).is_true());
	EXPECT_EQ(paths.repaired(), 1u);
}

// The same through Z3's evaluation, for a literal the evaluator does not
// know (a division): the shortcut's answers never depend on what the
// evaluator covers.
TEST(path_solver, repair_falls_back_to_z3_on_terms_the_evaluator_does_not_know)
{
	fixture f;
	path_solver paths(f.oracle, f.assumptions);
	const z3::model m = f.model_of_path();
	const z3::expr lit = f.z && z3::udiv(f.w, f.ctx.bv_val(1, 8)) == f.ctx.bv_val(0xff, 8);
	ASSERT_FALSE(evaluate(lit, valuation::of(m)).has_value());
	const std::optional<valuation> v = paths.repair(valuation::of(m), f.decided, lit);
	ASSERT_TRUE(v.has_value());
	std::vector<z3::expr> all = f.assumptions;
	all.insert(all.end(), f.decided.begin(), f.decided.end());
	all.push_back(lit);
	EXPECT_TRUE(all_hold(v->to_model(f.ctx), all));
	EXPECT_FALSE(paths.repair(valuation::of(m), f.decided, !f.y && z3::udiv(f.w, f.w) == f.w).has_value());
}

TEST(path_solver, repair_never_claims_what_the_path_rules_out)
{
	fixture f;
	path_solver paths(f.oracle, f.assumptions);
	const valuation m = valuation::of(f.model_of_path());
	// Contradicts a decision (y) through a bound variable: no change of
	// free variables can help.
	EXPECT_FALSE(paths.repair(m, f.decided, !f.y && f.z).has_value());
	// Contradicts an assumption (x odd).
	EXPECT_FALSE(paths.repair(m, f.decided, (f.x & f.ctx.bv_val(1, 8)) == f.ctx.bv_val(0, 8)).has_value());
	// Unsatisfiable whatever the free variables are.
	EXPECT_FALSE(paths.repair(m, f.decided, f.z && !f.z).has_value());
	EXPECT_EQ(paths.repaired(), 0u);
}

TEST(path_solver, feasible_answers_by_the_solver)
{
	fixture f;
	path_solver paths(f.oracle, f.assumptions);
	EXPECT_TRUE(paths.feasible(f.decided, f.z).feasible);
	EXPECT_FALSE(paths.feasible(f.decided, !f.y).feasible);
	EXPECT_FALSE(paths.feasible({}, (f.x & f.ctx.bv_val(1, 8)) == f.ctx.bv_val(0, 8)).feasible);
	EXPECT_EQ(paths.solver_calls(), 3u);
}

// An assumption added mid-case (a later call's caller rule) binds its
// variables: the solver and the shortcut both hold to it from then on, and
// one that contradicts the others is answered as such.
TEST(path_solver, an_assumption_added_later_binds_like_the_first)
{
	fixture f;
	path_solver paths(f.oracle, f.assumptions);
	const valuation m = valuation::of(f.model_of_path());
	ASSERT_TRUE(paths.repair(m, f.decided, f.z).has_value());
	ASSERT_EQ(paths.assume(!f.z), std::optional<bool>(true));
	EXPECT_FALSE(paths.feasible(f.decided, f.z).feasible);
	// z is bound now: the shortcut may not flip it.
	EXPECT_FALSE(paths.repair(m, f.decided, f.z).has_value());
	// x is odd already: an even x leaves no model.
	EXPECT_EQ(paths.assume((f.x & f.ctx.bv_val(1, 8)) == f.ctx.bv_val(0, 8)), std::optional<bool>(false));
}

} // namespace

// A word the strategy turns into a plain integer (a pfn kept in an
// unsigned long) is guessed from the model of the path: the guess is the
// word's value there, and where the assumptions pin the word, branching on
// it leaves no other side to explore.  Without a model there is no guess.
TEST(path_oracle, guesses_a_words_value_from_the_model_of_the_path)
{
	z3::context ctx;
	const z3::expr x = ctx.bv_const("x", 64);
	const std::vector<z3::expr> assumptions{x == ctx.bv_val(0x40010, 64)};
	z3::solver oracle{ctx};
	for (const z3::expr& a : assumptions)
		oracle.add(a);
	ASSERT_EQ(oracle.check(), z3::sat);
	path_solver paths(oracle, assumptions);
	const z3::expr pfn = z3::lshr(x, ctx.bv_val(4, 64)) + ctx.bv_val(1, 64);

	path_oracle blind(paths, {{}, std::nullopt});
	EXPECT_FALSE(blind.value_on_path(pfn).has_value());

	path_oracle seeing(paths, {{}, valuation::of(oracle.get_model())});
	const std::optional<std::uint64_t> guess = seeing.value_on_path(pfn);
	ASSERT_TRUE(guess.has_value());
	EXPECT_EQ(*guess, 0x4002u);
	EXPECT_TRUE(seeing.take(seeing.normal(pfn == ctx.bv_val(*guess, 64))));
	EXPECT_TRUE(seeing.alternatives().empty()) << "a pinned word has no other value to explore";
}

// A question stopped by its timeout is told from one stopped by its
// resource units (proofs/engine/budget.h): the count a run reports of
// questions that time, not work, decided rests on it.  Z3's reason does not
// tell them apart (the incremental solver says "canceled" for both), the
// time taken does.
TEST(budget, a_question_stopped_by_time_is_told_from_one_stopped_by_work)
{
	z3::context ctx;
	// Factoring a product of two 31-bit primes: hard for a bit-blaster.
	const z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64);
	const std::uint64_t p = 2147483647, q = 2147483629;
	auto hard = [&](z3::solver& s, unsigned timeout_ms, unsigned rlimit) {
		z3::params ps(ctx);
		ps.set("timeout", timeout_ms);
		if (rlimit)
			ps.set("rlimit", rlimit);
		s.set(ps);
		s.add(a * b == ctx.bv_val(p * q, 64));
		s.add(z3::ugt(a, ctx.bv_val(1, 64)) && z3::ugt(b, ctx.bv_val(1, 64)));
		s.add(z3::ult(a, ctx.bv_val(std::uint64_t{1} << 32, 64)) &&
		      z3::ult(b, ctx.bv_val(std::uint64_t{1} << 32, 64)));
	};
	for (const bool incremental : {false, true}) {
		z3::solver by_time = incremental ? z3::solver(ctx) : z3::tactic(ctx, "qfbv").mk_solver();
		hard(by_time, 50, 0);
		const timed_answer t = timed_check(by_time);
		ASSERT_EQ(t.result, z3::unknown) << "factored in 50 ms";
		EXPECT_TRUE(stopped_by_time(t, 50)) << t.ms << " ms";

		z3::solver by_work = incremental ? z3::solver(ctx) : z3::tactic(ctx, "qfbv").mk_solver();
		hard(by_work, 600000, 2000);
		const timed_answer w = timed_check(by_work);
		ASSERT_EQ(w.result, z3::unknown) << "factored in 2000 units";
		EXPECT_FALSE(stopped_by_time(w, 600000)) << by_work.reason_unknown();
	}
	EXPECT_FALSE(stopped_by_time(timed_answer{z3::sat, 1e9}, 1));
	EXPECT_EQ(safety_net_ms(20), 5000u);
	EXPECT_EQ(safety_net_ms(5000), 100000u);
}
