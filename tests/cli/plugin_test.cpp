// --plugin: loading a strategy from a module, and every way that can fail.
// The modules are built by tests/cli/CMakeLists.txt from plugins/.

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

TEST(cli_plugin, loaded_strategy_is_listed_with_its_path_as_origin)
{
	const outcome o = run_ptespec({"--plugin", PLAIN_PLUGIN, "list", "--json"});
	ASSERT_EQ(o.status, 0) << o.show();
	bool found = false;
	const nlohmann::json j = nlohmann::json::parse(o.out);
	for (const auto& s : j["strategies"])
		if (s["name"].get<std::string>() == "test-plain") {
			found = true;
			EXPECT_EQ(s["origin"].get<std::string>(), PLAIN_PLUGIN);
			EXPECT_EQ(s["description"].get<std::string>(), "a test plugin: plain primitives, never folds");
		}
	EXPECT_TRUE(found) << o.out;

	const outcome t = run_ptespec({"--plugin", PLAIN_PLUGIN, "list"});
	EXPECT_NE(t.out.find("test-plain"), std::string::npos) << t.show();
	EXPECT_NE(t.out.find(std::string("[") + PLAIN_PLUGIN + "]"), std::string::npos) << t.show();
}

TEST(cli_plugin, two_plugins_load_side_by_side)
{
	const outcome o = run_ptespec({"--plugin", PLAIN_PLUGIN, "--plugin", BROKEN_PLUGIN, "list"});
	ASSERT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("test-plain"), std::string::npos);
	EXPECT_NE(o.out.find("test-broken-batch"), std::string::npos);
}

TEST(cli_plugin, missing_file_cannot_load)
{
	expect_one_line_usage_error(run_ptespec({"--plugin", "/nonexistent/nope.so", "list"}),
				    "--plugin '/nonexistent/nope.so': cannot load: ");
}

TEST(cli_plugin, relative_name_is_a_file_not_a_library_search)
{
	// Without "./" dlopen would search the library path and could load
	// a system libc.so.6 instead of complaining about the file.
	expect_one_line_usage_error(run_ptespec({"--plugin", "libc.so.6", "list"}), "--plugin 'libc.so.6': cannot load: ");
}

TEST(cli_plugin, file_that_is_not_a_module_cannot_load)
{
	const std::string path = ::testing::TempDir() + "ptespec-not-elf.so";
	std::ofstream(path) << "not an ELF file\n";
	expect_one_line_usage_error(run_ptespec({"--plugin", path, "list"}), "cannot load: ");
	std::remove(path.c_str());
}

TEST(cli_plugin, module_without_entry_point_is_not_a_plugin)
{
	expect_one_line_usage_error(run_ptespec({"--plugin", NOT_A_PLUGIN, "list"}),
				    std::string("--plugin '") + NOT_A_PLUGIN + "': not a ptespec plugin");
}

TEST(cli_plugin, abi_mismatch_names_both_versions)
{
	expect_one_line_usage_error(run_ptespec({"--plugin", BAD_ABI_PLUGIN, "list"}),
				    std::string("--plugin '") + BAD_ABI_PLUGIN +
					    "': built against plugin ABI 11, this ptespec speaks 10");
}

TEST(cli_plugin, duplicate_name_is_refused)
{
	expect_one_line_usage_error(run_ptespec({"--plugin", PLAIN_PLUGIN, "--plugin", PLAIN_PLUGIN, "list"}),
				    "strategy 'test-plain' is already registered");
}

TEST(cli_plugin, plugin_error_wins_over_the_command)
{
	// The command must not run (and print) before its plugins loaded.
	const outcome o = run_ptespec({"--plugin", "/nonexistent/nope.so", "demo", "--seed", "1"});
	expect_one_line_usage_error(o, "cannot load");
}

} // namespace
} // namespace ptespec::cli_test
