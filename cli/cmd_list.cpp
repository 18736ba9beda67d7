// ptespec list: the strategies the registry holds, as aligned text or JSON.

#include <algorithm>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/verdicts.h"
#include "impl/strategy.h"

namespace ptespec::cli {

namespace {

int list_text()
{
	const auto all = registry::global().all();
	if (all.empty()) {
		fmt::print("no strategies registered\n");
		return exit_ok;
	}
	std::size_t width = 0;
	for (const strategy* s : all)
		width = std::max(width, s->info().name.size());
	for (const strategy* s : all) {
		const strategy_info& i = s->info();
		// Only a strategy from elsewhere says where it came from: the
		// built-in ones are the common case.
		const std::string from = i.origin == "builtin" ? "" : fmt::format("  [{}]", i.origin);
		fmt::print("{:<{}}  {}{}\n", i.name, width, i.description, from);
	}
	return exit_ok;
}

int list_json()
{
	nlohmann::json list = nlohmann::json::array();
	for (const strategy* s : registry::global().all()) {
		const strategy_info& i = s->info();
		list.push_back({{"name", i.name}, {"description", i.description}, {"origin", i.origin}});
	}
	fmt::print("{}\n", nlohmann::json{{"schema", json_schema}, {"command", "list"}, {"strategies", list}}.dump(2));
	return exit_ok;
}

} // namespace

action define_list(CLI::App& sub)
{
	auto json = std::make_shared<bool>(false);
	sub.add_flag("--json", *json, "print {\"strategies\":[{\"name\",\"description\",\"origin\"}...]}");
	return [json] { return *json ? list_json() : list_text(); };
}

} // namespace ptespec::cli
