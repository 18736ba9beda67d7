// The caller rules (mm/caller_rules.h) over hand-made tables: one test per
// rule, each with the batch that breaks it and the nearest one that keeps
// it; then the caller variants, core-mm's and the contrib one, finding
// the same batches over the same table.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "mm/caller.h"
#include "mm/caller_rules.h"
#include "../impl/table.h"
#include "batch_past_folio.h"

namespace ptespec::test {
namespace {

// #0-#3 map the last four pages of folio 0x100, #4-#7 the first four of
// folio 0x140: physically contiguous, two folios.
machine two_folios()
{
	machine m = make_machine(1);
	m.set_folios({{0x100, 64}, {0x140, 64}});
	map(m, 0, 8, 0x13c);
	return m;
}

std::optional<mm::caller_rule> broken(const machine& m, const call& c, std::optional<mm::vma_range> vma = {})
{
	const std::optional<mm::rule_breach> b = mm::check_caller_rules(c, m.table(), {m.geo(), m.folios()}, vma);
	return b ? std::optional(b->rule) : std::nullopt;
}

call batch(std::size_t i, std::size_t nr) { return {call_kind::get_and_clear_full_ptes, i, nr, false, 0, 0}; }

TEST(caller_rules, a_batch_of_one_folio_keeps_every_rule)
{
	const machine m = two_folios();
	EXPECT_EQ(broken(m, batch(0, 4), mm::vma_range{0, 8}), std::nullopt);
	EXPECT_EQ(broken(m, batch(4, 4), mm::vma_range{0, 8}), std::nullopt);
}

TEST(caller_rules, a_batch_one_past_the_folio_breaks_one_folio)
{
	const machine m = two_folios();
	EXPECT_EQ(broken(m, batch(0, 5)), mm::caller_rule::one_folio);
	const mm::rule_breach b = *mm::check_caller_rules(batch(0, 5), m.table(), {m.geo(), m.folios()}, {});
	EXPECT_EQ(b.entry, 4u);
	EXPECT_NE(b.what.find("#4 maps pfn 0x140 (folio 1)"), std::string::npos) << b.what;
}

TEST(caller_rules, nr_zero_past_the_table_and_past_the_vma_are_named)
{
	const machine m = two_folios();
	EXPECT_EQ(broken(m, batch(0, 0)), mm::caller_rule::nr_at_least_one);
	EXPECT_EQ(broken(m, batch(CONT - 2, 3)), mm::caller_rule::inside_table);
	EXPECT_EQ(broken(m, batch(4, 4), mm::vma_range{0, 6}), mm::caller_rule::inside_vma);
	// A one-entry call is about the entry the caller read: no batch rule.
	EXPECT_EQ(broken(m, {call_kind::ptep_get, 12, 1, false, 0, 0}), std::nullopt);
}

TEST(caller_rules, a_none_entry_or_a_gap_in_the_pfns_breaks_the_batch)
{
	machine m = two_folios();
	m.poke(2, 0);
	EXPECT_EQ(broken(m, batch(0, 4)), mm::caller_rule::present);
	machine g = two_folios();
	g.poke(5, g.table()[6]);	// #5 maps #6's page: pfns 0x140, 0x142, 0x142
	EXPECT_EQ(broken(g, batch(4, 3)), mm::caller_rule::consecutive_pfns);
}

// A sink that runs ptep_get on the machine and nothing else: what a
// folio_pte_batch reads.
class read_sink final : public mm::call_sink {
public:
	explicit read_sink(machine& m) : m_(m) {}
	bool implements(call_kind) const override { return true; }
	std::optional<call_result> run(const call& c) override
	{
		reads++;
		return run_call(registry::global().get("mainline"), m_, c);
	}
	void flush_range(std::size_t, std::size_t) override {}
	int reads = 0;

private:
	machine& m_;
};

TEST(caller_variants, core_mm_is_first_and_no_batch_hint_finds_its_batches_reading_more)
{
	const std::vector<const mm::caller*> all = mm::caller_registry::global().all();
	ASSERT_FALSE(all.empty());
	EXPECT_EQ(all.front(), &mm::core_mm());
	EXPECT_EQ(mm::core_mm().info().name, "core-mm");
	const mm::caller& no_hint = mm::caller_registry::global().get("no-batch-hint");

	machine m = make_machine(1);
	fold(m, 0, 0x100);
	read_sink a(m), b(m);
	const mm::memory mem{m.geo(), m.folios()};
	EXPECT_EQ(mm::core_mm().folio_pte_batch(a, mem, 0, CONT, m.table()[0], false, 0), CONT);
	EXPECT_EQ(no_hint.folio_pte_batch(b, mem, 0, CONT, m.table()[0], false, 0), CONT);
	EXPECT_EQ(a.reads, 0) << "pte_batch_hint skips the rest of a CONT run";
	EXPECT_EQ(b.reads, static_cast<int>(CONT) - 1);
}

TEST(caller_variants, the_control_takes_the_neighbours_first_entry)
{
	machine m = two_folios();
	read_sink s(m);
	const controls::batch_past_folio bad;
	EXPECT_EQ(bad.folio_pte_batch(s, {m.geo(), m.folios()}, 0, 8, m.table()[0], false, 0), 5u);
	EXPECT_EQ(mm::core_mm().folio_pte_batch(s, {m.geo(), m.folios()}, 0, 8, m.table()[0], false, 0), 4u);
}

} // namespace
} // namespace ptespec::test
