#include "os/children.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>

namespace ptespec::os {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0)
{
	return std::chrono::duration<double>(clock_type::now() - t0).count();
}

std::runtime_error os_error(const char* what)
{
	return std::runtime_error(std::string("child processes: ") + what + ": " + std::strerror(errno));
}

struct child {
	std::size_t job = 0;
	pid_t pid = -1;
	int fd = -1;	// its result
	int progress_fd = -1;	// its progress lines
	std::string out, progress_buf, said;
	clock_type::time_point start = clock_type::now();
};

// --- the child's side ---

struct child_work {
	const child_job* job;
	int progress_fd;
	std::string out;	// 'R' and the result, or 'E' and the exception's message
};

void* run_job(void* arg)
{
	child_work& w = *static_cast<child_work*>(arg);
	try {
		w.out = "R" + w.job->run(w.progress_fd);
	} catch (const std::exception& e) {
		w.out = std::string("E") + e.what();
	} catch (...) {
		w.out = "Eunknown exception";
	}
	return nullptr;
}

constexpr std::size_t child_stack_bytes = std::size_t{1} << 30;

[[noreturn]] void run_child(const child_job& job, int fd, int progress_fd)
{
	child_work w{&job, progress_fd, {}};
	pthread_attr_t attr;
	pthread_t thread;
	bool ran = false;
	if (pthread_attr_init(&attr) == 0) {
		if (pthread_attr_setstacksize(&attr, child_stack_bytes) == 0 &&
		    pthread_create(&thread, &attr, run_job, &w) == 0) {
			pthread_join(thread, nullptr);
			ran = true;
		}
		pthread_attr_destroy(&attr);
	}
	if (!ran)
		run_job(&w);
	const char* p = w.out.data();
	std::size_t left = w.out.size();
	while (left > 0) {
		const ssize_t n = ::write(fd, p, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(2);
		p += n;
		left -= static_cast<std::size_t>(n);
	}
	// No exit handlers, no stdio flush: the parent's buffers are not ours.
	_exit(0);
}

// --- signals: the handler only notes one; the parent's loop, which wakes
// at least every 200 ms, acts on it ---

volatile sig_atomic_t stop_signal = 0;

extern "C" void note_stop_signal(int sig)
{
	stop_signal = sig;
}

// The handlers, for as long as run_children() has children.
class stop_handlers {
public:
	stop_handlers()
	{
		stop_signal = 0;
		struct sigaction sa {};
		sa.sa_handler = note_stop_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = 0;	// no SA_RESTART: poll() returns EINTR at once
		::sigaction(SIGINT, &sa, &old_int_);
		::sigaction(SIGTERM, &sa, &old_term_);
	}
	~stop_handlers()
	{
		::sigaction(SIGINT, &old_int_, nullptr);
		::sigaction(SIGTERM, &old_term_, nullptr);
	}
	stop_handlers(const stop_handlers&) = delete;
	stop_handlers& operator=(const stop_handlers&) = delete;

private:
	struct sigaction old_int_ {}, old_term_ {};
};

// The children are gone; the parent ends as the signal meant it to.
[[noreturn]] void die_of(int sig)
{
	std::fflush(stdout);
	::signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
	::raise(sig);
	_exit(128 + sig);
}

// --- the parent's side ---

void close_pipes(child& c)
{
	for (int* fd : {&c.fd, &c.progress_fd})
		if (*fd >= 0) {
			::close(*fd);
			*fd = -1;
		}
}

void kill_children(std::vector<child>& running)
{
	for (child& c : running) {
		if (c.pid > 0) {
			::kill(c.pid, SIGKILL);
			::waitpid(c.pid, nullptr, 0);
			c.pid = -1;
		}
		close_pipes(c);
	}
	running.clear();
}

// Keeps the last whole line of what the child said since the last look.
void drain_progress(child& c)
{
	char buf[4096];
	while (c.progress_fd >= 0) {
		const ssize_t got = ::read(c.progress_fd, buf, sizeof buf);
		if (got > 0) {
			c.progress_buf.append(buf, static_cast<std::size_t>(got));
			const std::size_t end = c.progress_buf.rfind('\n');
			if (end == std::string::npos)
				continue;
			const std::size_t before = end == 0 ? std::string::npos : c.progress_buf.rfind('\n', end - 1);
			const std::size_t start = before == std::string::npos ? 0 : before + 1;
			c.said = c.progress_buf.substr(start, end - start);
			c.progress_buf.erase(0, end + 1);
		} else if (got < 0 && errno == EINTR) {
			continue;
		} else if (got < 0 && errno == EAGAIN) {
			return;	// nothing new
		} else {	// the child closed it (it ended), or the pipe failed: nothing more to hear
			::close(c.progress_fd);
			c.progress_fd = -1;
		}
	}
}

child spawn(const std::vector<child_job>& jobs, std::size_t k)
{
	const pid_t parent = ::getpid();
	int fds[2], pfds[2];
	if (::pipe(fds) != 0)
		throw os_error("pipe");
	if (::pipe2(pfds, O_NONBLOCK) != 0) {
		::close(fds[0]);
		::close(fds[1]);
		throw os_error("pipe");
	}
	std::fflush(nullptr);
	const pid_t pid = ::fork();
	if (pid < 0) {
		for (int f : {fds[0], fds[1], pfds[0], pfds[1]})
			::close(f);
		throw os_error("fork");
	}
	if (pid == 0) {
		::prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (::getppid() != parent)
			_exit(2);	// the parent ended before the line above
		// Not the parent's handlers: a Ctrl-C at the terminal reaches
		// the whole process group and ends a child at once.
		::signal(SIGINT, SIG_DFL);
		::signal(SIGTERM, SIG_DFL);
		::close(fds[0]);
		::close(pfds[0]);
		run_child(jobs[k], fds[1], pfds[1]);
	}
	::close(fds[1]);
	::close(pfds[1]);
	child c;
	c.job = k;
	c.pid = pid;
	c.fd = fds[0];
	c.progress_fd = pfds[0];
	return c;
}

child_end ended_as(const child& c, int status)
{
	child_end e;
	e.seconds = seconds_since(c.start);
	if (WIFSIGNALED(status)) {
		e.how = child_end::kind::signalled;
		e.code = WTERMSIG(status);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || c.out.empty()) {
		e.how = child_end::kind::bad_status;
		e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	} else {
		e.how = c.out[0] == 'R' ? child_end::kind::returned : child_end::kind::raised;
		e.out = c.out.substr(1);
	}
	return e;
}

// Reads what a child sent; true when its result pipe has closed.
bool read_result(child& c)
{
	char buf[65536];
	const ssize_t got = ::read(c.fd, buf, sizeof buf);
	if (got > 0) {
		c.out.append(buf, static_cast<std::size_t>(got));
		return false;
	}
	return got == 0 || errno != EINTR;
}

} // namespace

unsigned jobs_or_cores(unsigned asked)
{
	return asked ? asked : std::max(1u, std::thread::hardware_concurrency());
}

void run_children(const std::vector<child_job>& jobs, unsigned parallel, double wall_seconds,
		  const std::function<void(std::size_t, child_end)>& ended,
		  const std::function<void(std::size_t, const std::vector<running_child>&)>& tick)
{
	parallel = jobs_or_cores(parallel);
	std::vector<std::optional<child_end>> ends(jobs.size());
	std::vector<child> running;
	// The heaviest first: a long job started last would run alone at the end.
	std::vector<std::size_t> order(jobs.size());
	for (std::size_t k = 0; k < order.size(); k++)
		order[k] = k;
	std::stable_sort(order.begin(), order.end(),
			 [&](std::size_t a, std::size_t b) { return jobs[a].weight > jobs[b].weight; });
	std::size_t next = 0, over = 0, heard = 0;
	auto finish = [&](std::size_t job, child_end e) {
		ends[job] = std::move(e);
		over++;
		for (; heard < jobs.size() && ends[heard]; heard++) {
			ended(heard, std::move(*ends[heard]));
		}
	};
	const stop_handlers handlers;
	try {
		while (over < jobs.size()) {
			while (next < jobs.size() && running.size() < parallel && !stop_signal)
				running.push_back(spawn(jobs, order[next++]));
			std::vector<pollfd> fds;
			for (const child& c : running)
				fds.push_back({c.fd, POLLIN, 0});
			const int n = stop_signal ? 0 : ::poll(fds.data(), fds.size(), 200);
			if (n < 0 && errno != EINTR)
				throw os_error("poll");
			// Before any child's end is read: one killed by the same
			// Ctrl-C is not a job's result.
			if (const int sig = stop_signal) {
				kill_children(running);
				die_of(sig);
			}
			for (std::size_t k = running.size(); k-- > 0;) {
				child& c = running[k];
				drain_progress(c);
				const bool done = n > 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) && read_result(c);
				if (!done && seconds_since(c.start) <= wall_seconds)
					continue;
				int status = 0;
				if (!done)
					::kill(c.pid, SIGKILL);
				::waitpid(c.pid, &status, 0);
				c.pid = -1;
				close_pipes(c);
				child_end e = ended_as(c, status);
				if (!done) {
					e.how = child_end::kind::timed_out;
					e.out.clear();
				}
				const std::size_t job = c.job;
				running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
				finish(job, std::move(e));
			}
			if (tick) {
				std::vector<running_child> now;
				for (const child& c : running)
					now.push_back({c.job, c.said, seconds_since(c.start)});
				tick(over, now);
			}
		}
	} catch (...) {
		kill_children(running);
		throw;
	}
}

std::string describe(const child_end& e, double wall_seconds)
{
	switch (e.how) {
	case child_end::kind::signalled:
		return "died of signal " + std::to_string(e.code) + " (" + strsignal(e.code) + ")";
	case child_end::kind::bad_status:
		return "exited with status " + std::to_string(e.code);
	case child_end::kind::timed_out: {
		char limit[32];
		std::snprintf(limit, sizeof limit, "%.0f", wall_seconds);
		return std::string("ran past the wall-clock limit of ") + limit + " s and was stopped";
	}
	case child_end::kind::raised:
		return "raised: " + e.out;
	case child_end::kind::returned:
		break;
	}
	return "returned";
}

} // namespace ptespec::os
