// Word genericity: the helpers are written once over the word type, so on
// counted_word they must give the same bits as on uint64_t, and the counts
// prove the work really went through the generic word interface (what the
// Z3 word relies on) rather than around it.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include <fmt/format.h>

#include "model/counted_word.h"
#include "model/pte.h"

namespace ptespec {
namespace {

static_assert(pte_word<std::uint64_t>);
static_assert(pte_word<counted_word>);

constexpr std::uint64_t decided_mask = PTE_VALID | PTE_CONT | PTE_AF | PTE_DIRTY | PTE_WRITE | PTE_RDONLY;

std::uint64_t flags_of(unsigned combo)
{
	constexpr std::uint64_t bits[] = {PTE_VALID, PTE_CONT, PTE_AF, PTE_DIRTY, PTE_WRITE, PTE_RDONLY};
	std::uint64_t f = 0;
	for (unsigned b = 0; b < 6; b++)
		if (combo & (1u << b))
			f |= bits[b];
	return f;
}

// Every flag combination with random other bits, a few dozen of each.
template <class F>
void for_every_value(F&& f)
{
	std::mt19937_64 rng(1234);
	for (unsigned combo = 0; combo < 64; combo++)
		for (int n = 0; n < 32; n++)
			f((rng() & ~decided_mask) | flags_of(combo), rng());
}

counted_word cw(std::uint64_t v) { return counted_word{v}; }

void reset_counts() { counted_word::counts() = {}; }

// Applies a generic helper to both word types and compares.
template <class H>
void expect_same_word(const char* name, H&& h)
{
	SCOPED_TRACE(name);
	for_every_value([&](std::uint64_t a, std::uint64_t b) {
		const std::uint64_t plain = h(a, b);
		const std::uint64_t counted = h(cw(a), cw(b)).v;
		ASSERT_EQ(plain, counted) << fmt::format("a={:#018x} b={:#018x}", a, b);
	});
}

template <class H>
void expect_same_bool(const char* name, H&& h)
{
	SCOPED_TRACE(name);
	for_every_value([&](std::uint64_t a, std::uint64_t b) {
		ASSERT_EQ(h(a, b), h(cw(a), cw(b))) << fmt::format("a={:#018x} b={:#018x}", a, b);
	});
}

TEST(word_generic, modifying_helpers_agree_bit_for_bit)
{
	expect_same_word("pte_mkyoung", [](auto a, auto) { return pte_mkyoung(a); });
	expect_same_word("pte_mkold", [](auto a, auto) { return pte_mkold(a); });
	expect_same_word("pte_mkdirty", [](auto a, auto) { return pte_mkdirty(a); });
	expect_same_word("pte_mkclean", [](auto a, auto) { return pte_mkclean(a); });
	expect_same_word("pte_mkwrite", [](auto a, auto) { return pte_mkwrite(a); });
	expect_same_word("pte_wrprotect", [](auto a, auto) { return pte_wrprotect(a); });
	expect_same_word("pte_mkcont", [](auto a, auto) { return pte_mkcont(a); });
	expect_same_word("pte_mknoncont", [](auto a, auto) { return pte_mknoncont(a); });
	expect_same_word("pte_or_flags", [](auto a, auto b) { return pte_or_flags(a, b); });
}

TEST(word_generic, predicates_agree)
{
	expect_same_bool("pte_none", [](auto a, auto) { return pte_none(a); });
	expect_same_bool("pte_valid", [](auto a, auto) { return pte_valid(a); });
	expect_same_bool("pte_present", [](auto a, auto) { return pte_present(a); });
	expect_same_bool("pte_cont", [](auto a, auto) { return pte_cont(a); });
	expect_same_bool("pte_valid_cont", [](auto a, auto) { return pte_valid_cont(a); });
	expect_same_bool("pte_young", [](auto a, auto) { return pte_young(a); });
	expect_same_bool("pte_write", [](auto a, auto) { return pte_write(a); });
	expect_same_bool("pte_hw_dirty", [](auto a, auto) { return pte_hw_dirty(a); });
	expect_same_bool("pte_sw_dirty", [](auto a, auto) { return pte_sw_dirty(a); });
	expect_same_bool("pte_dirty", [](auto a, auto) { return pte_dirty(a); });
	expect_same_bool("pte_special", [](auto a, auto) { return pte_special(a); });
	expect_same_bool("pte_same_mapping", [](auto a, auto b) { return pte_same_mapping(a, b); });
	// Equal mappings too, not only the (almost always different) random pairs.
	expect_same_bool("pte_same_mapping(a, mkold(mkcont(a)))",
			 [](auto a, auto) { return pte_same_mapping(a, pte_mkold(pte_mkcont(a))); });
}

TEST(word_generic, pfn_helpers_agree_at_every_granule)
{
	for (granule g : {granule::k4, granule::k16, granule::k64}) {
		const geometry geo = geometry::of(g);
		SCOPED_TRACE(to_string(g));
		expect_same_word("pte_pfn", [&](auto a, auto) { return pte_pfn(a, geo); });
		expect_same_word("pte_pgprot", [&](auto a, auto) { return pte_pgprot(a, geo); });
		expect_same_word("pfn_pte", [&](auto a, auto b) { return pfn_pte(pte_pfn(b, geo), a, geo); });
		expect_same_word("pte_advance_pfn", [&](auto a, auto) { return pte_advance_pfn(a, geo.cont_ptes, geo); });
	}
}

TEST(word_counts, decisions_go_through_select)
{
	// The helpers that decide on a flag must do it with select(), or a
	// symbolic word would need a branch.
	const counted_word p = cw(PTE_VALID | PTE_WRITE | PTE_AF);
	reset_counts();
	(void)pte_mkdirty(p);
	EXPECT_GT(counted_word::counts().ops, 0u);
	EXPECT_GT(counted_word::counts().selects, 0u);
	EXPECT_GT(counted_word::counts().tests, 0u);

	reset_counts();
	(void)pte_wrprotect(p);
	EXPECT_GT(counted_word::counts().ops, 0u);
	EXPECT_GT(counted_word::counts().selects, 0u);

	reset_counts();
	(void)pte_or_flags(p, cw(PTE_VALID | PTE_DIRTY));
	EXPECT_GT(counted_word::counts().ops, 0u);
	EXPECT_GE(counted_word::counts().selects, 2u);	// one for young, one for dirty

	// A plain bit operation is counted but decides nothing.
	reset_counts();
	(void)pte_mkyoung(p);
	EXPECT_GT(counted_word::counts().ops, 0u);
	EXPECT_EQ(counted_word::counts().selects, 0u);
	EXPECT_EQ(counted_word::counts().tests, 0u);
}

TEST(word_counts, select_count_does_not_depend_on_the_value)
{
	// Branch-free: both arms are built whatever the flags say, so the number
	// of selects is the same for every input.
	auto selects_of = [](auto&& h) {
		std::uint64_t first = 0;
		bool same = true, seen = false;
		for_every_value([&](std::uint64_t a, std::uint64_t b) {
			reset_counts();
			(void)h(cw(a), cw(b));
			const std::uint64_t s = counted_word::counts().selects;
			same = same && (!seen || s == first);
			first = seen ? first : s;
			seen = true;
		});
		return same ? first : ~std::uint64_t{0};
	};
	EXPECT_EQ(selects_of([](auto a, auto) { return pte_mkdirty(a); }), 1u);
	EXPECT_EQ(selects_of([](auto a, auto) { return pte_mkwrite(a); }), 1u);
	EXPECT_EQ(selects_of([](auto a, auto) { return pte_wrprotect(a); }), 1u);
	EXPECT_EQ(selects_of([](auto a, auto b) { return pte_or_flags(a, b); }), 3u);
}

} // namespace
} // namespace ptespec
