// Every strategy runs unchanged on the instrumented machine type: the same
// source, instantiated over counted_word, makes the same calls return the
// same values and leave the same tables -- and really goes through the
// generic word interface, since the counted word's counters move.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "impl/strategy.h"
#include "model/call.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

call mk(call_kind k, std::size_t index, std::size_t nr = 1, bool full = false, std::uint64_t pte = 0,
	unsigned flags = 0)
{
	call c;
	c.kind = k;
	c.index = index;
	c.nr = nr;
	c.full = full;
	c.pte = pte;
	c.flags = flags;
	return c;
}

// A fork, some reclaim and MADV_FREE, a fault, a teardown of three runs.
// Between calls hardware records flags (the same on both machines).
struct scripted_step {
	call c;
	std::size_t mark_entry;	// entry to mark young+dirty before the call (or none)
};
constexpr std::size_t NONE = ~std::size_t{0};

const std::vector<scripted_step> script = {
	{mk(call_kind::set_ptes, 0, 32, false, page(0x100)), NONE},
	{mk(call_kind::set_ptes, 32, 15, false, page(0x120)), NONE},
	{mk(call_kind::set_ptes, 47, 1, false, page(0x12f)), NONE},	// folds run 2
	{mk(call_kind::ptep_get, 5), 9},
	{mk(call_kind::ptep_get_lockless, 20), 30},
	{mk(call_kind::ptep_test_and_clear_young, 3), NONE},
	{mk(call_kind::ptep_clear_flush_young, 17), 18},
	{mk(call_kind::wrprotect_ptes, 16, 16), NONE},
	{mk(call_kind::wrprotect_ptes, 36, 4), 37},
	{mk(call_kind::clear_young_dirty_ptes, 4, 4, false, 0, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY), 12},
	{mk(call_kind::clear_young_dirty_ptes, 44, 1, false, 0, CYDP_CLEAR_DIRTY), 45},
	{mk(call_kind::ptep_set_access_flags, 6, 1, false, young(page(0x106)), 0), NONE},
	{mk(call_kind::ptep_set_access_flags, 21, 1, false, dirty(young(page(0x115))), 1), NONE},
	{mk(call_kind::contpte_try_unfold, 40), 41},
	{mk(call_kind::contpte_try_fold, 40), NONE},
	{mk(call_kind::ptep_get_and_clear_full, 0, 1, true), 2},
	{mk(call_kind::ptep_get, 1), NONE},
	{mk(call_kind::get_and_clear_full_ptes, 1, 15, true), NONE},
	{mk(call_kind::clear_full_ptes, 16, 8, false), NONE},
	{mk(call_kind::ptep_get_and_clear, 30), NONE},
	{mk(call_kind::get_and_clear_full_ptes, 24, 24, false), 44},
};

template <class Machine>
void mark_both(Machine& m, std::size_t i)
{
	std::uint64_t v = m.table()[i];
	if (pte_valid(v))
		m.poke(i, pte_clear_bits(pte_mkyoung(v), PTE_RDONLY));
}

bool same(const call_result& a, const call_result& b)
{
	return a.pte == b.pte && a.young == b.young && a.changed == b.changed;
}

TEST(instrumented, every_strategy_runs_unchanged_on_counted_words)
{
	const std::vector<strategy*> all = registry::global().all();
	ASSERT_GE(all.size(), 7u);
	for (strategy* s : all) {
		SCOPED_TRACE(s->info().name);
		machine plain(geo4k, 3 * CONT);
		counted_machine counted(geo4k, 3 * CONT);
		plain.set_folios({{0x100, 64}});
		counted.set_folios({{0x100, 64}});
		const word_op_counts before = counted_word::counts();
		for (std::size_t n = 0; n < script.size(); n++) {
			const scripted_step& st = script[n];
			SCOPED_TRACE("step " + std::to_string(n) + ": " + describe(st.c));
			if (st.mark_entry != NONE) {
				mark_both(plain, st.mark_entry);
				mark_both(counted, st.mark_entry);
			}
			const call_result a = run_call(*s, plain, st.c);
			const call_result b = run_call(*s, counted, st.c);
			EXPECT_TRUE(same(a, b));
			ASSERT_EQ(ruler(plain.table()), ruler(counted.table()));
			ASSERT_EQ(plain.table(), counted.table());
		}
		EXPECT_EQ(plain.cost().reads, counted.cost().reads);
		EXPECT_EQ(plain.cost().atomics, counted.cost().atomics);
		EXPECT_EQ(plain.cost().writes, counted.cost().writes);
		EXPECT_EQ(plain.cost().tlbis(), counted.cost().tlbis());
		const word_op_counts& after = counted_word::counts();
		EXPECT_GT(after.ops, before.ops);
		EXPECT_GT(after.selects, before.selects);
		EXPECT_GT(after.tests, before.tests);
	}
}

// The script is not vacuous: on mainline it folds, flushes and clears.
TEST(instrumented, the_script_exercises_folds_flushes_and_teardown)
{
	strategy& s = registry::global().get("mainline");
	machine m(geo4k, 3 * CONT);
	m.set_folios({{0x100, 64}});
	for (const scripted_step& st : script) {
		if (st.mark_entry != NONE)
			mark_both(m, st.mark_entry);
		run_call(s, m, st.c);
	}
	EXPECT_GE(m.cost().tlbi_range, 3u);
	EXPECT_EQ(ruler(m.table()), "|................| |................| |................|");
}

} // namespace
} // namespace ptespec::test
