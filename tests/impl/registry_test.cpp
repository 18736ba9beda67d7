// The built-in strategies reach the registry through the OBJECT library,
// and the adapter rejects calls outside the table.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "impl/adapter.h"
#include "impl/strategy.h"
#include "model/errors.h"
#include "tests/impl/table.h"

namespace ptespec::test {
namespace {

const std::vector<std::string> builtin_names = {
	"mainline", "unfold", "gather-writeback", "simple", "robust", "early-return", "clear-block", "valid-cont-young",
};

TEST(registry, lists_the_eight_builtin_strategies)
{
	std::vector<std::string> names;
	for (strategy* s : registry::global().all())
		if (s->info().origin == "builtin")
			names.push_back(s->info().name);
	EXPECT_EQ(names, builtin_names);
}

TEST(registry, every_builtin_has_a_one_line_description)
{
	for (const std::string& n : builtin_names) {
		const std::string& d = registry::global().get(n).info().description;
		EXPECT_FALSE(d.empty()) << n;
		EXPECT_EQ(d.find('\n'), std::string::npos) << n;
	}
}

TEST(registry, the_loading_flag_finds_a_plugin_or_a_kernel_tree_again)
{
	EXPECT_EQ(loading_flag({"mainline", "", "builtin"}), "");
	EXPECT_EQ(loading_flag({"nocont", "", "in-tree"}), "");
	EXPECT_EQ(loading_flag({"mine", "", "/p/libmine.so"}), " --plugin /p/libmine.so");
	EXPECT_EQ(loading_flag({"kernel-6.12.0", "", std::string(kernel_tree_origin) + "/src/linux"}),
		  " --kernel kernel-6.12.0=/src/linux");
}

TEST(registry, unknown_name_is_a_usage_error_that_names_it)
{
	try {
		registry::global().get("no-such-strategy");
		FAIL() << "expected usage_error";
	} catch (const usage_error& e) {
		const std::string msg = e.what();
		EXPECT_NE(msg.find("'no-such-strategy'"), std::string::npos) << msg;
		EXPECT_NE(msg.find("mainline"), std::string::npos) << msg;	// and what is known
	}
}

TEST(registry, builtins_implement_every_call)
{
	for (const std::string& n : builtin_names) {
		const strategy& s = registry::global().get(n);
		for (std::size_t k = 0; k < nr_call_kinds; k++)
			EXPECT_TRUE(s.implements(static_cast<call_kind>(k))) << n << " " << to_string(static_cast<call_kind>(k));
	}
}

// The proofs run a batch as its single-entry calls only when it is core-mm's
// generic loop (impl/generic.h); a strategy with its own batch -- mainline,
// or one that hides the loop -- is run whole.
template <class M>
struct own_batch : generic_batch_ops<M, own_batch<M>> {
	using W = typename M::word;
	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		return this->self().ptep_get_and_clear_full(m, i + nr - 1, full);
	}
};

TEST(registry, knows_which_batches_are_the_generic_loop)
{
	for (const char* name : {"unfold", "gather-writeback", "simple", "robust", "early-return", "clear-block"}) {
		SCOPED_TRACE(name);
		const strategy& s = registry::global().get(name);
		EXPECT_TRUE(s.batch_is_generic(call_kind::get_and_clear_full_ptes));
		EXPECT_TRUE(s.batch_is_generic(call_kind::clear_full_ptes));
		EXPECT_FALSE(s.batch_is_generic(call_kind::ptep_get_and_clear_full));
	}
	const strategy& mainline = registry::global().get("mainline");
	EXPECT_FALSE(mainline.batch_is_generic(call_kind::get_and_clear_full_ptes));
	EXPECT_FALSE(mainline.batch_is_generic(call_kind::clear_full_ptes));
	const auto own = make_strategy<own_batch>("test-own-batch", "hides the generic get_and_clear_full_ptes", "test");
	EXPECT_FALSE(own->batch_is_generic(call_kind::get_and_clear_full_ptes));
	EXPECT_TRUE(own->batch_is_generic(call_kind::clear_full_ptes));
}

// A strategy a test builds for the sampled runs alone answers what the
// sampled runs ask as the whole one does, and says it cannot be proved or
// counted instead of running something else.
TEST(registry, a_strategy_built_for_the_sampled_runs_only_says_so)
{
	const auto whole = make_strategy<own_batch>("test-own-batch", "every machine", "test");
	const auto sampled = make_strategy<own_batch, on_machine>("test-own-batch-sampled", "one machine", "test");
	EXPECT_TRUE(whole->symbolic());
	EXPECT_FALSE(sampled->symbolic());
	EXPECT_NE(sampled->why_not_symbolic().find("sampled runs only"), std::string::npos);
	for (std::size_t k = 0; k < nr_call_kinds; k++) {
		const call_kind kind = static_cast<call_kind>(k);
		EXPECT_EQ(sampled->implements(kind), whole->implements(kind));
		EXPECT_EQ(sampled->batch_is_generic(kind), whole->batch_is_generic(kind));
	}
	machine m = make_machine(1);
	counted_machine counted(geo4k, CONT);
	call c;
	c.kind = call_kind::ptep_get;
	EXPECT_EQ(sampled->invoke(m, c).pte, whole->invoke(m, c).pte);
	EXPECT_THROW(sampled->invoke(counted, c), internal_error);
}

TEST(dispatch, rejects_a_range_past_the_end_of_the_table)
{
	strategy& s = registry::global().get("mainline");
	machine m = make_machine(1);
	call c;
	c.kind = call_kind::clear_full_ptes;
	c.index = 10;
	c.nr = 7;
	EXPECT_THROW(s.invoke(m, c), usage_error);
	c.nr = 0;
	EXPECT_THROW(s.invoke(m, c), usage_error);
	c.kind = call_kind::ptep_get;
	c.index = 16;
	EXPECT_THROW(s.invoke(m, c), usage_error);
	EXPECT_EQ(m.cost().reads + m.cost().atomics, 0u);
}

TEST(dispatch, rejects_a_table_of_partial_runs)
{
	strategy& s = registry::global().get("mainline");
	machine m(geo4k, 20);
	call c;
	c.kind = call_kind::ptep_get;
	EXPECT_THROW(s.invoke(m, c), usage_error);
}

TEST(dispatch, runs_a_call_and_returns_its_result)
{
	strategy& s = registry::global().get("mainline");
	machine m = make_machine(1);
	fold(m, 0, 0x100);
	mark(m, 15, true, false);
	call c;
	c.kind = call_kind::ptep_clear_flush_young;
	c.index = 3;
	const call_result r = run_call(s, m, c);
	ASSERT_TRUE(r.young.has_value());
	EXPECT_TRUE(*r.young);
	EXPECT_FALSE(r.pte.has_value());
}

// A strategy with only the one-entry young calls: its batched ones are
// core-mm's generic loop over them, every entry asked, the answers ORed.
template <class M>
struct one_entry_young_only {
	typename M::boolean ptep_test_and_clear_young(M& m, std::size_t i)
	{
		return pte_young(m.atomic_update(i, [](const typename M::word& v) { return pte_mkold(v); }));
	}
};

TEST(dispatch, gives_a_one_entry_young_call_core_mms_generic_batch)
{
	EXPECT_TRUE(strategy_implements<one_entry_young_only>(call_kind::test_and_clear_young_ptes));
	EXPECT_FALSE(strategy_implements<one_entry_young_only>(call_kind::clear_flush_young_ptes));
	one_entry_young_only<machine> s;
	machine m = make_machine(1);
	map(m, 0, 16, 0x100);
	mark(m, 5, true, false);
	mark(m, 6, true, false);
	call c;
	c.kind = call_kind::test_and_clear_young_ptes;
	c.index = 4;
	c.nr = 4;
	const call_result r = dispatch(s, m, c);
	EXPECT_TRUE(r.young.value_or(false));
	EXPECT_EQ(m.cost().atomics, 4u);	// no entry skipped once one was young
	EXPECT_EQ(ruler(m.table()), "|oooooooooooooooo|");
}

} // namespace
} // namespace ptespec::test
