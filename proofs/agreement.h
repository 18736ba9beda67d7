// A failure the checker found in a sampled history, told against the
// proofs' claims for the same call and table: a verdict of the proofs
// never contradicts a failure the checker found.
#pragma once

#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "model/history.h"
#include "model/property.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

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

} // namespace ptespec::proofs
