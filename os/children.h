// Jobs in child processes, a few at a time.
//
// A job that runs in a process of its own cannot leave state behind for the
// next (Z3 4.8 keeps the memory of a large obligation; a kernel tree's module
// has globals), a crash, a wall-clock limit or an exhausted memory ends that
// job only, and several run side by side, one per core.  The parent only
// forks, reads and waits: each child hands back one string.
//
// Ctrl-C or SIGTERM while children run: every child is killed and reaped and
// the parent dies of the same signal (the shell sees 130 or 143); a child
// also dies with its parent however the parent ends.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ptespec::os {

struct child_job {
	// Runs in the child; what it returns is handed to the parent.  It may
	// write short lines ("...\n", at most a few hundred bytes each) to
	// `progress_fd` (non-blocking: a line the parent has no room for is
	// dropped), of which the parent keeps the last.
	std::function<std::string(int progress_fd)> run;
	double weight = 0;	// its expected cost: heavier jobs start first
};

// How a job's process ended.
struct child_end {
	enum class kind {
		returned,	// run() returned: `out` is what it returned
		raised,	// run() threw: `out` is the exception's message
		signalled,	// the process died of signal `code`
		bad_status,	// the process exited with status `code`, or with 0 and nothing sent
		timed_out,	// it ran past the wall-clock limit and was killed
	};
	kind how = kind::returned;
	std::string out;
	int code = 0;
	double seconds = 0;
};

// A running child, as the progress callback sees it.
struct running_child {
	std::size_t job = 0;
	std::string said;	// its last whole progress line, without the newline ("" until one)
	double seconds = 0;
};

// `asked`, or one per core (at least one) when it is 0: what a --jobs flag
// that was not given means.
unsigned jobs_or_cores(unsigned asked);

// Runs every job in a child process, up to jobs_or_cores(parallel) at once,
// heaviest first; a child that runs longer than `wall_seconds` is killed.
// `ended` hears each job in job order, as soon as it and every job before
// it have ended, so whatever it prints comes in one order on every run; an
// exception from it kills the children and propagates.  `tick` (may be
// empty) hears how many jobs have ended and who is running, about five
// times a second.  Each job runs on a thread with a stack of 1 GiB (address
// space only until used): a prover recurses on terms thousands deep.
void run_children(const std::vector<child_job>& jobs, unsigned parallel, double wall_seconds,
		  const std::function<void(std::size_t job, child_end end)>& ended,
		  const std::function<void(std::size_t ended, const std::vector<running_child>&)>& tick = {});

// "died of signal 9 (Killed)", "exited with status 2", ...: how a process
// that sent nothing back ended, for a message.
std::string describe(const child_end& e, double wall_seconds);

} // namespace ptespec::os
