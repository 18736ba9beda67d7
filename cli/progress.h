// Where a long command is, on stderr, while it runs: on a terminal one
// line that updates in place; otherwise (a log, a CI job) a line every few
// seconds with the time so far, so a log shows the run moving without
// filling up.  stdout stays the result alone.
#pragma once

#include <chrono>
#include <string>

namespace ptespec::cli {

class progress_line {
public:
	// `command` starts each logged line ("check: proofs: ...").
	explicit progress_line(std::string command);
	~progress_line() { clear(); }
	progress_line(const progress_line&) = delete;
	progress_line& operator=(const progress_line&) = delete;

	void update(const std::string& what);
	// Takes the updating line off the terminal (before the results print).
	void clear();

private:
	using clock = std::chrono::steady_clock;
	std::string command_;
	bool tty_;
	bool shown_ = false;
	clock::time_point t0_ = clock::now(), last_ = t0_;
};

} // namespace ptespec::cli
