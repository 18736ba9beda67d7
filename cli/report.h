// What a report is asked for, and writing it: `ptespec report` computes
// its verdict table, `ptespec check --report DIR` hands over the one it
// printed, so a report never costs a second check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "cli/verdicts.h"
#include "impl/strategy.h"
#include "model/hardware_options.h"
#include "proofs/prover.h"

namespace ptespec::cli {

struct report_cli {
	std::string out = "report";
	int cases = 0;	// 0: the granule's default
	std::uint64_t seed = 1;
	hardware_options hw;
	std::string caller;	// empty: core-mm
	sweep_flags sweeps;
	std::size_t folios = 256;
	std::string proof_granule = "4k";
	unsigned jobs = 0;	// 0: one per core
	std::vector<std::string> names;	// --strategy; empty: every registered one

	// The chosen strategies (looked up here, not while parsing: plugins
	// load after the command line is read), and how the commands in the
	// report's headings name them.
	std::vector<strategy*> strategies() const
	{
		if (names.empty())
			return registry::global().all();
		std::vector<strategy*> chosen;
		for (const std::string& n : names)
			chosen.push_back(&parse_strategy("--strategy", n));
		return chosen;
	}
	std::string selection_flags() const;
};

// The proofs a report runs: every family of the obligation table but the
// opt-in ones, no helper algebra.
proofs::prove_options report_proofs(unsigned jobs);

// Refuses what would stop a report after its long work (gnuplot missing, an
// unwritable directory, an unknown strategy); returns gnuplot's path.
std::string report_prerequisites(const report_cli& c);

// Writes DIR/report.md (the table, the proofs, the cost of exit with its
// chart) from `vt`, computed for `c`; prints "wrote DIR/report.md".
void write_report(const report_cli& c, const verdict_table& vt, const std::string& gnuplot);

} // namespace ptespec::cli
