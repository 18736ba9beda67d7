// The one walker of a recorded history and the words every printer uses:
// each call comes with the table before and after it, nested calls end
// first, hardware events go to the innermost open call.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model/history.h"
#include "model/pte.h"
#include "model/ruler.h"
#include "model/tlb.h"
#include "model/transcript.h"

namespace ptespec {
namespace {

const geometry geo4k = geometry::of(granule::k4);

call get(std::size_t i)
{
	call c;
	c.kind = call_kind::ptep_get;
	c.index = i;
	return c;
}

// |o...| a write of #1 inside the outer call, an access landing in #0
// inside the inner one, one between calls; the inner call ends first.
TEST(history_walk, nested_calls_end_first_with_their_tables_and_events)
{
	history h;
	h.geo = geo4k;
	h.initial.assign(16, 0);
	h.steps.push_back(call_begin_step{get(0)});
	h.steps.push_back(primitive_step{prim_kind::write, 1, 1, 0, 7});
	h.steps.push_back(call_begin_step{get(2)});
	h.steps.push_back(hw_event{1, hw_kind::access, 3, 0, 0, 9});
	h.steps.push_back(call_end_step{get(2), {}});
	h.steps.push_back(call_end_step{get(0), {}});
	h.steps.push_back(hw_event{2, hw_kind::write, 4, 4, 0, 5});
	std::vector<call_span> spans;
	std::vector<std::size_t> between;
	walk_calls(
		h, [&](const call_span& c) { spans.push_back(c); },
		[&](const hw_event&, std::size_t step) { between.push_back(step); });
	ASSERT_EQ(spans.size(), 2u);
	EXPECT_EQ(spans[0].c->index, 2u);
	EXPECT_EQ(spans[0].first, 2u);
	EXPECT_EQ(spans[0].last, 4u);
	ASSERT_EQ(spans[0].hw.size(), 1u);
	EXPECT_EQ(spans[0].before[0], 0u);
	EXPECT_EQ(spans[0].after[0], 9u);
	EXPECT_EQ(spans[1].c->index, 0u);
	EXPECT_TRUE(spans[1].hw.empty());
	EXPECT_EQ(spans[1].before[1], 0u);
	EXPECT_EQ(spans[1].after[1], 7u);
	EXPECT_EQ(spans[1].how, call_span::ending::returned);
	EXPECT_EQ(between, std::vector<std::size_t>{6});
}

// A lockless read of #0 that ends while the writer it raced is still
// open: each end closes its own call, not the innermost one.
TEST(history_walk, an_interleaved_writer_may_end_after_the_read)
{
	history h;
	h.geo = geo4k;
	h.initial.assign(16, 0);
	call read = get(0), clear = get(0);
	read.kind = call_kind::ptep_get_lockless;
	clear.kind = call_kind::ptep_get_and_clear;
	call_result r;
	r.pte = 5;
	h.steps.push_back(call_begin_step{read});
	h.steps.push_back(call_begin_step{clear});
	h.steps.push_back(call_end_step{read, r});
	h.steps.push_back(primitive_step{prim_kind::exchange, 0, 1, 5, 0});
	h.steps.push_back(call_end_step{clear, {}});
	std::vector<call_span> spans;
	walk_calls(h, [&](const call_span& c) { spans.push_back(c); });
	ASSERT_EQ(spans.size(), 2u);
	EXPECT_EQ(spans[0].c->kind, call_kind::ptep_get_lockless);
	EXPECT_EQ(spans[0].first, 0u);
	EXPECT_EQ(*spans[0].r->pte, 5u);
	EXPECT_EQ(spans[1].c->kind, call_kind::ptep_get_and_clear);
	EXPECT_EQ(spans[1].first, 1u);
	EXPECT_EQ(spans[1].last, 4u);
}

TEST(history_walk, a_fault_ends_its_call_and_a_forgotten_call_comes_last)
{
	history h;
	h.geo = geo4k;
	h.initial.assign(16, 0);
	h.steps.push_back(call_begin_step{get(0)});	// forgotten: never ends
	h.steps.push_back(call_begin_step{get(1)});
	fault_step f;
	f.c = get(1);
	f.index = 40;
	f.table_size = 16;
	h.steps.push_back(f);
	std::vector<call_span> spans;
	walk_calls(h, [&](const call_span& c) { spans.push_back(c); });
	ASSERT_EQ(spans.size(), 2u);
	EXPECT_EQ(spans[0].how, call_span::ending::faulted);
	EXPECT_EQ(fault_text(*spans[0].fault), "entry #40 outside a table of 16 entries");
	EXPECT_EQ(spans[1].how, call_span::ending::unfinished);
	EXPECT_EQ(spans[1].last, h.steps.size());
}

TEST(transcript, says_results_and_events_in_the_demo_words)
{
	const std::uint64_t prot = PTE_VALID | PTE_TYPE | PTE_WRITE;
	const std::uint64_t v = pte_mkdirty(pte_mkyoung(pfn_pte(std::uint64_t{0x80}, prot, geo4k)));
	call_result r;
	r.pte = v;
	EXPECT_EQ(result_text(r), fmt::format("{:#018x} (young+dirty)", v));
	EXPECT_EQ(flags_text(0), "none");
	call_result y;
	y.young = false;
	EXPECT_EQ(result_text(y), "old");
	EXPECT_EQ(hw_event_text({1, hw_kind::write, 1, 14, 0, 0}),
		  "hw write to page #1 recorded in #14 (another entry of its run)");
	EXPECT_EQ(hw_event_text({1, hw_kind::access, 3, 3, 0, 0}), "hw access to page #3 recorded in #3");
}

// A flush's hints: the entries it issues a TLBI for, and its words.
TEST(flush_hints, a_stride_reaches_its_multiples_from_the_rounded_start_and_a_wrong_level_none)
{
	std::vector<std::size_t> reached;
	for (std::size_t i = 0; i < 64; i++)
		if (flush_reaches(i, 5, 30, flush_stride(4), 3))
			reached.push_back(i);
	// [5, 35) rounded out to 16 entries: TLBIs at 0, 16 and 32.
	EXPECT_EQ(reached, (std::vector<std::size_t>{0, 16, 32}));
	EXPECT_TRUE(flush_reaches(5, 5, 1, 0, 3));
	EXPECT_FALSE(flush_reaches(6, 5, 1, 0, 3));
	EXPECT_TRUE(flush_reaches(5, 5, 1, flush_level(3), 3));
	EXPECT_FALSE(flush_reaches(5, 5, 1, flush_level(2), 3));
	EXPECT_FALSE(flush_reaches(0, 0, 64, flush_level(0), 3));
	// A pmd table's blocks sit at level 2: a pte's hint misses them.
	EXPECT_TRUE(flush_reaches(5, 5, 1, flush_level(2), 2));
	EXPECT_FALSE(flush_reaches(5, 5, 1, flush_level(3), 2));
	EXPECT_TRUE(flush_reaches(5, 5, 1, 0, 2));
	EXPECT_EQ(flush_flag_text(flush_local | flush_nosync | flush_stride(4) | flush_level(2)),
		  " local nosync stride 16 level 2");
	EXPECT_EQ(flush_flag_text(flush_level(3) | flush_stride(0)), " level 3");
	EXPECT_EQ(flush_flag_text(flush_stride(0)), "");
	// Level 0 is a level with 4K pages; with 16K and 64K pages its TTL
	// encoding is reserved and taken as no hint.
	EXPECT_EQ(flush_hint_for(flush_level(0), 12), flush_level(0));
	EXPECT_EQ(flush_hint_for(flush_level(0) | flush_stride(4), 14), flush_stride(4));
	EXPECT_EQ(flush_hint_for(flush_level(0), 16), 0u);
	EXPECT_EQ(flush_hint_for(flush_level(2), 16), flush_level(2));
}

// What a CPU may still hold: a change that keeps CONT but takes a
// permission away leaves the old translation beside the new one until an
// invalidation reaches the entry; a change of young or dirty alone does not.
TEST(tlb_shadow, keeps_a_more_permissive_translation_until_a_flush)
{
	const geometry geo = geometry::of(granule::k4);
	const std::uint64_t rw = pfn_pte(std::uint64_t{0x400}, PTE_VALID | PTE_TYPE | PTE_USER | PTE_AF | PTE_WRITE, geo);
	const std::uint64_t ro = pte_wrprotect(rw);
	std::vector<std::uint64_t> table{rw};
	tlb_shadow tlb;
	tlb.reset(table);
	EXPECT_TRUE(tlb.store(0, 0));
	EXPECT_TRUE(tlb.store(0, ro));
	EXPECT_EQ(tlb.cached(0), ro);
	EXPECT_EQ(tlb.stale(0), rw);
	table[0] = ro;
	tlb.flush(0, 1, table, flush_level(0));
	EXPECT_EQ(tlb.stale(0), rw);	// a level-0 hint reaches no pte
	tlb.flush(0, 1, table);
	EXPECT_EQ(tlb.stale(0), 0u);
	EXPECT_TRUE(tlb.store(0, pte_mkdirty(ro)));
	EXPECT_EQ(tlb.stale(0), 0u);
}

TEST(ruler, changed_runs_names_only_the_runs_that_differ)
{
	std::vector<std::uint64_t> a(32, 0), b(32, 0);
	b[17] = pfn_pte(std::uint64_t{0x91}, PTE_VALID | PTE_TYPE, geo4k);
	const auto runs = changed_runs(a, b, geo4k);
	ASSERT_EQ(runs.size(), 1u);
	EXPECT_EQ(runs[0].run, 1u);
	EXPECT_EQ(runs[0].before, "|................|");
	EXPECT_EQ(runs[0].after, "|.o..............|");
}

} // namespace
} // namespace ptespec
