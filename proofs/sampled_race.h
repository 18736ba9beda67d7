// A lockless read that the checker found failing in a sampled history,
// told as the race the lockless/ obligations prove (concurrent_read): the
// table the two calls began from, the locked call that ran beside the read
// (its writer), the hardware events placed in the writer's slots, and
// points of the writer's run at which every read of the sample's reader
// sees what it saw.  So the sample becomes a counterexample the proofs'
// own replay can run; one it confirms is a failure the proofs must find.
#pragma once

#include <cstddef>
#include <string>
#include <variant>

#include "impl/strategy.h"
#include "model/history.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// The failing read, its writer and their counterexample (calls[0] the
// writer, calls[1] the read, `race` the points), confirmed by the replay.
struct sampled_race {
	counterexample ce;
	std::size_t reads = 0;	// primitives of the read
	std::size_t writer_primitives = 0;
};

// The first ptep_get_lockless of h whose end the checker finds breaking
// lockless, as a race whose split falls among the read's first
// `split_within` reads; or, when h is not one, why (one line):
//   - no read of h ends breaking lockless, or none had a locked call
//     beside it (a call begun inside the read's window);
//   - a hardware event fired in the read's window before its writer began
//     (the read then began from another table than its writer);
//   - the writer faulted or never returned;
//   - the reads fit no two moments of the writer's run: with each event
//     moved to the writer's slot for it (before the writer's next
//     primitive on the entry it landed in, or at the writer's end, where
//     the proofs' hardware puts it), no split, early and late point give
//     every read the value it read;
//   - so placed, the replay does not show the read breaking lockless.
std::variant<sampled_race, std::string> race_of(strategy& s, const history& h, std::size_t split_within);

} // namespace ptespec::proofs
