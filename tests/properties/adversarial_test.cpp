// --adversarial relaxes only the core-mm rules the arch code must not rely
// on (properties/commands.h, adversarial_rules).  The merged design holds
// under them; a strategy that trusts `full` to mean a whole-mm teardown (the
// thread's v2 shortcut) is caught misprogramming a run only by them.
//
// Run: ctest -R adversarial
#include <gtest/gtest.h>

#include "impl/strategy.h"
#include "properties/runner.h"

namespace ptespec {
namespace {

run_options adversarial(std::uint64_t seed)
{
	run_options o;
	o.seed = seed;
	o.cases = 600;
	o.adversarial = true;
	return o;
}

TEST(adversarial, mainline_unfold_and_nocont_hold_every_property)
{
	for (const char* name : {"mainline", "unfold", "nocont"})
		for (property p : all_properties)
			for (std::uint64_t seed : {1}) {
				const property_result r = run_property(registry::global().get(name), p, adversarial(seed));
				EXPECT_EQ(r.v, verdict::holds) << name << " " << to_string(p) << "\n"
							       << format_counterexample(r);
			}
}

TEST(adversarial, trusting_full_is_caught_only_by_adversarial_callers)
{
	strategy& s = registry::global().get("simple");
	run_options kind = adversarial(1);
	kind.adversarial = false;
	EXPECT_EQ(run_property(s, property::well_formed, kind).v, verdict::holds);
	const property_result r = run_property(s, property::well_formed, adversarial(1));
	ASSERT_EQ(r.v, verdict::fails);
	EXPECT_NE(format_counterexample(r).find("full=1"), std::string::npos) << format_counterexample(r);
}

} // namespace
} // namespace ptespec
