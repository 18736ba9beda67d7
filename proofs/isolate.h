// Each obligation in a process of its own.
//
// Z3 4.8 does not give memory back: after a large obligation a context is
// slow for everything that follows, and destroying it takes longer than
// the proof did.  A child
// process per obligation starts from a fresh context and hands its memory
// back to the system by exiting.  It also bounds what one obligation can
// do to the run: a wall-clock limit, a crash or an exhausted memory make
// that obligation `unknown`, never `proved`, and the run goes on; and the
// obligations run side by side, one per core.
//
// The parent never touches Z3; a child sends its results back as JSON.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "proofs/prover.h"

namespace ptespec::proofs {

struct isolated_job {
	std::string strategy;	// "" for the helper algebra
	// What a failure of the process is reported as: a result per name
	// (several when one run proves several obligations).
	std::vector<std::string> obligations;
	granule gran = granule::k4;
	std::function<std::vector<proof_result>()> run;	// runs in the child
	double weight = 0;	// its expected cost: heavier jobs start first
};

// Where a run of jobs is: how many have ended, and what each running child
// last said of itself (the obligation it is on and the paths it has run).
struct isolated_status {
	std::size_t ended = 0, total = 0;
	struct running_job {
		std::string strategy;	// the job's
		std::string first;	// the first obligation of the job
		granule gran = granule::k4;
		std::string obligation;	// the one it is on; "" until it first reports
		std::size_t paths = 0;
		double seconds = 0;
	};
	std::vector<running_job> running;
};

// Runs every job in a child process, up to `parallel` at once (0: one per
// core), heaviest
// first; each child that runs longer than `wall_seconds` is killed.
// Results come back in job order; `done` (may be empty) hears them in job
// order too, each as soon as its job and every job before it have ended
// (so what it prints is in the same order on every run).  `progress` (may
// be empty) hears where the run is about five times a second.  An
// exception in a child is rethrown in the parent as internal_error.
std::vector<proof_result> run_isolated(const std::vector<isolated_job>& jobs, unsigned parallel, double wall_seconds,
				       const std::function<void(const proof_result&)>& done,
				       const std::function<void(const isolated_status&)>& progress = {});

// The wire format between child and parent (also what tests compare).
std::string results_to_json(const std::vector<proof_result>& rs);
std::vector<proof_result> results_from_json(const std::string& text);

} // namespace ptespec::proofs
