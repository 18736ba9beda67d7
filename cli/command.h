// The subcommands' common shape: each cmd_*.cpp declares its options on a
// CLI11 subcommand and hands back the action to run once parsing succeeded
// and the plugins are loaded.  main.cpp lists them in one table.
#pragma once

#include <cstddef>
#include <functional>

namespace CLI {
class App;
}

namespace ptespec::cli {

// The exit codes of STYLE habit 8; only main() returns them to the shell,
// an action returns exit_ok, exit_failed or exit_undecided and throws for
// the rest.  Undecided is neither a pass nor a failure: nothing failed, but
// something was not decided (a proof `unknown`, a search stopped early, a
// property the strategy never exercised).
enum exit_code : int {
	exit_ok = 0,	// everything checked held, every proof went through
	exit_failed = 1,	// a property failed, a proof was refuted, a violation was found
	exit_usage = 2,	// bad usage or bad input (ptespec::usage_error)
	exit_internal = 3,	// a bug in ptespec (ptespec::internal_error and the rest)
	exit_undecided = 4,	// nothing failed, something is undecided
};

// The exit code of a run that found `failed` failures and `undecided`
// undecided results: a failure outweighs anything undecided.
inline int exit_for(std::size_t failed, std::size_t undecided)
{
	return failed ? exit_failed : undecided ? exit_undecided : exit_ok;
}

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
