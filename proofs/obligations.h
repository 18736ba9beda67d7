// The proof obligations: the families, a file each under families/ whose
// comment states its conjecture; their names, the strategies they apply to
// and what they cover are their entries in the obligation table
// (proofs/obligation_table.h, table.cpp); a sampled failure told against
// them (agreement.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "model/history.h"
#include "model/property.h"
#include "proofs/agreement.h"
#include "proofs/obligation_table.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// The helper algebra of tests/model/pte_test.cpp, for all 2^64 words.
std::vector<proof_result> prove_helpers(granule g, const prove_options& o);
std::vector<std::string> helper_names();

// Proves one, timed as a whole, each refutation replayed on the concrete
// machine.
std::vector<proof_result> run_obligation(strategy& s, const obligation& ob);

// Every obligation for one strategy at one granule (helpers excluded), each
// refuted one replayed on the concrete machine, in this process.
// `done` hears each result as soon as it is known.
std::vector<proof_result> prove_strategy(strategy& s, granule g, const prove_options& o,
					 const std::function<void(const proof_result&)>& done = {});

// Fills r.replay and r.ce_text from r.ce (no-op when not refuted).
void replay_result(strategy& s, proof_result& r);

} // namespace ptespec::proofs
