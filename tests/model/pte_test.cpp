// The PTE helper algebra, one law per test, in the manner of
// mm/debug_vm_pgtable.c: every law is checked over all 64 combinations of the
// six bits the helpers decide on (VALID, CONT, AF, DIRTY, WRITE, RDONLY), with
// every other bit and the pfn random, at every granule.  The small domain is
// covered exhaustively; only the bits no helper looks at are sampled.
#include <gtest/gtest.h>
#include <gtest/gtest-spi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <set>

#include <fmt/format.h>

#include "model/errors.h"
#include "model/pte.h"

namespace ptespec {
namespace {

constexpr std::array<std::uint64_t, 6> decided_bits = {PTE_VALID, PTE_CONT, PTE_AF, PTE_DIRTY, PTE_WRITE, PTE_RDONLY};
constexpr std::uint64_t decided_mask = PTE_VALID | PTE_CONT | PTE_AF | PTE_DIRTY | PTE_WRITE | PTE_RDONLY;
constexpr std::array<granule, 3> granules = {granule::k4, granule::k16, granule::k64};
constexpr int fillers = 200;

std::uint64_t flags_of(unsigned combo)
{
	std::uint64_t f = 0;
	for (unsigned b = 0; b < decided_bits.size(); b++)
		if (combo & (1u << b))
			f |= decided_bits[b];
	return f;
}

std::uint64_t make_pte(std::uint64_t pfn, std::uint64_t prot, const geometry& geo)
{
	return pfn_pte(pfn, prot, geo);
}

// Calls law(p, geo) for every flag combination, `fillers` random fillings of
// the other bits each, at every granule; reports the first counterexample.
void for_every_pte(const std::function<bool(std::uint64_t, const geometry&)>& law)
{
	std::mt19937_64 rng(0x9e3779b97f4a7c15);
	for (granule g : granules) {
		const geometry geo = geometry::of(g);
		std::uniform_int_distribution<std::uint64_t> pfns(0, geo.max_pfn());
		for (unsigned combo = 0; combo < 64; combo++) {
			for (int n = 0; n < fillers; n++) {
				const std::uint64_t prot = (rng() & ~decided_mask) | flags_of(combo);
				const std::uint64_t p = make_pte(pfns(rng), prot, geo);
				if (!law(p, geo)) {
					ADD_FAILURE() << fmt::format("law fails for pte {:#018x} at {}", p, to_string(g));
					return;
				}
			}
		}
	}
}

bool only_changes(std::uint64_t before, std::uint64_t after, std::uint64_t mask)
{
	return ((before ^ after) & ~mask) == 0;
}

TEST(pte_driver, visits_every_flag_combination_at_every_granule)
{
	std::set<std::pair<unsigned, std::uint64_t>> seen;
	for_every_pte([&](std::uint64_t p, const geometry& geo) {
		seen.insert({geo.page_shift, p & decided_mask});
		return true;
	});
	EXPECT_EQ(seen.size(), 3u * 64u);
	// And a law false in one corner only is caught.
	EXPECT_NONFATAL_FAILURE(for_every_pte([](std::uint64_t p, const geometry&) {
		return (p & decided_mask) != decided_mask;
	}),
				"law fails");
}

TEST(pte_basic, young_of_mkyoung)
{
	for_every_pte([](std::uint64_t p, const geometry&) { return pte_young(pte_mkyoung(p)); });
}

TEST(pte_basic, old_of_mkold)
{
	for_every_pte([](std::uint64_t p, const geometry&) { return !pte_young(pte_mkold(p)); });
}

TEST(pte_basic, dirty_of_mkdirty)
{
	for_every_pte([](std::uint64_t p, const geometry&) { return pte_dirty(pte_mkdirty(p)); });
}

TEST(pte_basic, clean_of_mkclean)
{
	// Neither dirty bit survives: hardware cannot call it dirty either.
	for_every_pte([](std::uint64_t p, const geometry&) {
		const std::uint64_t q = pte_mkclean(p);
		return !pte_dirty(q) && !pte_sw_dirty(q) && !pte_hw_dirty(q);
	});
}

TEST(pte_basic, write_of_mkwrite)
{
	for_every_pte([](std::uint64_t p, const geometry&) { return pte_write(pte_mkwrite(p)); });
}

TEST(pte_basic, not_write_of_wrprotect)
{
	for_every_pte([](std::uint64_t p, const geometry&) {
		const std::uint64_t q = pte_wrprotect(p);
		return !pte_write(q) && !pte_hw_dirty(q);
	});
}

TEST(pte_basic, wrprotect_keeps_dirty_and_young)
{
	// fork's wrprotect must not lose a dirty page: hw-dirty moves into DIRTY.
	for_every_pte([](std::uint64_t p, const geometry&) {
		const std::uint64_t q = pte_wrprotect(p);
		return pte_dirty(q) == pte_dirty(p) && pte_young(q) == pte_young(p);
	});
}

TEST(pte_basic, cont_of_mkcont_and_mknoncont)
{
	for_every_pte([](std::uint64_t p, const geometry&) {
		return pte_cont(pte_mkcont(p)) && !pte_cont(pte_mknoncont(p));
	});
}

TEST(pte_basic, mkcont_and_mknoncont_change_nothing_else)
{
	for_every_pte([](std::uint64_t p, const geometry&) {
		return only_changes(p, pte_mkcont(p), PTE_CONT) && only_changes(p, pte_mknoncont(p), PTE_CONT) &&
		       pte_mknoncont(pte_mkcont(p)) == pte_mknoncont(p);
	});
}

TEST(pte_dirty_model, hw_dirty_is_writable_and_not_rdonly)
{
	for_every_pte([](std::uint64_t p, const geometry&) {
		const bool w = (p & PTE_WRITE) != 0;
		const bool ro = (p & PTE_RDONLY) != 0;
		return pte_hw_dirty(p) == (w && !ro) && pte_sw_dirty(p) == ((p & PTE_DIRTY) != 0) &&
		       pte_dirty(p) == (pte_sw_dirty(p) || pte_hw_dirty(p));
	});
}

TEST(pte_dirty_model, mkdirty_is_hw_dirty_only_when_writable)
{
	// A read-only entry cannot become hw-dirty: that would grant write.
	for_every_pte([](std::uint64_t p, const geometry&) {
		const std::uint64_t q = pte_mkdirty(p);
		if (pte_write(p))
			return pte_hw_dirty(q) && pte_sw_dirty(q);
		return !pte_hw_dirty(q) && pte_sw_dirty(q) && pte_rdonly(q) == pte_rdonly(p);
	});
}

TEST(pte_advanced, or_flags_is_the_or_of_young_and_dirty)
{
	for_every_pte([](std::uint64_t a, const geometry&) {
		// b ranges over every young/dirty/write state; its other bits must not matter.
		for (unsigned combo = 0; combo < 64; combo++) {
			const std::uint64_t b = flags_of(combo) | (~a & ~decided_mask);
			const std::uint64_t r = pte_or_flags(a, b);
			if (pte_young(r) != (pte_young(a) || pte_young(b)) || pte_dirty(r) != (pte_dirty(a) || pte_dirty(b)))
				return false;
			if (!pte_young(b) && !pte_dirty(b) && r != a)
				return false;
			if (!only_changes(a, r, PTE_FLAG_BITS))
				return false;
		}
		return true;
	});
}

TEST(pte_advanced, helpers_touch_only_documented_bits)
{
	struct helper {
		const char* name;
		std::uint64_t (*fn)(const std::uint64_t&);
		std::uint64_t mask;
	};
	const std::array<helper, 8> helpers = {{
		{"pte_mkyoung", pte_mkyoung<std::uint64_t>, PTE_AF},
		{"pte_mkold", pte_mkold<std::uint64_t>, PTE_AF},
		{"pte_mkdirty", pte_mkdirty<std::uint64_t>, PTE_DIRTY | PTE_RDONLY},
		{"pte_mkclean", pte_mkclean<std::uint64_t>, PTE_DIRTY | PTE_RDONLY},
		{"pte_mkwrite", pte_mkwrite<std::uint64_t>, PTE_WRITE | PTE_RDONLY},
		{"pte_wrprotect", pte_wrprotect<std::uint64_t>, PTE_WRITE | PTE_RDONLY | PTE_DIRTY},
		{"pte_mkcont", pte_mkcont<std::uint64_t>, PTE_CONT},
		{"pte_mknoncont", pte_mknoncont<std::uint64_t>, PTE_CONT},
	}};
	for (const helper& h : helpers) {
		SCOPED_TRACE(h.name);
		for_every_pte([&](std::uint64_t p, const geometry&) { return only_changes(p, h.fn(p), h.mask); });
	}
}

TEST(pte_pfn, pfn_prot_round_trip)
{
	for_every_pte([](std::uint64_t p, const geometry& geo) {
		return pfn_pte(pte_pfn(p, geo), pte_pgprot(p, geo), geo) == p &&
		       (pte_pgprot(p, geo) & geo.addr_mask()) == 0;
	});
}

TEST(pte_pfn, pfn_of_pfn_pte)
{
	for (granule g : granules) {
		const geometry geo = geometry::of(g);
		std::mt19937_64 rng(42);
		std::uniform_int_distribution<std::uint64_t> pfns(0, geo.max_pfn());
		for (int n = 0; n < 2000; n++) {
			// The edges first: pfn 0 and the largest pfn the address field holds.
			const std::uint64_t pfn = n == 0 ? 0 : n == 1 ? geo.max_pfn() : pfns(rng);
			const std::uint64_t prot = rng();
			const std::uint64_t p = pfn_pte(pfn, prot, geo);
			ASSERT_EQ(pte_pfn(p, geo), pfn) << to_string(g);
			ASSERT_EQ(pte_pgprot(p, geo), prot & ~geo.addr_mask()) << to_string(g);
		}
	}
}

TEST(pte_pfn, advance_pfn_moves_pfn_and_keeps_prot)
{
	for_every_pte([](std::uint64_t p, const geometry& geo) {
		const std::uint64_t pfn = pte_pfn(p, geo);
		const std::uint64_t room = geo.max_pfn() - pfn;
		for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{geo.cont_ptes}, room}) {
			if (n > room)
				continue;
			const std::uint64_t q = pte_advance_pfn(p, n, geo);
			if (pte_pfn(q, geo) != pfn + n || pte_pgprot(q, geo) != pte_pgprot(p, geo))
				return false;
		}
		return true;
	});
}

TEST(pte_bits, constants_match_the_arm64_descriptor)
{
	EXPECT_EQ(PTE_VALID, 0x1ull);
	EXPECT_EQ(PTE_TYPE, 0x2ull);
	EXPECT_EQ(PTE_USER, 0x40ull);
	EXPECT_EQ(PTE_RDONLY, 0x80ull);
	EXPECT_EQ(PTE_SHARED, 0x300ull);
	EXPECT_EQ(PTE_AF, 0x400ull);
	EXPECT_EQ(PTE_NG, 0x800ull);
	EXPECT_EQ(PTE_WRITE, 0x0008000000000000ull);
	EXPECT_EQ(PTE_CONT, 0x0010000000000000ull);
	EXPECT_EQ(PTE_PXN, 0x0020000000000000ull);
	EXPECT_EQ(PTE_UXN, 0x0040000000000000ull);
	EXPECT_EQ(PTE_DIRTY, 0x0080000000000000ull);
	EXPECT_EQ(PTE_SPECIAL, 0x0100000000000000ull);
	EXPECT_EQ(PTE_SWP_EXCLUSIVE, 0x4ull);
	EXPECT_EQ(PTE_SWP_UFFD_WP, 0x8ull);
	EXPECT_EQ(PTE_FLAG_BITS, PTE_AF | PTE_DIRTY | PTE_RDONLY);
}

TEST(pte_bits, geometry_of_each_granule)
{
	const geometry g4 = geometry::of(granule::k4), g16 = geometry::of(granule::k16), g64 = geometry::of(granule::k64);
	EXPECT_EQ(g4.page_shift, 12u);
	EXPECT_EQ(g4.cont_ptes, 16u);
	EXPECT_EQ(g16.page_shift, 14u);
	EXPECT_EQ(g16.cont_ptes, 128u);
	EXPECT_EQ(g64.page_shift, 16u);
	EXPECT_EQ(g64.cont_ptes, 32u);
	// Address field is bits [47:page_shift].
	EXPECT_EQ(g4.addr_mask(), 0x0000fffffffff000ull);
	EXPECT_EQ(g16.addr_mask(), 0x0000ffffffffc000ull);
	EXPECT_EQ(g64.addr_mask(), 0x0000ffffffff0000ull);
	EXPECT_EQ(g4.max_pfn(), (1ull << 36) - 1);
	EXPECT_EQ(g4.run_start(37), 32u);
	EXPECT_TRUE(g64.run_aligned(64));
	EXPECT_FALSE(g64.run_aligned(65));
	EXPECT_EQ(parse_granule("16K"), granule::k16);
	EXPECT_THROW(parse_granule("8k"), usage_error);
}

TEST(pte_swap, swp_entry_fields)
{
	std::mt19937_64 rng(7);
	for (unsigned type = 0; type < 32; type++) {
		for (int n = 0; n < 100; n++) {
			const std::uint64_t offset = rng() & SWP_OFFSET_MASK;
			const bool excl = n & 1, uffd = n & 2;
			const std::uint64_t v = mk_swp_entry(type, offset, excl, uffd);
			ASSERT_EQ(v & 3, 0u);	// non-present: bits[1:0] = 0
			ASSERT_EQ((v >> 6) & 0x1f, type);
			ASSERT_EQ((v >> 12) & ((1ull << 50) - 1), offset);
			ASSERT_EQ((v & PTE_SWP_EXCLUSIVE) != 0, excl);
			ASSERT_EQ((v & PTE_SWP_UFFD_WP) != 0, uffd);
			ASSERT_EQ(v >> 62, 0u);
			ASSERT_FALSE(pte_valid(v));
		}
	}
}

TEST(pte_swap, swp_entry_aliases_af_and_cont_while_not_valid)
{
	// Type bit 4 is bit 10 (AF); offset bit 40 is bit 52 (CONT).  Code that
	// asks young/cont of a non-present value reads these as flags: the model
	// must let such values appear so the properties can catch that.
	const std::uint64_t v = mk_swp_entry(0x10, 1ull << 40);
	EXPECT_FALSE(pte_valid(v));
	EXPECT_FALSE(pte_present(v));
	EXPECT_FALSE(pte_none(v));
	EXPECT_TRUE(pte_young(v));
	EXPECT_TRUE(pte_cont(v));
	EXPECT_FALSE(pte_valid_cont(v));
	// Offset bits also reach WRITE (51) and DIRTY (55).
	const std::uint64_t w = mk_swp_entry(0, (1ull << 39) | (1ull << 43));
	EXPECT_TRUE(pte_write(w));
	EXPECT_TRUE(pte_dirty(w));
}

// The special types sit at 24-31, each with bit 10 (AF's place) set; a
// young clear that clears bit 10 of one turns it into a swap entry of type
// 16 lower (a guard marker, 0x47c0, becomes swap type 15, offset 4: 0x43c0).
TEST(pte_swap, special_entries_are_named_and_set_bit_10)
{
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(3, 5)), "swap type 3");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(23, 5)), "swap type 23");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(SWP_HWPOISON, 0x1234)), "hwpoison");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(SWP_MIGRATION_READ, 0x1234)), "migration-read");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(SWP_MIGRATION_READ_EXCLUSIVE, 0x1234)), "migration-read-exclusive");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(SWP_MIGRATION_WRITE, 0x1234)), "migration-write");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(SWP_DEVICE_EXCLUSIVE, 0x1234)), "device-exclusive");
	EXPECT_EQ(nonpresent_kind(mk_swp_entry(SWP_PTE_MARKER, PTE_MARKER_UFFD_WP | PTE_MARKER_POISONED)),
		  "uffd-wp+poison marker");
	const std::uint64_t guard = mk_swp_entry(SWP_PTE_MARKER, PTE_MARKER_GUARD);
	EXPECT_EQ(guard, 0x47c0u);
	EXPECT_EQ(nonpresent_kind(guard), "guard marker");
	EXPECT_EQ(pte_mkold(guard), 0x43c0u);
	EXPECT_EQ(nonpresent_kind(pte_mkold(guard)), "swap type 15");
	for (unsigned type = MAX_SWAPFILES; type <= SWP_PTE_MARKER; type++)
		EXPECT_TRUE(pte_young(mk_swp_entry(type, 1))) << type;
}

} // namespace
} // namespace ptespec
