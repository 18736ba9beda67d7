// The host's side of a read-modify-write loop the symbolic build marked
// (kernel/rmw_loop.h), on one path: the loop runs as two iterations, the
// first's cmpxchg a read of the entry at the linearisation point, the
// second's the store of the update computed from that value.  What it
// checks at run time, else the path ends undecided (symbolic_limit) or --
// before anything was summarised -- the loop runs as C runs it:
//   * no primitive in the body but its cmpxchg;
//   * the second cmpxchg on the first's entry, its expected value the
//     entry's value now (what the first returned), with no primitive
//     between them;
//   * the loop's test then false.
#pragma once

#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec::kernel {

class rmw_run {
public:
	// How to run a cmpxchg.
	enum class cmpxchg_as { plain, read_at_linearisation, commit };

	// The top of an iteration, after `primitives` primitives of the call.
	void begin(std::size_t primitives)
	{
		if (at_ == state::idle || at_ == state::again)
			at_ = at_ == state::idle ? state::first : state::second;
		else if (at_ != state::off)
			refuse("an iteration began inside another");
		mark_ = primitives;
	}
	// A primitive that is not a cmpxchg.
	void other_primitive()
	{
		if (at_ == state::first)
			at_ = state::off;	// nothing summarised yet: C's own run
		else if (at_ == state::second || at_ == state::committed || at_ == state::read)
			refuse("its body made a primitive on the second iteration");
	}
	// A cmpxchg on `entry`, `expected_is_entry`: its expected value is the
	// entry's value now.
	cmpxchg_as cmpxchg(std::size_t entry, std::size_t primitives, bool expected_is_entry)
	{
		switch (at_) {
		case state::first:
			if (primitives != mark_)
				return cmpxchg_as::plain;
			at_ = state::read;
			entry_ = entry;
			return cmpxchg_as::read_at_linearisation;
		case state::second:
			if (entry != entry_ || primitives != mark_ || !expected_is_entry)
				refuse("the second iteration's cmpxchg is not the update of the value the first read");
			at_ = state::committed;
			return cmpxchg_as::commit;
		case state::read:
		case state::again:
		case state::committed:
			refuse("two cmpxchg in one iteration");
		case state::idle:
		case state::off:
			break;
		}
		return cmpxchg_as::plain;
	}
	// The loop's test: true to go round again without deciding (after the
	// first iteration), false when it is to be decided as C decides --
	// `must_end`: and it must come out false (after the commit).
	bool forced_again()
	{
		if (at_ != state::read)
			return false;
		at_ = state::again;
		return true;
	}
	bool must_end() const { return at_ == state::committed; }
	// The loop's test was decided: `again` or not.
	void decided(bool again)
	{
		if (must_end() && again)
			refuse("its test did not end the loop after the update");
		if (!again)
			at_ = state::idle;
	}

private:
	enum class state { idle, first, read, again, second, committed, off };

	[[noreturn]] static void refuse(const std::string& why)
	{
		throw symbolic_limit(fmt::format("a read-modify-write loop run as one atomic update: {}", why));
	}

	state at_ = state::idle;
	std::size_t mark_ = 0;
	std::size_t entry_ = 0;
};

} // namespace ptespec::kernel
