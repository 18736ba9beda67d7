#include "cli/selection.h"

#include <CLI/CLI.hpp>

#include "model/errors.h"

namespace ptespec::cli {

void selection::define(CLI::App& sub)
{
	sub.add_option("--strategy", names, "a strategy to judge (repeatable; see 'ptespec list')")
		->type_name("NAME");
	sub.add_flag("--all", all, "judge every registered strategy");
}

std::vector<strategy*> selection::resolve() const
{
	if (all && !names.empty())
		throw usage_error("--all and --strategy: expected one or the other");
	if (all)
		return registry::global().all();
	if (names.empty())
		throw usage_error("no strategy chosen: expected --strategy NAME or --all");
	std::vector<strategy*> out;
	for (const std::string& n : names)
		out.push_back(&registry::global().get(n));
	return out;
}

} // namespace ptespec::cli
