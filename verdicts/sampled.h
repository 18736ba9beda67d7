// The sampled cells of a table, run side by side: the cells of one strategy
// and granule with the same options run as one group (run_properties: each
// case runs once, judged for all of their properties), each group in a
// child process of its own (os/children.h), the results handed back in the
// order asked, so what is printed from them is the same bytes whatever the
// number of jobs.  A cell's result is that of its own RapidCheck run from
// its seed, whichever group it ran in, so running it elsewhere changes
// nothing it finds.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "proofs/prover.h"
#include "properties/runner.h"

namespace ptespec::verdicts {

struct sampled_job {
	strategy* s = nullptr;
	property p = property::no_loss;
	run_options o;
	// A failure the proofs should re-judge from the table its failing call
	// began from (proofs::judge_agreement), with these options; the
	// re-judgement runs where the cell ran.
	bool rejudge = false;
	proofs::prove_options po;
};

struct sampled_cell {
	property_result r;
	std::string agreement;	// "agrees: ...", "undecided: ...", "outside: ...", or "" when not re-judged
};

// Where a run of cells is, for a progress line.
struct sampled_status {
	std::size_t ended = 0, total = 0;
	std::vector<std::size_t> running;	// the jobs running now
};

// Runs every job, `jobs` groups at a time (0: one per core; 1: one after
// another in this process; a job with a coverage recorder runs alone, and
// here, since what it records stays in this process).  Results in job
// order.  A re-judgement that contradicts the checker is ptespec's own
// bug: internal_error.
std::vector<sampled_cell> run_sampled(const std::vector<sampled_job>& list, unsigned jobs,
				      const std::function<void(const sampled_status&)>& progress = {});

// "3 of 72 ended; running 4k mainline batch-or, 4k simple no-loss": a
// progress line for run_sampled's status.
std::string status_text(const std::vector<sampled_job>& list, const sampled_status& st);

} // namespace ptespec::verdicts
