// Ground evaluation: the concrete values a model gives symbolic words and
// booleans, which is what a counterexample prints and replays.
#pragma once

#include <cstdint>
#include <vector>

#include <z3++.h>

namespace ptespec::proofs {

// The concrete value of a ground word or boolean (after a model's eval).
// Throws internal_error when the term is not a numeral.
std::uint64_t ground_value(const z3::expr& w);
bool ground_truth(const z3::expr& b);

// The truth of each of `bs` under `m`, evaluated a few thousand at a time
// as the bits of one word: Z3 shares the work on common subterms within one
// evaluation only, and the many conditions of a counterexample share most
// of theirs.
std::vector<bool> ground_truths(const z3::model& m, const std::vector<z3::expr>& bs);

} // namespace ptespec::proofs
