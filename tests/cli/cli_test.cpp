// The program's face: help, version, exit codes, one-line errors, list.
// Every test runs the built ptespec binary.

#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

TEST(cli_usage, help_lists_the_commands_and_exits_0)
{
	const outcome o = run_ptespec({"--help"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.err, "");
	for (const char* word : {"list", "demo", "--plugin", "--version", "Exit status"})
		EXPECT_NE(o.out.find(word), std::string::npos) << word << " missing from\n" << o.out;
}

TEST(cli_usage, help_of_a_command_shows_its_options)
{
	const outcome o = run_ptespec({"demo", "--help"});
	EXPECT_EQ(o.status, 0) << o.show();
	for (const char* word : {"--granule", "--seed", "--strategy", "--per-entry"})
		EXPECT_NE(o.out.find(word), std::string::npos) << word << " missing from\n" << o.out;
}

TEST(cli_usage, version_prints_the_project_version)
{
	const outcome o = run_ptespec({"--version"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_EQ(o.out, "ptespec " PTESPEC_VERSION "\n");
}

TEST(cli_usage, unknown_command_is_one_line_naming_it_and_the_choices)
{
	const outcome o = run_ptespec({"frob"});
	expect_one_line_usage_error(o, "unknown command 'frob'; expected one of: list, demo");
}

TEST(cli_usage, no_command_is_one_line)
{
	expect_one_line_usage_error(run_ptespec({}), "no command given; expected one of: list, demo");
}

TEST(cli_usage, unknown_global_flag_is_one_line)
{
	expect_one_line_usage_error(run_ptespec({"--frob", "list"}), "unknown option '--frob'");
}

TEST(cli_usage, unknown_command_flag_is_one_line_naming_the_command)
{
	expect_one_line_usage_error(run_ptespec({"list", "--frob"}), "list: unknown option '--frob'");
	expect_one_line_usage_error(run_ptespec({"demo", "--frob"}), "demo: unknown option '--frob'");
}

TEST(cli_usage, stray_argument_and_second_command_are_refused)
{
	expect_one_line_usage_error(run_ptespec({"demo", "extra"}), "demo: unexpected argument 'extra'");
	expect_one_line_usage_error(run_ptespec({"list", "demo"}), "list: unexpected argument 'demo'");
}

TEST(cli_usage, plugin_after_the_command_says_where_it_goes)
{
	expect_one_line_usage_error(run_ptespec({"list", "--plugin", "x.so"}),
				    "list: --plugin goes before the command: ptespec --plugin FILE list");
}

TEST(cli_usage, option_without_its_value_is_one_line)
{
	expect_one_line_usage_error(run_ptespec({"demo", "--granule"}), "--granule");
	expect_one_line_usage_error(run_ptespec({"--plugin"}), "--plugin");
}

TEST(cli_usage, bad_granule_names_the_value_and_the_choices)
{
	expect_one_line_usage_error(run_ptespec({"demo", "--granule", "5k"}),
				    "ptespec: --granule '5k': expected 4k, 16k or 64k");
}

TEST(cli_usage, bad_seed_names_the_value)
{
	expect_one_line_usage_error(run_ptespec({"demo", "--seed", "12abc"}), "--seed '12abc': expected");
	expect_one_line_usage_error(run_ptespec({"demo", "--seed", "-1"}), "--seed '-1': expected");
	expect_one_line_usage_error(run_ptespec({"demo", "--seed", "18446744073709551616"}),
				    "--seed '18446744073709551616': expected");
}

TEST(cli_usage, unknown_strategy_names_it_and_lists_the_known_ones)
{
	const outcome o = run_ptespec({"demo", "--strategy", "nope"});
	expect_one_line_usage_error(o, "--strategy 'nope': unknown; expected one of: ");
	const outcome l = run_ptespec({"list", "--json"});
	const nlohmann::json j = nlohmann::json::parse(l.out);
	for (const auto& s : j["strategies"])
		EXPECT_NE(o.err.find(s["name"].get<std::string>()), std::string::npos) << o.err;
}

TEST(cli_list, json_has_exactly_the_documented_shape)
{
	const outcome o = run_ptespec({"list", "--json"});
	ASSERT_EQ(o.status, 0) << o.show();
	const nlohmann::json j = nlohmann::json::parse(o.out);
	ASSERT_TRUE(j.is_object());
	// docs/json.md: schema and command, as every document, then the list.
	EXPECT_EQ(j.size(), 4u) << "only \"schema\", \"command\", \"strategies\" and \"callers\" at the top";
	EXPECT_EQ(j["schema"], 1);
	EXPECT_EQ(j["command"], "list");
	ASSERT_TRUE(j.contains("strategies"));
	ASSERT_TRUE(j["strategies"].is_array());
	std::set<std::string> names;
	for (const auto& s : j["strategies"]) {
		ASSERT_TRUE(s.is_object());
		ASSERT_TRUE(s.contains("name") && s["name"].is_string()) << s.dump();
		ASSERT_TRUE(s.contains("description") && s["description"].is_string()) << s.dump();
		EXPECT_FALSE(s["name"].get<std::string>().empty());
		EXPECT_FALSE(s["description"].get<std::string>().empty());
		EXPECT_TRUE(names.insert(s["name"].get<std::string>()).second) << "duplicate " << s["name"];
	}
}

TEST(cli_list, text_and_json_agree_and_descriptions_line_up)
{
	const outcome t = run_ptespec({"list"});
	const outcome j = run_ptespec({"list", "--json"});
	ASSERT_EQ(t.status, 0) << t.show();
	const auto strategies = nlohmann::json::parse(j.out)["strategies"];
	const auto callers = nlohmann::json::parse(j.out)["callers"];
	auto lines = lines_of(t.out);
	// The strategies, a blank line, the callers' heading, one line each.
	ASSERT_EQ(lines.size(), strategies.size() + 2 + callers.size()) << t.out;
	for (std::size_t k = 0; k < callers.size(); k++)
		EXPECT_TRUE(lines[strategies.size() + 2 + k].starts_with("  " + callers[k]["name"].get<std::string>() + " "))
			<< t.out;
	EXPECT_EQ(callers[0]["name"], "core-mm");
	lines.resize(strategies.size());
	std::size_t column = std::string::npos;
	for (std::size_t k = 0; k < lines.size(); k++) {
		const std::string name = strategies[k]["name"];
		const std::string desc = strategies[k]["description"];
		EXPECT_TRUE(lines[k].starts_with(name + " ")) << lines[k];
		const std::size_t at = lines[k].find(desc);
		ASSERT_NE(at, std::string::npos) << lines[k];
		if (column == std::string::npos)
			column = at;
		EXPECT_EQ(at, column) << "description column drifts at " << lines[k];
	}
}

} // namespace
} // namespace ptespec::cli_test
