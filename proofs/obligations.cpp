#include "proofs/obligations.h"

#include <utility>

#include "proofs/replay.h"

namespace ptespec::proofs {

void replay_result(strategy& s, proof_result& r)
{
	if (r.verdict != proof_verdict::refuted || !r.ce)
		return;
	const replay_outcome first = replay_counterexample(s, *r.ce);
	if (!first.confirmed) {
		r.replay = "MISMATCH: " + first.why;
		r.ce_text = first.text;
		return;
	}
	// Shown shrunk; the shrunk one is replayed again, so what is printed is
	// what was confirmed.
	r.ce = shrink_counterexample(s, *r.ce);
	const replay_outcome out = replay_counterexample(s, *r.ce);
	r.replay = out.confirmed ? "confirmed" : "MISMATCH: " + out.why;
	r.ce_text = out.text;
}

std::vector<proof_result> run_obligation(strategy& s, const obligation& ob)
{
	// Timed here, so the seconds cover the whole obligation (each result of
	// a shared run reports the run's).
	stopwatch clock;
	std::vector<proof_result> rs = ob.prove();
	const double seconds = clock.seconds();
	for (proof_result& r : rs) {
		r.seconds = seconds;
		replay_result(s, r);
	}
	return rs;
}

std::vector<proof_result> prove_strategy(strategy& s, granule g, const prove_options& o,
					 const std::function<void(const proof_result&)>& done)
{
	std::vector<proof_result> out;
	for (const obligation& ob : obligations_of(s, g, o))
		for (proof_result& r : run_obligation(s, ob)) {
			out.push_back(std::move(r));
			if (done)
				done(out.back());
		}
	return out;
}

} // namespace ptespec::proofs
