// The helpers of model/pte.h evaluate on a Z3 word exactly as on uint64_t.

#include <random>

#include <gtest/gtest.h>

#include "impl/arch_pte.h"
#include "model/errors.h"
#include "model/pte.h"
#include "model/symbolic_word.h"
#include "proofs/engine/ground.h"

using namespace ptespec;
using namespace ptespec::proofs;

namespace {

std::uint64_t eval(const z3::expr& e) { return ground_value(e.simplify()); }
bool eval_bool(const z3::expr& e) { return ground_truth(e.simplify()); }

} // namespace

TEST(symbolic_word, helpers_agree_with_uint64_on_random_words)
{
	z3::context ctx;
	std::mt19937_64 rng(7);
	const geometry g = geometry::of(granule::k16);
	for (int n = 0; n < 300; n++) {
		// Bias toward the flag bits so every helper branch is taken.
		const std::uint64_t a = rng() ^ ((rng() & 1) ? PTE_WRITE : 0) ^ ((rng() & 1) ? PTE_RDONLY : 0);
		const std::uint64_t b = rng();
		const z3::expr x = ctx.bv_val(a, 64), y = ctx.bv_val(b, 64);
		EXPECT_EQ(eval(pte_mkdirty(x)), pte_mkdirty(a));
		EXPECT_EQ(eval(pte_mkclean(x)), pte_mkclean(a));
		EXPECT_EQ(eval(pte_wrprotect(x)), pte_wrprotect(a));
		EXPECT_EQ(eval(pte_mkwrite(x)), pte_mkwrite(a));
		EXPECT_EQ(eval(pte_or_flags(x, y)), pte_or_flags(a, b));
		EXPECT_EQ(eval(pte_pfn(x, g)), pte_pfn(a, g));
		EXPECT_EQ(eval(pte_advance_pfn(x, 3, g)), pte_advance_pfn(a, 3, g));
		EXPECT_EQ(eval(arch::pte_grant_access(x, y)), arch::pte_grant_access(a, b));
		EXPECT_EQ(eval_bool(pte_dirty(x)), pte_dirty(a));
		EXPECT_EQ(eval_bool(pte_valid_cont(x)), pte_valid_cont(a));
		EXPECT_EQ(eval_bool(pte_same_mapping(x, y)), pte_same_mapping(a, b));
		EXPECT_EQ(eval_bool(arch::pte_same(x, y)), arch::pte_same(a, b));
	}
}

TEST(symbolic_word, ground_value_refuses_a_symbol)
{
	z3::context ctx;
	EXPECT_THROW(ground_value(ctx.bv_const("x", 64)), internal_error);
	EXPECT_THROW(ground_truth(ctx.bool_const("b")), internal_error);
}
