#include "cli/proof_flags.h"

#include <CLI/CLI.hpp>

#include "model/errors.h"
#include "proofs/catalogue.h"

namespace ptespec::cli {

void proof_flags::define(CLI::App& sub)
{
	sub.add_option("--granule", granules, "4k, 16k, 64k or all (repeatable; default 4k)")->type_name("G");
	sub.add_option("--jobs", jobs, "obligations proved at once, each in a process of its own (default: one per core)")
		->check(CLI::Range(1u, 64u))
		->type_name("N");
	sub.add_option("--timeout-ms", timeout_ms, "solver time limit per formula (default 60000)");
}

std::vector<granule> proof_flags::grans() const { return proofs::granules_of(granules); }

proofs::prove_options proof_flags::options() const
{
	if (timeout_ms == 0)
		throw usage_error("--timeout-ms 0: expected a positive number of milliseconds");
	proofs::prove_options o;
	o.timeout_ms = timeout_ms;
	o.jobs = jobs;
	return o;
}

} // namespace ptespec::cli
