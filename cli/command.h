// The subcommands' common shape: each cmd_*.cpp declares its options on a
// CLI11 subcommand and hands back the action to run once parsing succeeded
// and the plugins are loaded.  main.cpp lists them in one table.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace ptespec::cli {

// The exit codes of STYLE habit 8; only main() returns them to the shell,
// an action returns exit_ok or exit_failed and throws for the rest.
enum exit_code : int {
	exit_ok = 0,	// every property held, every proof went through
	exit_failed = 1,	// a property failed or a proof was refuted
	exit_usage = 2,	// bad usage or bad input (ptespec::usage_error)
	exit_internal = 3,	// a bug in ptespec (ptespec::internal_error and the rest)
};

using action = std::function<int()>;

struct command {
	const char* name;
	const char* summary;
	action (*define)(CLI::App& sub);
};

action define_list(CLI::App& sub);
action define_demo(CLI::App& sub);
action define_test(CLI::App& sub);
action define_prove(CLI::App& sub);
action define_check(CLI::App& sub);
action define_explore(CLI::App& sub);
action define_cost(CLI::App& sub);
action define_report(CLI::App& sub);

} // namespace ptespec::cli
