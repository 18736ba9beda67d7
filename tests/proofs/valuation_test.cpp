// The path oracle's evaluator (proofs/engine/evaluator.h, over valuation.h)
// against Z3's own evaluation: the oracle trusts its "true" as a witness
// that a side of a branch is feasible, so on every term it answers it must
// answer what m.eval(e, true) does, and on the others nothing.  The oracle
// keeps one evaluator for many questions (values per node, overrides
// recomputing only what they reach), so the tests do too.
//
// Run: ctest -R valuation.  A failure prints the seed, the term and both
// values; the seeds are fixed, so the same binary repeats it.
//
// Negative controls, tried when this was written, each caught here within
// the first seeds: bvashr made a logical shift (seed 1); sign_extend as
// zero_extend; bvslt unsigned; extract from its high bit instead of its
// low one; distinct comparing neighbours only; bvsub's operands swapped;
// an absent constant read as 1; a node's constant bits not taken from its
// arguments (an override then misses the nodes above); values kept across
// a change of valuation; an override read after its question.

#include <gtest/gtest.h>

#include <set>

#include "proofs/engine/evaluator.h"
#include "random_terms.h"

using namespace ptespec;
using namespace ptespec::proofs;
using ptespec::test::random_terms;

namespace {

// Z3's value of a ground boolean or word.
std::uint64_t z3_value(const z3::expr& r)
{
	if (r.is_true())
		return 1;
	if (r.is_false())
		return 0;
	std::uint64_t v = 0;
	EXPECT_TRUE(r.is_numeral() && r.is_numeral_u64(v)) << "not ground: " << r;
	return v;
}

unsigned width_of(const z3::expr& c)
{
	return c.is_bool() ? 1 : c.get_sort().bv_size();
}

z3::expr literal(const z3::expr& c, std::uint64_t v)
{
	return c.is_bool() ? c.ctx().bool_val(v != 0) : c.ctx().bv_val(v, width_of(c));
}

// m with constant c = v (add_const_interp takes non-const references).
void give(z3::model& m, const z3::expr& c, std::uint64_t v)
{
	z3::func_decl f = c.decl();
	z3::expr val = literal(c, v);
	m.add_const_interp(f, val);
}

// A model giving most of `cs` a value; the rest left to Z3's completion.
z3::model some_model(z3::context& ctx, random_terms& gen, const std::vector<z3::expr>& cs)
{
	z3::model m(ctx);
	for (const z3::expr& c : cs)
		if (gen.pick(4) != 0)
			give(m, c, gen.value(width_of(c)));
	return m;
}

std::vector<z3::expr> some_terms(random_terms& gen, int n)
{
	std::vector<z3::expr> es;
	for (int k = 0; k < n; k++)
		es.push_back(k % 2 ? gen.boolean(4) : gen.word(gen.width(), 4));
	return es;
}

// The operators of `e`, by kind.
void kinds_of(const z3::expr& e, std::set<Z3_decl_kind>& into)
{
	if (!e.is_app())
		return;
	into.insert(e.decl().decl_kind());
	for (unsigned k = 0; k < e.num_args(); k++)
		kinds_of(e.arg(k), into);
}

TEST(valuation, evaluate_agrees_with_z3_on_random_terms)
{
	z3::context ctx;
	evaluator eval;
	std::set<Z3_decl_kind> seen;
	std::size_t simplified_known = 0, terms = 0;
	for (std::uint64_t seed = 1; seed <= 200; seed++) {
		random_terms gen(ctx, seed);
		const std::vector<z3::expr> es = some_terms(gen, 20);
		z3::model m = some_model(ctx, gen, gen.constants());
		const valuation v = valuation::of(m);
		for (const z3::expr& e : es) {
			kinds_of(e, seen);
			terms++;
			SCOPED_TRACE("seed " + std::to_string(seed) + ", term " + e.to_string());
			const std::optional<std::uint64_t> ours = eval(e, v);
			ASSERT_TRUE(ours.has_value()) << "every operator of the generator is supported";
			ASSERT_EQ(*ours, z3_value(m.eval(e, true)));
			EXPECT_EQ(evaluate(e, v), ours) << "a fresh evaluator";
			// The simplifier's forms too (n-ary sums and products,
			// rewritten comparisons), where supported.
			const z3::expr s = e.simplify();
			if (const std::optional<std::uint64_t> o = eval(s, v)) {
				simplified_known++;
				ASSERT_EQ(*o, z3_value(m.eval(s, true))) << "simplified: " << s;
			}
		}
	}
	for (Z3_decl_kind k : {Z3_OP_TRUE, Z3_OP_FALSE, Z3_OP_BNUM, Z3_OP_UNINTERPRETED, Z3_OP_NOT, Z3_OP_AND,
			       Z3_OP_OR, Z3_OP_IMPLIES, Z3_OP_XOR, Z3_OP_EQ, Z3_OP_DISTINCT, Z3_OP_ITE, Z3_OP_BAND,
			       Z3_OP_BOR, Z3_OP_BXOR, Z3_OP_BNOT, Z3_OP_BNEG, Z3_OP_BADD, Z3_OP_BSUB, Z3_OP_BMUL,
			       Z3_OP_EXTRACT, Z3_OP_CONCAT, Z3_OP_ZERO_EXT, Z3_OP_SIGN_EXT, Z3_OP_BSHL, Z3_OP_BLSHR,
			       Z3_OP_BASHR, Z3_OP_ULEQ, Z3_OP_ULT, Z3_OP_UGEQ, Z3_OP_UGT, Z3_OP_SLEQ, Z3_OP_SLT,
			       Z3_OP_SGEQ, Z3_OP_SGT})
		EXPECT_TRUE(seen.contains(k)) << "the generator never made operator kind " << k;
	// Most simplified terms stay within the operators known.
	EXPECT_GT(simplified_known * 2, terms);
}

TEST(valuation, a_constant_missing_from_the_model_reads_as_z3_completes_it)
{
	z3::context ctx;
	const z3::expr x = ctx.bv_const("x", 8), y = ctx.bv_const("y", 8), wide = ctx.bv_const("wide", 64);
	const z3::expr b = ctx.bool_const("b");
	z3::model m(ctx);
	give(m, x, 5);
	const valuation v = valuation::of(m);
	// y, wide and b are not in the model.
	for (const z3::expr& e : {y, wide, b, !b, x + y, y == ctx.bv_val(0, 8), z3::ite(b, x, ~y),
				  z3::ult(x, y), wide - ctx.bv_val(1, 64), z3::sext(y, 8) < ctx.bv_val(0, 16)}) {
		SCOPED_TRACE(e.to_string());
		const std::optional<std::uint64_t> ours = evaluate(e, v);
		ASSERT_TRUE(ours.has_value());
		EXPECT_EQ(*ours, z3_value(m.eval(e, true)));
	}
	EXPECT_EQ(evaluate(y, v), 0u);
	EXPECT_EQ(evaluate(b, v), 0u);
}

TEST(valuation, overrides_agree_with_substitute)
{
	z3::context ctx;
	evaluator eval;
	for (std::uint64_t seed = 1; seed <= 100; seed++) {
		random_terms gen(ctx, seed);
		const std::vector<z3::expr> es = some_terms(gen, 10);
		z3::model m = some_model(ctx, gen, gen.constants());
		const valuation v = valuation::of(m);
		// Three rounds of overrides of some constants, in the model or
		// not, each after the values without them are kept.
		for (int round = 0; round < 3; round++) {
			std::vector<valuation::change> over;
			z3::expr_vector from(ctx), to(ctx);
			for (const z3::expr& c : gen.constants()) {
				if (gen.pick(3) != 0)
					continue;
				const std::uint64_t val = gen.value(width_of(c));
				over.push_back({c, val});
				from.push_back(c);
				to.push_back(literal(c, val));
			}
			for (z3::expr e : es) {
				SCOPED_TRACE("seed " + std::to_string(seed) + ", term " + e.to_string());
				const std::uint64_t plain = z3_value(m.eval(e, true));
				const std::uint64_t want = z3_value(m.eval(e.substitute(from, to), true));
				EXPECT_EQ(eval(e, v), plain);
				EXPECT_EQ(eval(e, v, over), want);
				EXPECT_EQ(eval(e, v), plain) << "the overrides outlived their question";
				// And Z3's own route, the fallback for terms the
				// evaluator does not know.
				EXPECT_EQ(z3_value(v.eval(e, over)), want);
			}
		}
	}
}

TEST(valuation, changed_copies_agree_with_their_models)
{
	z3::context ctx;
	evaluator eval;
	random_terms gen(ctx, 7);
	const std::vector<z3::expr> es = some_terms(gen, 20);
	z3::model m = some_model(ctx, gen, gen.constants());
	const valuation root = valuation::of(m);
	std::vector<std::uint64_t> before;
	for (const z3::expr& e : es)
		before.push_back(z3_value(m.eval(e, true)));
	// One constant at a time, past the overlay's limit, so the copies are
	// flattened on the way; the root asked in between, so the evaluator
	// switches valuations at every question.
	valuation v = root;
	for (int step = 0; step < 80; step++) {
		const z3::expr& c = gen.constants()[gen.pick(gen.constants().size())];
		v = v.with({{c, gen.value(width_of(c))}});
		z3::model vm = v.to_model(ctx);
		for (std::size_t k = 0; k < es.size(); k++) {
			SCOPED_TRACE("step " + std::to_string(step) + ", term " + es[k].to_string());
			EXPECT_EQ(eval(es[k], v), z3_value(vm.eval(es[k], true)));
			EXPECT_EQ(z3_value(v.eval(es[k])), z3_value(vm.eval(es[k], true)));
			EXPECT_EQ(eval(es[k], root), before[k]) << "the valuation copied from changed";
		}
	}
}

TEST(valuation, unsupported_terms_give_no_value)
{
	z3::context ctx;
	const z3::expr x = ctx.bv_const("x", 8), y = ctx.bv_const("y", 8);
	const z3::expr big = ctx.bv_const("big", 65), i = ctx.int_const("i");
	z3::func_decl f = ctx.function("f", ctx.bv_sort(8), ctx.bv_sort(8));
	z3::model m(ctx);
	give(m, x, 6);
	give(m, y, 3);
	const valuation v = valuation::of(m);
	evaluator eval;
	for (const z3::expr& e : {z3::udiv(x, y) == x, z3::urem(x, y) == x, x / y == x, x % y == x,
				  z3::expr(ctx, Z3_mk_rotate_left(ctx, 1, x)) == x, big == ctx.bv_val(0, 65),
				  big.extract(7, 0) == x, i > 0, f(x) == y}) {
		SCOPED_TRACE(e.to_string());
		EXPECT_FALSE(evaluate(e, v).has_value());
		EXPECT_FALSE(eval(e, v).has_value());
		// Nor inside a term it knows.
		EXPECT_FALSE(eval(e || x == y, v).has_value());
	}
	// A model with a function interpretation: nothing, even for a term
	// without it (the valuation does not record the function).
	z3::model mf(ctx);
	z3::expr otherwise = ctx.bv_val(0, 8);
	mf.add_func_interp(f, otherwise);
	EXPECT_FALSE(valuation::of(mf).complete());
	EXPECT_FALSE(evaluate(x == y, valuation::of(mf)).has_value());
}

} // namespace
