// The proof obligations, each a function whose comment states its
// conjecture; their names, the strategies they apply to and what they
// cover are their entries in the obligation table (proofs/obligation_table.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "model/history.h"
#include "model/property.h"
#include "proofs/obligation_table.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// The helper algebra of tests/model/pte_test.cpp, for all 2^64 words.
std::vector<proof_result> prove_helpers(granule g, const prove_options& o);
std::vector<std::string> helper_names();

// The prove functions of the table's families: each makes its cases and
// fills run.results (one result per family of the run).
void prove_batch_or(obligation_run& run, bool full);
// per-call/one-call and no-loss/one-call, alone or together: one run of the
// shared cases, a goal per family (each covers one property, the one its
// claims are about).
void prove_one_call(obligation_run& run);
void prove_exit(obligation_run& run, bool batched);
// step/<call>-cont<N>: one call of kind k from every invariant table.
void prove_step(obligation_run& run, call_kind k);
// lockless/<writer>-cont<N>: a lockless read beside one call of the
// writer's kind, from every invariant table.
void prove_lockless(obligation_run& run, call_kind writer);
// seq/<start>-k<K>/<property>-cont<N>: every sequence of k calls of every kind, from
// the empty table or from every invariant table, the ledger followed.
void prove_seq(obligation_run& run, std::size_t k, bool from_empty);
// hint/cont<N>: the strategy's pte_batch_hint from every invariant table
// (proofs/hint.cpp).
void prove_hint(obligation_run& run);

// A sampled failure told against the one-call claims (item of the rule: a
// verdict of the proofs never contradicts a failure the checker found).
// The failing call of history h -- the first whose end shows p violated,
// or for well-formed the call whose store broke it, or for precise, when
// the read began from a table where some page showed a flag it may not
// report, the first call that left a page so (judged by (reportable)),
// replayed through the checker -- is run on the symbolic machine from the
// very table it began from, with the values it passed and any hardware
// events, and p's claims for it are asked (call_claims, the ledger read
// off the table).  Where that table satisfies the invariant of reachable
// tables and every flag the checker held pending there is visible (and,
// for well-formed, the checker's TLB held what that table maps) -- the
// claims are then at least as strong as the checker's judgement of p --
// the proof must refute it.  A lockless failure is told as lockless/'s
// race instead (race_of, proofs/sampled_race.h: the failing read and the
// locked call beside it, the events in the writer's slots, the reads at two
// points of its run, the replay confirming) and lockless/'s claim is asked
// from the table the two began from, every read point free:
//   agrees     the proof refutes the call
//   undecided  the proof could not decide (`why`)
//   disagrees  the proof holds for it: prover and checker disagree, a
//              ptespec bug; `why` says both
//   outside    the claims do not speak for the case (`why` says which
//              condition fails): p is judged mid-call or on later calls
//              (isolation, permission), a lockless read is no such race,
//              the table is outside the invariant, a pending flag is not
//              visible, a page shows a flag it may not report, the TLB
//              holds a stale translation, or the hardware is not the one
//              the proofs ran on (or has no HAFDBS)
struct agreement {
	enum class verdict { agrees, disagrees, undecided, outside };
	verdict v = verdict::outside;
	std::string why;
};
agreement judge_agreement(strategy& s, const history& h, property p, const prove_options& o);
// A sampled failure of the strategy's pte_batch_hint (asked between calls,
// so no call of the history explains it) told against hint/'s claim: the
// hint run on the symbolic machine from the very table and value, its
// answer compared with the sampled one and the claim asked of it.  Outside
// where hint/ does not ask (an entry it skips at CONT_PTES above 16, a
// table outside the invariant, a value ptep_get may not return there).
agreement judge_hint_agreement(strategy& s, const geometry& geo, const std::vector<folio_extent>& folios,
				const batch_hint_seen& hint, const hardware_options& hw);

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
