// The one error model: library code throws these; only main() turns them
// into a message and an exit code (2 for usage/input, 3 for internal).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

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
// Or its own check fired (a kernel tree's WARN_ON, VM_WARN_ON, BUG_ON):
// `assertion` says where and what, and the call stops there, judged as
// well-formed -- the strategy itself declared the state or the call malformed.
struct strategy_fault : std::runtime_error {
	strategy_fault(bool flush_, std::size_t index_, std::size_t nr_, std::size_t size_)
		: std::runtime_error(flush_ ? "TLB flush past the table" : "entry outside the table"), flush(flush_),
		  index(index_), nr(nr_), table_size(size_)
	{
	}
	explicit strategy_fault(std::string assertion_)
		: std::runtime_error(assertion_), assertion(std::move(assertion_))
	{
	}
	bool flush = false;
	std::size_t index = 0, nr = 0, table_size = 0;
	std::string assertion;	// "arch/arm64/mm/contpte.c:465: VM_WARN_ON(nr == 1)"; empty for a range fault
};

// The symbolic run of a strategy cannot go on soundly on this path (a
// kernel tree's `a && b` of two truths, whose right side made a primitive
// after both sides were evaluated): the prover gives the case up --
// undecided, never a verdict about the strategy.
struct symbolic_limit : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// A broken invariant of ptespec itself (never of the strategy under test).
struct internal_error : std::logic_error {
	using std::logic_error::logic_error;
};

} // namespace ptespec
