#include "cli/proof_flags.h"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

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
	add_jobs(sub, jobs, "obligations (and in check, sampled cells)");
	add_once(
		sub, "--timeout-ms",
		[this](const std::string& n) {
			timeout_ms = static_cast<unsigned>(parse_count("--timeout-ms", n, 1, max_timeout_ms, "milliseconds"));
		},
		"solver time limit per formula, 1 to 86400000 (default 60000)", "MS");
	add_once(
		sub, "--run-seconds",
		[this](const std::string& n) {
			run_seconds = parse_count("--run-seconds", n, 1, max_run_seconds, "seconds");
		},
		"seconds an obligation may spend running the strategy on paths before it ends unknown, 1 to 86400 "
		"(default 60; a step/ obligation 15 per case if more); the wall-clock limit of each obligation "
		"becomes 4 times this if that is more than 900 s",
		"S");
	add_once(
		sub, "--max-paths",
		[this](const std::string& n) { paths = parse_count("--max-paths", n, 1, max_paths, "paths"); },
		"paths one call may take before its obligation ends unknown, 1 to 1000000 (default 512)", "N");
	add_once(
		sub, "--probes",
		[this](const std::string& n) { probes = parse_count("--probes", n, 0, max_probes, "probes"); },
		"before a case's last call runs on every path, this many probes follow one path each through it and ask "
		"the solver for a model of that path breaking a claim (a counterexample without the full search; they "
		"never prove), 0 to 10000 (default: 16 for lockless/, 0 elsewhere)",
		"N");
	add_repeatable(
		sub, "--obligation", [this](const std::string& o) { obligations.push_back(o); },
		"only the obligations whose name starts with this (repeatable), e.g. exit/ or per-call/one-call; "
		"the step/ obligations (each call, at run edges and a middle, from any two-run table satisfying the "
		"invariant of reachable tables) and the seq/ ones (every sequence of 2 or 3 calls of every kind, from the "
		"empty table or from invariant tables, the ledger followed call by call) run only when named, e.g. "
		"--obligation step/ or --obligation seq/empty-k2",
		"PREFIX");
}

namespace {

// Each --obligation must be a prefix of some obligation's name.
void check_obligation_prefixes(const std::vector<std::string>& prefixes, const std::vector<granule>& grans)
{
	std::vector<std::string> names;
	for (granule g : grans)
		for (const std::string& n : proofs::obligation_names(g))
			names.push_back(n);
	for (const std::string& p : prefixes) {
		bool any = false;
		for (const std::string& n : names)
			any = any || n.starts_with(p);
		if (!any || p.empty())
			throw usage_error(fmt::format("--obligation '{}': expected the start of an obligation name, e.g. "
						      "batch-or, per-call/one-call, exit/run-cont{}, step/, seq/ or helpers/",
						      p, geometry::of(grans.front()).cont_ptes));
	}
}

} // namespace

std::vector<granule> proof_flags::grans() const { return parse_granules("--granule", granules); }

proofs::prove_options proof_flags::options() const
{
	proofs::prove_options o;
	o.solver.timeout_ms = timeout_ms;
	o.schedule.jobs = jobs;
	if (run_seconds) {
		o.search.run_seconds = static_cast<double>(run_seconds);
		o.schedule.wall_seconds = std::max(o.schedule.wall_seconds, 4 * o.search.run_seconds);
	}
	if (paths)
		o.search.max_paths = paths;
	if (probes)
		o.probes.count = static_cast<std::size_t>(*probes);
	check_obligation_prefixes(obligations, grans());
	o.only = obligations;
	return o;
}

} // namespace ptespec::cli
