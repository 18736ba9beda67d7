// The one error model: library code throws these; only main() turns them
// into a message and an exit code (2 for usage/input, 3 for internal).
#pragma once

#include <stdexcept>
#include <string>

namespace ptespec {

// Bad flag, bad value, bad file: the message names the input and what was
// expected, on one line.
struct usage_error : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// The strategy under test cannot make progress (a retry loop that no
// writer will ever let succeed).  A finding about the strategy, judged as a
// property failure, never an internal error.
struct strategy_livelock : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// A broken invariant of ptespec itself (never of the strategy under test).
struct internal_error : std::logic_error {
	using std::logic_error::logic_error;
};

} // namespace ptespec
