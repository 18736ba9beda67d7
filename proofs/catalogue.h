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

// `done` (may be empty) hears each result as soon as it is known.
std::vector<proof_result> prove_all(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
				    const prove_options& o,
				    const std::function<void(const proof_result&)>& done = {});

// The checker property an obligation speaks for (batch-or covers isolation
// too, see obligations.cpp); empty for the helper algebra.
std::vector<property> covered_properties(const proof_result& r);

} // namespace ptespec::proofs
