// The proof obligations, each a function whose comment states its
// conjecture, and the catalogue `ptespec prove` runs.
//
// Names are stable: helpers/<law>, batch-or/cont<N>, batch-or-full0/cont<N>,
// per-call/one-call, no-loss/one-call, exit/run-cont<N>, exit/batch-cont<N>.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// The helper algebra of tests/model/pte_test.cpp, for all 2^64 words.
std::vector<proof_result> prove_helpers(granule g, const prove_options& o);
std::vector<std::string> helper_names();

// Every obligation name at granule g, helpers first (what --obligation
// prefixes are matched against).
std::vector<std::string> obligation_names(granule g);

proof_result prove_batch_or(strategy& s, granule g, bool full, const prove_options& o);
proof_result prove_one_call(strategy& s, granule g, property p, const prove_options& o);
// per-call/one-call and no-loss/one-call together: one run of the shared
// cases, a result per property in `props`, in that order.
std::vector<proof_result> prove_one_call(strategy& s, granule g, const std::vector<property>& props,
					 const prove_options& o);
proof_result prove_exit(strategy& s, granule g, bool batched, const prove_options& o);

// One obligation of one strategy at one granule, by name -- or several
// proved over one run of shared cases (per-call and no-loss one-call), a
// result per name.
struct obligation {
	std::vector<std::string> names;
	std::function<std::vector<proof_result>()> prove;
};

// The obligations that apply to s at g (helpers excluded), those o.only
// selects.
std::vector<obligation> obligations_of(strategy& s, granule g, const prove_options& o);

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
