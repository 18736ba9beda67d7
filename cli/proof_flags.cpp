#include "cli/proof_flags.h"

#include <CLI/CLI.hpp>

#include "cli/flags.h"
#include "model/errors.h"
#include "proofs/catalogue.h"

namespace ptespec::cli {

void proof_flags::define(CLI::App& sub)
{
	add_repeatable(
		sub, "--granule",
		[this](const std::string& g) {
			if (!given_granule)
				granules.clear();
			given_granule = true;
			parse_granules("--granule", {g});
			granules.push_back(g);
		},
		"4k, 16k, 64k or all (repeatable; default 4k)", "G");
	add_once(
		sub, "--jobs",
		[this](const std::string& n) { jobs = static_cast<unsigned>(parse_count("--jobs", n, 1, max_jobs)); },
		"obligations proved at once, each in a process of its own, 1 to 64 (default: one per core)", "N");
	add_once(
		sub, "--timeout-ms",
		[this](const std::string& n) {
			timeout_ms = static_cast<unsigned>(parse_count("--timeout-ms", n, 1, max_timeout_ms, "milliseconds"));
		},
		"solver time limit per formula, 1 to 86400000 (default 60000)", "MS");
}

std::vector<granule> proof_flags::grans() const { return parse_granules("--granule", granules); }

proofs::prove_options proof_flags::options() const
{
	proofs::prove_options o;
	o.timeout_ms = timeout_ms;
	o.jobs = jobs;
	return o;
}

} // namespace ptespec::cli
