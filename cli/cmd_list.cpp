// ptespec list: the strategies the registry holds, then the caller
// variants, as aligned text or JSON.

#include <algorithm>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/verdicts.h"
#include "impl/strategy.h"
#include "kernel/tree.h"
#include "mm/caller.h"

namespace ptespec::cli {

namespace {

// Per kernel tree: which function the calls reach came from the tree and
// which from ptespec (a shim, core-mm's generic definition, the machine).
void print_functions(const std::vector<strategy*>& all)
{
	bool any = false;
	for (const strategy* s : all) {
		const std::vector<kernel::function_origin> f = kernel::function_origins(*s);
		if (f.empty())
			continue;
		any = true;
		fmt::print("\n{}: where each function comes from\n", s->info().name);
		std::size_t width = 0;
		for (const kernel::function_origin& o : f)
			width = std::max(width, o.name.size());
		for (const kernel::function_origin& o : f)
			fmt::print("  {:<{}}  {}\n", o.name, width, o.origin);
	}
	if (!any)
		fmt::print("\n--functions: no kernel tree loaded (give --kernel DIR before the command)\n");
}

// The caller variants --caller takes, after the strategies.
void print_callers()
{
	const auto callers = mm::caller_registry::global().all();
	std::size_t width = 0;
	for (const mm::caller* c : callers)
		width = std::max(width, c->info().name.size());
	fmt::print("\ncallers (--caller; every call they make is held to the caller rules):\n");
	for (const mm::caller* c : callers) {
		const mm::caller_info& i = c->info();
		const std::string from = i.origin == "builtin" ? "" : fmt::format("  [{}]", i.origin);
		fmt::print("  {:<{}}  {}{}\n", i.name, width, i.description, from);
	}
}

int list_text(bool functions)
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
	print_callers();
	if (functions)
		print_functions(all);
	return exit_ok;
}

int list_json()
{
	nlohmann::json list = nlohmann::json::array();
	for (const strategy* s : registry::global().all()) {
		const strategy_info& i = s->info();
		nlohmann::json entry = {{"name", i.name}, {"description", i.description}, {"origin", i.origin}};
		const std::vector<kernel::function_origin> f = kernel::function_origins(*s);
		if (!f.empty()) {
			nlohmann::json fs = nlohmann::json::array();
			for (const kernel::function_origin& o : f)
				fs.push_back({{"name", o.name}, {"origin", o.origin}});
			entry["functions"] = fs;
		}
		list.push_back(entry);
	}
	nlohmann::json callers = nlohmann::json::array();
	for (const mm::caller* c : mm::caller_registry::global().all())
		callers.push_back(
			{{"name", c->info().name}, {"description", c->info().description}, {"origin", c->info().origin}});
	fmt::print("{}\n", nlohmann::json{{"schema", json_schema}, {"command", "list"}, {"strategies", list},
					  {"callers", callers}}
				   .dump(2));
	return exit_ok;
}

} // namespace

action define_list(CLI::App& sub)
{
	auto json = std::make_shared<bool>(false);
	auto functions = std::make_shared<bool>(false);
	sub.add_flag("--json", *json,
		     "print the list as JSON (docs/json.md: schema, command, strategies with name, description, origin, "
		     "and a kernel tree's functions)");
	sub.add_flag("--functions", *functions,
		     "for each kernel tree (--kernel), whether each function the calls reach came from the tree or "
		     "from ptespec");
	return [json, functions] { return *json ? list_json() : list_text(*functions); };
}

} // namespace ptespec::cli
