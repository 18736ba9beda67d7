// The TLBI decoder and the DSB that completes it (kernel/tlbi.h), on
// operands built by hand from the architecture's field layout.

#include <algorithm>

#include <gtest/gtest.h>

#include "kernel/tlbi.h"

namespace ptespec::kernel {
namespace {

constexpr unsigned shift4k = 12, shift64k = 16;
constexpr std::size_t entries = 64;

std::uint64_t va_operand(std::size_t page, unsigned shift, std::uint64_t asid = PTESPEC_USER_ASID,
			 std::uint64_t ttl = 0)
{
	const std::uint64_t va = PTESPEC_VA_BASE + (std::uint64_t{page} << shift);
	return ((va >> 12) & ((1ULL << 44) - 1)) | (ttl << 44) | (asid << 48);
}

std::uint64_t range_operand(std::size_t page, unsigned shift, std::uint64_t num, std::uint64_t scale,
			    std::uint64_t ttl = 0, std::uint64_t tg = 1)
{
	const std::uint64_t baddr = (PTESPEC_VA_BASE >> shift) + page;
	return baddr | (ttl << 37) | (num << 39) | (scale << 44) | (tg << 46) | (std::uint64_t{PTESPEC_USER_ASID} << 48);
}

TEST(tlbi, a_va_operand_names_its_page_asid_and_level)
{
	const auto e = decode_tlbi("vale1is", va_operand(5, shift4k, PTESPEC_USER_ASID, (1u << 2) | 3), shift4k, entries);
	ASSERT_TRUE(e);
	EXPECT_FALSE(e->reaches_nothing);
	EXPECT_EQ(e->kind, PTESPEC_FLUSH_PAGE);
	EXPECT_EQ(e->first, 5u);
	EXPECT_EQ(e->nr, 1u);
	EXPECT_EQ(e->flags, PTESPEC_FLUSH_LAST_LEVEL | PTESPEC_FLUSH_LEVEL(3));
	// The operand holds VA[55:12] whatever the granule: at 64K the same
	// encoding names page 5 of 64K.
	const auto big = decode_tlbi("vae1is", va_operand(5, shift64k), shift64k, entries);
	ASSERT_TRUE(big);
	EXPECT_EQ(big->first, 5u);
	EXPECT_EQ(big->flags, 0u);
}

// In a pmd table each entry maps a PMD block (2^21 bytes with 4K pages):
// a TLBI names the entry holding any page it names.
TEST(tlbi, in_a_pmd_table_a_tlbi_reaches_the_block_holding_its_pages)
{
	constexpr unsigned pmd4k = 21;
	const auto one = decode_tlbi("vale1is", va_operand(3 * 512 + 7, shift4k, PTESPEC_USER_ASID, (1u << 2) | 2),
				     shift4k, entries, pmd4k);
	ASSERT_TRUE(one);
	EXPECT_EQ(one->first, 3u);
	EXPECT_EQ(one->nr, 1u);
	EXPECT_EQ(one->flags, PTESPEC_FLUSH_LAST_LEVEL | PTESPEC_FLUSH_LEVEL(2));
	// 2 * 2^(5*1+1) = 128 pages from page 1000: pages 1000..1127 span
	// blocks 1 (512..1023) and 2 (1024..1535).
	const auto range = decode_tlbi("rvae1is", range_operand(1000, shift4k, 1, 1), shift4k, entries, pmd4k);
	ASSERT_TRUE(range);
	EXPECT_EQ(range->first, 1u);
	EXPECT_EQ(range->nr, 2u);
}

TEST(tlbi, another_asid_granule_or_regime_reaches_nothing_and_the_any_asid_forms_ignore_it)
{
	EXPECT_TRUE(decode_tlbi("vale1is", va_operand(5, shift4k, 0), shift4k, entries)->reaches_nothing);
	EXPECT_FALSE(decode_tlbi("vaale1is", va_operand(5, shift4k, 0), shift4k, entries)->reaches_nothing);
	// A TTL naming the 16K granule on a 4K machine.
	EXPECT_TRUE(decode_tlbi("vale1is", va_operand(5, shift4k, PTESPEC_USER_ASID, (2u << 2) | 3), shift4k, entries)
			    ->reaches_nothing);
	EXPECT_TRUE(decode_tlbi("vae2is", va_operand(5, shift4k), shift4k, entries)->reaches_nothing);
	EXPECT_TRUE(decode_tlbi("aside1is", std::uint64_t{7} << 48, shift4k, entries)->reaches_nothing);
	EXPECT_EQ(decode_tlbi("aside1is", std::uint64_t{PTESPEC_USER_ASID} << 48, shift4k, entries)->kind,
		  PTESPEC_FLUSH_ALL);
	// Outside the table: nothing the model holds.
	EXPECT_TRUE(decode_tlbi("vae1is", va_operand(entries, shift4k), shift4k, entries)->reaches_nothing);
	EXPECT_FALSE(decode_tlbi("frobnicate", 0, shift4k, entries));
}

TEST(tlbi, a_range_operand_covers_num_plus_one_times_two_to_five_scale_plus_one_pages)
{
	// NUM 0, SCALE 0: 2 pages; NUM 7, SCALE 0: 16; TTL 3 is a level hint.
	const auto two = decode_tlbi("rvale1is", range_operand(4, shift4k, 0, 0), shift4k, entries);
	ASSERT_TRUE(two);
	EXPECT_EQ(two->kind, PTESPEC_FLUSH_RANGE);
	EXPECT_EQ(two->first, 4u);
	EXPECT_EQ(two->nr, 2u);
	const auto run = decode_tlbi("rvae1is", range_operand(16, shift4k, 7, 0, 3), shift4k, entries);
	EXPECT_EQ(run->nr, 16u);
	EXPECT_EQ(run->flags, PTESPEC_FLUSH_LEVEL(3));
	// NUM 0, SCALE 1: 64 pages, cut at the table's end.
	EXPECT_EQ(decode_tlbi("rvae1is", range_operand(32, shift4k, 0, 1), shift4k, entries)->nr, 32u);
	// TG must be the machine's granule.
	EXPECT_TRUE(decode_tlbi("rvae1is", range_operand(0, shift4k, 7, 0, 0, 3), shift4k, entries)->reaches_nothing);
}

TEST(tlbi, only_a_dsb_that_waits_for_it_completes_a_tlbi)
{
	tlbi_queue q;
	q.issue(*decode_tlbi("vale1is", va_operand(1, shift4k), shift4k, entries));
	q.issue(*decode_tlbi("vale1is", va_operand(2, shift4k), shift4k, entries));
	q.issue(*decode_tlbi("vale1", va_operand(9, shift4k), shift4k, entries));
	EXPECT_TRUE(q.complete(PTESPEC_DSB_ishst).empty());
	// NSH waits for this CPU's own TLBI only.
	const auto local = q.complete(PTESPEC_DSB_nsh);
	ASSERT_EQ(local.size(), 1u);
	EXPECT_EQ(local[0].first, 9u);
	EXPECT_EQ(local[0].flags & PTESPEC_FLUSH_LOCAL, PTESPEC_FLUSH_LOCAL);
	// ISH waits for the broadcast ones: adjacent pages, one range.
	const auto both = q.complete(PTESPEC_DSB_ish);
	ASSERT_EQ(both.size(), 1u);
	EXPECT_EQ(both[0].kind, PTESPEC_FLUSH_RANGE);
	EXPECT_EQ(both[0].first, 1u);
	EXPECT_EQ(both[0].nr, 2u);
	EXPECT_TRUE(q.abandon().empty());
	// One the call never waited for is handed over as issued, not complete.
	q.issue(*decode_tlbi("vale1is", va_operand(3, shift4k), shift4k, entries));
	const auto left = q.abandon();
	ASSERT_EQ(left.size(), 1u);
	EXPECT_NE(left[0].flags & PTESPEC_FLUSH_NOSYNC, 0u);
}

TEST(tlbi, the_raw_macros_become_host_calls_on_the_same_lines)
{
	const std::string header = "#ifndef H\n"
				   "#define __TLBI_0(op, arg) asm (\"tlbi \" #op \"\\n\"\t\\\n"
				   "\t\t: : )\n"
				   "#define __TLBI_1(op, arg) asm (\"tlbi \" #op \", %x0\\n\"\t\\\n"
				   "\t\t: : \"rZ\" (arg))\n"
				   "#define __tlbi(op, ...) __TLBI_N(op, ##__VA_ARGS__, 1, 0)\n"
				   "#endif\n";
	const auto out = host_tlbi_macros(header);
	ASSERT_TRUE(out);
	EXPECT_EQ(std::count(out->begin(), out->end(), '\n'), std::count(header.begin(), header.end(), '\n'));
	EXPECT_NE(out->find("#define __TLBI_0(op, arg) ptespec_tlbi(#op, 0)\n\n"), std::string::npos) << *out;
	EXPECT_NE(out->find("#define __TLBI_1(op, arg) ptespec_tlbi(#op, (unsigned long long)(arg))\n\n"),
		  std::string::npos)
		<< *out;
	EXPECT_EQ(out->find("asm"), std::string::npos) << *out;
	EXPECT_NE(out->find("#define __tlbi(op, ...)"), std::string::npos) << *out;
	EXPECT_FALSE(host_tlbi_macros("#define flush_tlb_all() do { } while (0)\n"));
}

} // namespace
} // namespace ptespec::kernel
