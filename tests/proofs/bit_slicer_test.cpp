// The bit slicer (proofs/engine/bit_slicer.h) rewrites a condition into the bits it
// reads; the prover decides branches and checks joined claims on that form,
// so it must be exactly equivalent.  Each test builds conditions the way the
// strategies and the ledger do and asks Z3 whether slice(b) <=> b is valid.

#include <gtest/gtest.h>

#include "model/pte.h"
#include "model/symbolic_word.h"
#include "proofs/engine/bit_slicer.h"

using namespace ptespec;
using namespace ptespec::proofs;

namespace {

// slice(b) <=> b for every assignment.
bool equivalent(z3::context& ctx, bit_slicer& s, const z3::expr& b)
{
	z3::solver sol(ctx);
	sol.add(s.truth(b) != b);
	return sol.check() == z3::unsat;
}

TEST(bit_slicer, pte_flag_tests_are_sliced_exactly)
{
	z3::context ctx;
	bit_slicer s(ctx);
	const z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64), w = ctx.bool_const("w");
	const z3::expr hw = z3::ite(w, pte_mkdirty(pte_mkyoung(a)), a);
	for (const z3::expr& cond :
	     {pte_young(pte_or_flags(a, b)), pte_dirty(pte_or_flags(hw, b)), pte_valid_cont(hw),
	      pte_young(hw) && pte_dirty(pte_or_flags(b, hw)), pte_write(pte_wrprotect(hw)), !pte_valid(pte_mkold(a)),
	      pte_same_mapping(a, pte_mkclean(hw)), pte_young(pte_mknoncont(hw)) || pte_cont(b)})
		EXPECT_TRUE(equivalent(ctx, s, cond)) << cond;
}

TEST(bit_slicer, every_operator_it_rewrites_is_exact)
{
	z3::context ctx;
	bit_slicer s(ctx);
	const z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64), c = ctx.bool_const("c");
	const z3::expr lo = a.extract(15, 0), hi = b.extract(31, 16);
	for (const z3::expr& cond :
	     {(a ^ b) == ctx.bv_val(5, 64), (~a & b) != ctx.bv_val(0, 64), z3::shl(a, 3) == z3::lshr(b, 7),
	      z3::concat(hi, lo) == a.extract(31, 0), z3::zext(lo, 48) == b, z3::ite(c, a, b) == a,
	      z3::implies(c, a == b), c != (a == b), (a + b) == ctx.bv_val(7, 64), z3::ult(a, b) && c,
	      z3::shl(a, b) == a})
		EXPECT_TRUE(equivalent(ctx, s, cond)) << cond;
}

TEST(bit_slicer, constant_bits_fold_to_true_or_false)
{
	z3::context ctx;
	bit_slicer s(ctx);
	const std::uint64_t must = PTE_VALID | PTE_TYPE | PTE_CONT;
	const z3::expr e = (ctx.bv_const("x", 64) & ctx.bv_val(~must, 64)) | ctx.bv_val(must, 64);
	const z3::expr after = z3::ite(ctx.bool_const("on"), pte_mkyoung(e), e);
	EXPECT_TRUE(s.truth(pte_valid_cont(after)).is_true());
	EXPECT_TRUE(s.truth(pte_young(pte_mkold(e))).is_false());
	EXPECT_FALSE(s.truth(pte_young(after)).is_true() || s.truth(pte_young(after)).is_false());
}

} // namespace
