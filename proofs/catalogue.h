// What `ptespec prove` and `ptespec check` run: the helper algebra once per
// granule, then every obligation for every chosen strategy.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "proofs/obligations.h"

namespace ptespec::proofs {

// "4k", "16k", "64k" or "all"; throws usage_error otherwise.
std::vector<granule> granules_of(const std::vector<std::string>& names);

// Each obligation (and each granule's helper algebra) in a process of its
// own, o.jobs at once (proofs/isolate.h); results in catalogue order.
// `done` (may be empty) hears each result in that order as soon as it and
// those before it are known.
std::vector<proof_result> prove_all(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
				    const prove_options& o,
				    const std::function<void(const proof_result&)>& done = {});

// The checker property an obligation speaks for (batch-or covers isolation
// too, see obligations.cpp); empty for the helper algebra.
std::vector<property> covered_properties(const proof_result& r);

// The proofs' word on one (strategy, granule, property): "refuted" when an
// obligation's counterexample violates that property, "unknown" when one
// covering it was not decided (a timeout, the path budget, or a refutation
// of another of its properties: the proof stops at the first), "proved"
// when every covering obligation was proved, "" when none covers it.
std::string proof_word(const std::vector<proof_result>& rs, const std::string& strategy, granule g, property p);

} // namespace ptespec::proofs
