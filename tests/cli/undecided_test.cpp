// What was not decided is said to be undecided, with exit 4: a property no
// call could break, a proof that ran out of time.  And a proof word never
// claims more than its obligations cover.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

// set_ptes that writes nothing: every later call finds an empty table, so
// no property but no-loss was ever at stake -- not a pass.  (no-loss fails:
// the flags a fault maps with vanish at once.)
TEST(cli_undecided, a_strategy_that_never_maps_is_not_exercised)
{
	const outcome o = run_ptespec({"--plugin", MAPS_NOTHING_PLUGIN, "test", "--strategy", "test-maps-nothing",
				       "--seed", "1", "--cases", "50"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("test-maps-nothing fails no-loss"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("batch-or: not exercised: 50 cases"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("0 passed, 1 failed, 7 undecided (2 n/a)"), std::string::npos) << o.out;
	EXPECT_EQ(o.out.find("holds "), std::string::npos) << o.out;
}

// Asked only about what it cannot be judged on, it is undecided: exit 4.
TEST(cli_undecided, only_unexercised_properties_exit_4)
{
	const outcome o = run_ptespec({"--plugin", MAPS_NOTHING_PLUGIN, "test", "--strategy", "test-maps-nothing",
				       "--property", "per-call", "--property", "isolation", "--seed", "1", "--cases", "50"});
	EXPECT_EQ(o.status, 4) << o.show();
	EXPECT_NE(o.out.find("0 passed, 0 failed, 2 undecided\n"), std::string::npos) << o.out;
}

// The same plugin with its set_ptes mapping (test-plain) is exercised and
// holds: the undecided verdict above comes from the empty table, not from
// the plugin being a plugin.
TEST(cli_undecided, the_same_plugin_that_maps_is_exercised_and_holds)
{
	const outcome o =
		run_ptespec({"--plugin", PLAIN_PLUGIN, "test", "--strategy", "test-plain", "--seed", "1", "--cases", "50"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.out.find("test-plain batch-or: not exercised"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("8 passed, 0 failed, 0 undecided (2 n/a)"), std::string::npos) << o.out;
}

TEST(cli_undecided, a_strategy_without_set_ptes_is_not_exercised)
{
	const outcome o = run_ptespec(
		{"--plugin", NO_MAP_PLUGIN, "test", "--strategy", "test-no-map", "--seed", "1", "--cases", "10", "--json"});
	EXPECT_EQ(o.status, 4) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	for (const auto& r : j.at("results"))
		EXPECT_EQ(r.at("verdict"), "not exercised") << r.dump();
	EXPECT_EQ(j.at("totals").at("undecided"), 10);
}

// A 1 ms budget decides nothing: every obligation is unknown, and unknown
// is neither a refutation (1) nor a proof (0).
TEST(cli_undecided, proofs_out_of_time_exit_4)
{
	const outcome o = run_ptespec(
		{"prove", "--strategy", "mainline", "--timeout-ms", "1", "--obligation", "exit/", "--json"});
	EXPECT_EQ(o.status, 4) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	EXPECT_EQ(j.at("schema"), 1);
	EXPECT_EQ(j.at("totals").at("failed"), 0);
	EXPECT_GE(j.at("totals").at("undecided"), 1);
	for (const auto& r : j.at("results"))
		EXPECT_NE(r.at("verdict"), "proved") << r.dump();
}

// Every result names what its obligation covers.
TEST(cli_undecided, a_proof_names_the_calls_and_tables_it_covers)
{
	const outcome o = run_ptespec({"prove", "--strategy", "mainline", "--obligation", "batch-or/", "--json"});
	EXPECT_EQ(o.status, 0) << o.show();
	const auto j = nlohmann::json::parse(o.out);
	ASSERT_GE(j.at("results").size(), 1u);
	for (const auto& r : j.at("results")) {
		EXPECT_EQ(r.at("covers").at("calls"), nlohmann::json::array({"get_and_clear_full_ptes"})) << r.dump();
		EXPECT_NE(r.at("covers").at("tables").get<std::string>().find("two folded runs"), std::string::npos);
	}
}

// The obligations run teardown calls from folded runs only, so check may
// say "partly" (and list what was covered) but never "proved", and a
// failing cell is never stamped proved.
TEST(cli_undecided, check_never_claims_proved_beyond_the_obligations)
{
	const outcome o = run_ptespec({"--plugin", BROKEN_PLUGIN, "check", "--strategy", "test-broken-batch",
				       "--strategy", "mainline", "--cases", "200"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_EQ(o.out.find("+proved"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("fails+refuted"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("holds+partly"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("legend:"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("partly proved: Z3 proved it for the calls and tables listed below"), std::string::npos);
	EXPECT_NE(o.out.find("not covered: "), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("cells: "), std::string::npos) << o.out;
}

// A failing cell of a proved strategy carries the proofs' re-judgement of
// its failing call (the broken batch: refuted there too); a strategy whose
// symbolic instantiation is not its concrete one makes the two disagree,
// which is ptespec's own bug: exit 3, both printed.
TEST(cli_undecided, a_sampled_failure_the_proofs_would_prove_is_a_ptespec_bug)
{
	const outcome broken = run_ptespec({"--plugin", BROKEN_PLUGIN, "check", "--strategy", "test-broken-batch",
					    "--cases", "200", "--json"});
	EXPECT_EQ(broken.status, 1) << broken.show();
	bool agreed = false;
	const auto j = nlohmann::json::parse(broken.out);
	for (const auto& c : j.at("results"))
		if (c.at("test").get<std::string>() == "fails" && c.contains("agreement"))
			agreed = agreed || c.at("agreement").get<std::string>().starts_with("agrees: ");
	EXPECT_TRUE(agreed) << broken.out;

	const outcome o = run_ptespec({"--plugin", DIFFERS_WHEN_SYMBOLIC_PLUGIN, "check", "--strategy",
				       "test-differs-when-symbolic", "--cases", "200"});
	EXPECT_EQ(o.status, 3) << o.show();
	EXPECT_NE(o.err.find("the proofs and the checker disagree on test-differs-when-symbolic batch-or"),
		  std::string::npos)
		<< o.show();
	EXPECT_NE(o.err.find("counterexample: test-differs-when-symbolic fails batch-or"), std::string::npos) << o.show();
}

// A budget too small for the paths of a call ends the obligation unknown
// (exit 4), never proved, and names the flag that raises it.
TEST(cli_undecided, a_path_budget_too_small_ends_unknown_and_names_the_flag)
{
	const outcome o =
		run_ptespec({"prove", "--strategy", "mainline", "--obligation", "per-call/one-call", "--max-paths", "1"});
	EXPECT_EQ(o.status, 4) << o.show();
	EXPECT_NE(o.out.find("per-call/one-call                            4k    unknown"), std::string::npos) << o.out;
	EXPECT_NE(o.out.find("needs more than 1 paths (--max-paths)"), std::string::npos) << o.out;
	const outcome enough = run_ptespec(
		{"prove", "--strategy", "mainline", "--obligation", "per-call/one-call", "--max-paths", "64", "--run-seconds", "600"});
	EXPECT_EQ(enough.status, 0) << enough.show();
}

// check runs the step/ obligations it is asked for: the cell's coverage
// then names them and the word stays "partly" (some places of a two-run
// table only), with the mprotect caller too: the PROT_NONE entries it makes
// are tables of the invariant, so nothing more is left out.  (The call is
// ptep_clear_flush_young: nocont's other young tests are mainline's, which
// widen from a PROT_NONE CONT entry and are refuted from such tables.)
TEST(cli_undecided, check_with_a_step_obligation_names_it_and_what_it_leaves_out)
{
	const std::vector<std::string> args = {"check", "--strategy", "nocont", "--obligation",
					       "step/ptep_clear_flush_young-", "--cases", "100", "--json"};
	for (bool mprotect : {false, true}) {
		std::vector<std::string> a = args;
		if (mprotect)
			a.push_back("--mprotect");
		const outcome o = run_ptespec(a);
		EXPECT_EQ(o.status, 0) << o.show();
		const auto j = nlohmann::json::parse(o.out);
		ASSERT_EQ(j.at("proofs").size(), 1u) << o.out;
		EXPECT_EQ(j.at("proofs").at(0).at("obligation"), "step/ptep_clear_flush_young-cont16");
		EXPECT_EQ(j.at("proofs").at(0).at("verdict"), "proved");
		// The obligation's scope: isolation, no-loss, per-call,
		// well-formed (every store judged against the TLB) and precise
		// (every flag a page shows, its folio may report).
		for (const auto& c : j.at("results")) {
			const std::string p = c.at("property").get<std::string>();
			if (p != "per-call" && p != "no-loss" && p != "isolation" && p != "well-formed" && p != "precise") {
				EXPECT_TRUE(c.at("proof").is_null()) << c.dump();
				continue;
			}
			EXPECT_EQ(c.at("proof"), "partly proved") << c.dump();
			const std::string covers = c.at("proof_covers").get<std::string>();
			EXPECT_NE(covers.find("proved for ptep_clear_flush_young by step/ptep_clear_flush_young-cont16"),
				  std::string::npos)
				<< covers;
			EXPECT_NE(covers.find("ptep_get_and_clear"), std::string::npos) << covers;
			EXPECT_EQ(covers.find("PROT_NONE"), std::string::npos) << covers;
		}
	}
}

} // namespace
} // namespace ptespec::cli_test
