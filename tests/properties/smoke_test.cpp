// The harness end to end on two strategies defined here: a table that never
// folds (so nothing can go wrong) and one whose ptep_get forgets the run.
#include <gtest/gtest.h>

#include <iostream>

#include "model/pte.h"

#include "impl/adapter.h"
#include "properties/runner.h"

namespace ptespec {
namespace {

// Every call on plain entries: the non-contpte baseline.
template <class M>
struct nocont {
	using W = typename M::word;
	void set_ptes(M& m, std::size_t i, W pte, std::size_t nr)
	{
		for (std::size_t k = 0; k < nr; k++)
			m.write(i + k, pte_advance_pfn(pte_mknoncont(pte), k, m.geo()));
	}
	W ptep_get(M& m, std::size_t i) { return m.read(i); }
	W ptep_get_and_clear_full(M& m, std::size_t i, bool) { return m.exchange(i, m.lit(0)); }
};

// A negative control: its clear hands back the entry without its flags.
template <class M>
struct nocont_forgetful : nocont<M> {
	using W = typename M::word;
	W ptep_get_and_clear_full(M& m, std::size_t i, bool)
	{
		return pte_mkold(pte_mkclean(m.exchange(i, m.lit(0))));
	}
};

TEST(harness_smoke, forgetful_clear_fails_no_loss_and_per_call_with_a_small_counterexample)
{
	auto s = make_strategy<nocont_forgetful, on_machine>("forgetful", "test", "test");
	run_options o;
	o.cases = 100;
	for (property p : {property::no_loss, property::per_call}) {
		const property_result r = run_property(*s, p, o);
		ASSERT_EQ(r.v, verdict::fails) << to_string(p);
		EXPECT_EQ(r.ce.v.prop, p);
		EXPECT_LE(r.ce.calls.size(), 10u) << format_counterexample(r);
		std::cout << format_counterexample(r);
	}
}

TEST(harness_smoke, nocont_holds_everything_it_can_be_judged_on)
{
	auto s = make_strategy<nocont, on_machine>("nocont", "test", "test");
	run_options o;
	o.cases = 50;
	for (property p : all_properties) {
		const property_result r = run_property(*s, p, o);
		if (p == property::batch_or || p == property::lockless || p == property::progress)
			EXPECT_EQ(r.v, verdict::not_applicable) << to_string(p);
		else
			EXPECT_EQ(r.v, verdict::holds) << to_string(p) << "\n" << format_counterexample(r);
		if (r.v == verdict::holds) {
			EXPECT_EQ(r.cases, o.cases);
			EXPECT_GT(r.calls, 1000u) << to_string(p);
		}
	}
}

} // namespace
} // namespace ptespec
