// The one error model: library code throws these; only main() turns them
// into a message and an exit code (2 for usage/input, 3 for internal).
#pragma once

#include <cstddef>
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

// The strategy under test touched an entry outside the table, or flushed
// the TLB past it: thrown by the machine before the primitive happens and
// turned into a verdict (isolation, well-formed) by whoever runs the call.
struct strategy_fault : std::runtime_error {
	strategy_fault(bool flush_, std::size_t index_, std::size_t nr_, std::size_t size_)
		: std::runtime_error(flush_ ? "TLB flush past the table" : "entry outside the table"), flush(flush_),
		  index(index_), nr(nr_), table_size(size_)
	{
	}
	bool flush;
	std::size_t index, nr, table_size;
};

// A broken invariant of ptespec itself (never of the strategy under test).
struct internal_error : std::logic_error {
	using std::logic_error::logic_error;
};

} // namespace ptespec
