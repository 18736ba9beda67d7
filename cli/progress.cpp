#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace ptespec::cli {

namespace {

// A logged line once a run has taken this long (a shorter one logs
// nothing), then every log_every; a terminal's line at most ten times a
// second (a proof's path count changes faster than anyone reads).
constexpr auto log_first = std::chrono::seconds(2);
constexpr auto log_every = std::chrono::seconds(5);
constexpr auto redraw_every = std::chrono::milliseconds(100);
// Wider than this, the updating line would wrap and stop updating in place.
constexpr std::size_t terminal_columns = 119;

} // namespace

progress_line::progress_line(std::string command) : command_(std::move(command)), tty_(isatty(STDERR_FILENO)) {}

void progress_line::update(const std::string& what)
{
	const clock::time_point now = clock::now();
	const double secs = std::chrono::duration<double>(now - t0_).count();
	if (tty_) {
		if (shown_ && now - last_ < redraw_every)
			return;
		std::string line = fmt::format("{} ({:.0f} s)", what, secs);
		if (line.size() > terminal_columns)
			line = line.substr(0, terminal_columns - 3) + "...";
		fmt::print(stderr, "\r{}\033[K", line);
		std::fflush(stderr);
		shown_ = true;
		last_ = now;
	} else if (now - last_ >= (shown_ ? log_every : log_first)) {
		fmt::print(stderr, "{}: {} ({:.0f} s)\n", command_, what, secs);
		std::fflush(stderr);
		shown_ = true;
		last_ = now;
	}
}

void progress_line::clear()
{
	if (tty_ && shown_) {
		fmt::print(stderr, "\r\033[K");
		std::fflush(stderr);
		shown_ = false;
	}
}

} // namespace ptespec::cli
