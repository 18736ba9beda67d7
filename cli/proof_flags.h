// --granule, --timeout-ms, --jobs and --obligation, shared by the commands
// that prove (prove, check).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "proofs/prover.h"

namespace CLI {
class App;
}

namespace ptespec::cli {

struct proof_flags {
	// What a value may be: a formula's limit over a day is no limit.
	static constexpr std::uint64_t max_timeout_ms = 86'400'000;
	// A budget of a day, or a million paths per call, is no budget.
	static constexpr std::uint64_t max_run_seconds = 86'400;
	static constexpr std::uint64_t max_paths = 1'000'000;
	static constexpr std::uint64_t max_probes = 10'000;

	std::vector<std::string> granules{"4k"};
	bool given_granule = false;
	unsigned timeout_ms = 60000;
	unsigned jobs = 0;	// 0: one per core
	// --run-seconds, --max-paths: the prover's budgets (0: its defaults).
	std::uint64_t run_seconds = 0;
	std::uint64_t paths = 0;
	// --probes: probe paths per case (unset: each obligation's own).
	std::optional<std::uint64_t> probes;
	// --obligation: name prefixes (empty: every default obligation; the
	// opt-in step/ ones only when named).
	std::vector<std::string> obligations;

	void define(CLI::App& sub);
	// The chosen granules; throws usage_error for a bad one.
	std::vector<granule> grans() const;
	// The prover's options these flags set; throws usage_error for a bad
	// value or a prefix no obligation of the chosen granules has.
	proofs::prove_options options() const;
};

} // namespace ptespec::cli
