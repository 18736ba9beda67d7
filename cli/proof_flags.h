// --granule, --timeout-ms and --jobs, shared by the commands that prove
// (prove, check).
#pragma once

#include <string>
#include <vector>

#include "model/geometry.h"
#include "proofs/prover.h"

namespace CLI {
class App;
}

namespace ptespec::cli {

struct proof_flags {
	std::vector<std::string> granules{"4k"};
	unsigned timeout_ms = 60000;
	unsigned jobs = 0;

	void define(CLI::App& sub);
	// The chosen granules; throws usage_error for a bad one.
	std::vector<granule> grans() const;
	// The prover's options these flags set; throws usage_error for a bad
	// value.
	proofs::prove_options options() const;
};

} // namespace ptespec::cli
