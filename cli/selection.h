// --strategy NAME ... | --all, shared by the commands that judge strategies.
#pragma once

#include <string>
#include <vector>

#include "impl/strategy.h"

namespace CLI {
class App;
}

namespace ptespec::cli {

struct selection {
	std::vector<std::string> names;
	bool all = false;

	void define(CLI::App& sub);
	// The chosen strategies, in registry order for --all; throws
	// usage_error for an unknown name or for no choice at all.
	std::vector<strategy*> resolve() const;
};

} // namespace ptespec::cli
