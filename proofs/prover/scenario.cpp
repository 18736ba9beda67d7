#include "proofs/prover/scenario.h"

#include <utility>

namespace ptespec::proofs {

std::string_view to_string(proof_verdict v)
{
	switch (v) {
	case proof_verdict::proved: return "proved";
	case proof_verdict::refuted: return "refuted";
	case proof_verdict::unknown: return "unknown";
	}
	return "?";
}

namespace {

std::function<void(const proof_result&)>& progress_sink()
{
	static std::function<void(const proof_result&)> sink;
	return sink;
}

} // namespace

void set_proof_progress(std::function<void(const proof_result&)> sink) { progress_sink() = std::move(sink); }

void report_proof_progress(const proof_result& r)
{
	if (progress_sink())
		progress_sink()(r);
}

} // namespace ptespec::proofs
