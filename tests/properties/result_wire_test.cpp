// A property run's result crosses from the child process that ran it to
// the parent that prints it (properties/result_wire.h): everything printed
// must arrive as it left.
#include <gtest/gtest.h>

#include "impl/strategy.h"
#include "model/errors.h"
#include "properties/result_wire.h"
#include "properties/runner.h"

namespace ptespec {
namespace {

void expect_same(const property_result& a, const property_result& b)
{
	EXPECT_EQ(a.strategy, b.strategy);
	EXPECT_EQ(a.prop, b.prop);
	EXPECT_EQ(a.v, b.v);
	EXPECT_EQ(a.cases, b.cases);
	EXPECT_EQ(a.calls, b.calls);
	EXPECT_EQ(a.exercised, b.exercised);
	EXPECT_EQ(a.why_not_exercised, b.why_not_exercised);
	EXPECT_EQ(a.distribution, b.distribution);
	EXPECT_EQ(a.ce.commands, b.ce.commands);
	EXPECT_EQ(a.ce.initial, b.ce.initial);
	EXPECT_EQ(a.ce.layout, b.ce.layout);
	EXPECT_EQ(a.ce.reproduce, b.ce.reproduce);
	EXPECT_EQ(a.ce.v.prop, b.ce.v.prop);
	EXPECT_EQ(a.ce.v.step, b.ce.v.step);
	EXPECT_EQ(a.ce.v.page, b.ce.v.page);
	EXPECT_EQ(a.ce.v.message, b.ce.v.message);
	ASSERT_EQ(a.ce.calls.size(), b.ce.calls.size());
	for (std::size_t k = 0; k < a.ce.calls.size(); k++) {
		EXPECT_EQ(a.ce.calls[k].command, b.ce.calls[k].command);
		EXPECT_EQ(a.ce.calls[k].call, b.ce.calls[k].call);
		EXPECT_EQ(a.ce.calls[k].result, b.ce.calls[k].result);
		EXPECT_EQ(a.ce.calls[k].hw, b.ce.calls[k].hw);
		EXPECT_EQ(a.ce.calls[k].runs, b.ce.calls[k].runs);
	}
	ASSERT_EQ(a.ce.breach.has_value(), b.ce.breach.has_value());
	if (a.ce.breach) {
		EXPECT_EQ(a.ce.breach->caller, b.ce.breach->caller);
		EXPECT_EQ(a.ce.breach->c.kind, b.ce.breach->c.kind);
		EXPECT_EQ(a.ce.breach->c.index, b.ce.breach->c.index);
		EXPECT_EQ(a.ce.breach->c.nr, b.ce.breach->c.nr);
		EXPECT_EQ(a.ce.breach->c.full, b.ce.breach->c.full);
		EXPECT_EQ(a.ce.breach->c.pte, b.ce.breach->c.pte);
		EXPECT_EQ(a.ce.breach->c.flags, b.ce.breach->c.flags);
		EXPECT_EQ(a.ce.breach->b.rule, b.ce.breach->b.rule);
		EXPECT_EQ(a.ce.breach->b.entry, b.ce.breach->b.entry);
		EXPECT_EQ(a.ce.breach->b.what, b.ce.breach->b.what);
	}
	EXPECT_EQ(format_counterexample(a), format_counterexample(b));
}

TEST(result_wire, a_sampled_failure_arrives_as_it_left)
{
	run_options o;
	o.seed = 1;
	o.cases = 2000;
	const property_result r = run_property(registry::global().get("simple"), property::per_call, o);
	ASSERT_EQ(r.v, verdict::fails) << "the control this test needs: simple fails per-call at 2000 cases";
	ASSERT_FALSE(r.ce.calls.empty());
	expect_same(r, result_from_wire(to_wire(r)));
}

TEST(result_wire, every_field_of_a_caller_breach_arrives)
{
	property_result r;
	r.strategy = "s";
	r.prop = property::well_formed;
	r.v = verdict::fails;
	r.cases = 3;
	r.calls = 1ull << 40;
	r.exercised = 7;
	r.distribution = {{"edge", 2}, {"straddle", 1}};
	r.ce.commands = {"fault #0-#15", "zap"};
	r.ce.calls = {{1, "get_and_clear_full_ptes(#0, nr=17)", "0x0 (none)", {"access #3"}, {{"|AAAA|", "|....|"}}}};
	r.ce.initial = "|AAAA|";
	r.ce.layout = "aligned";
	r.ce.v = {property::well_formed, 4, 3, "why \"quoted\"\n"};
	r.ce.breach = mm::caller_breach{"batch-past-folio",
					{call_kind::get_and_clear_full_ptes, 0, 17, true, 0xfffffffffffffffful, 3},
					{mm::caller_rule::one_folio, 16, "#16 maps another folio"}};
	r.ce.reproduce = "ptespec test --strategy s";
	expect_same(r, result_from_wire(to_wire(r)));
}

TEST(result_wire, text_it_did_not_write_is_an_internal_error)
{
	EXPECT_THROW(result_from_wire("{\"strategy\": 1}"), internal_error);
	EXPECT_THROW(result_from_wire("not json"), internal_error);
}

} // namespace
} // namespace ptespec
