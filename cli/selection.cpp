#include "cli/selection.h"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/flags.h"
#include "model/errors.h"

namespace ptespec::cli {

void selection::define(CLI::App& sub)
{
	// Names are looked up in resolve(): plugins load after parsing.
	add_repeatable(sub, "--strategy", [this](const std::string& n) { names.push_back(n); },
		       "a strategy to judge (repeatable; see 'ptespec list')", "NAME");
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
	for (const std::string& n : names) {
		strategy* s = &parse_strategy("--strategy", n);
		// Twice would judge it twice, in two rows that say the same.
		if (std::find(out.begin(), out.end(), s) != out.end())
			throw usage_error(fmt::format("--strategy '{}' given twice; expected each strategy once", n));
		out.push_back(s);
	}
	return out;
}

} // namespace ptespec::cli
