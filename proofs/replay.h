// A refuted obligation's model, replayed as a concrete history on the
// concrete machine (model/machine.h) with the same strategy and the
// reference checker (model/checker.h).  The proof and the checker are two
// independent judges: the replay must show the same property violated.
#pragma once

#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "model/history.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

struct replay_outcome {
	bool confirmed = false;
	std::string why;	// for a mismatch: what the checker said instead
	std::string text;	// the counterexample as rulers, calls and events
};

replay_outcome replay_counterexample(strategy& s, const counterexample& ce);

// A confirmed counterexample with what it does not need taken out: the
// calls after the one the violation needs, the hardware events, then the
// young and dirty flags of the initial table,
// each dropped when the replay still shows the same violation (chunks
// first, then one at a time).  The model's choice of everything the claim
// does not constrain is arbitrary; this shows what the failure needs.
counterexample shrink_counterexample(strategy& s, counterexample ce);

// The writer of a race (ce.calls[0]) run alone with ce's events: its table
// at its begin, after each of its primitives and at its end -- what
// concurrent_read's snapshots are, and the reads of the replay see.
std::vector<table_t> writer_tables(strategy& s, const counterexample& ce);

} // namespace ptespec::proofs
