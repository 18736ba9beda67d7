// --granule, --timeout-ms and --jobs, shared by the commands that prove
// (prove, check).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "proofs/prover.h"

namespace CLI {
class App;
}

namespace ptespec::cli {

struct proof_flags {
	// What a value may be: more jobs than this would not fit the memory
	// of one machine (each holds a Z3 context), a formula's limit over a
	// day is no limit.
	static constexpr std::uint64_t max_jobs = 64;
	static constexpr std::uint64_t max_timeout_ms = 86'400'000;

	std::vector<std::string> granules{"4k"};
	bool given_granule = false;
	unsigned timeout_ms = 60000;
	unsigned jobs = 0;	// 0: one per core

	void define(CLI::App& sub);
	// The chosen granules; throws usage_error for a bad one.
	std::vector<granule> grans() const;
	// The prover's options these flags set; throws usage_error for a bad
	// value.
	proofs::prove_options options() const;
};

} // namespace ptespec::cli
