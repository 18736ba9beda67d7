#include "proofs/isolate.h"

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
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "model/errors.h"

namespace ptespec::proofs {

namespace {

using json = nlohmann::json;

json call_to_json(const call& c)
{
	return {static_cast<int>(c.kind), c.index, c.nr, c.full, c.pte, c.flags};
}

call call_from_json(const json& j)
{
	call c;
	c.kind = static_cast<call_kind>(j.at(0).get<int>());
	c.index = j.at(1).get<std::size_t>();
	c.nr = j.at(2).get<std::size_t>();
	c.full = j.at(3).get<bool>();
	c.pte = j.at(4).get<std::uint64_t>();
	c.flags = j.at(5).get<unsigned>();
	return c;
}

json ce_to_json(const counterexample& ce)
{
	json folios = json::array(), calls = json::array(), events = json::array(), witness = json::array();
	for (const folio_extent& f : ce.folios)
		folios.push_back({f.first_pfn, f.nr_pages});
	for (const call& c : ce.calls)
		calls.push_back(call_to_json(c));
	for (const ce_event& e : ce.events)
		events.push_back({e.call, e.gap, e.entry, static_cast<int>(e.kind)});
	for (const call& c : ce.witness)
		witness.push_back(call_to_json(c));
	return {{"granule", static_cast<int>(ce.geo.gran)},
		{"folios", folios},
		{"initial", ce.initial},
		{"calls", calls},
		{"events", events},
		{"prop", static_cast<int>(ce.prop)},
		{"witness", witness},
		{"calls_not_needed", ce.calls_not_needed},
		{"hint", ce.hint ? json{ce.hint->entry, ce.hint->pte, ce.hint->answer} : json(nullptr)},
		{"hw", {ce.hw.bbml2_noabort, ce.hw.no_hafdbs, ce.hw.one_cpu}}};
}

counterexample ce_from_json(const json& j)
{
	counterexample ce;
	ce.geo = geometry::of(static_cast<granule>(j.at("granule").get<int>()));
	for (const json& f : j.at("folios"))
		ce.folios.push_back({f.at(0).get<std::uint64_t>(), f.at(1).get<std::uint64_t>()});
	ce.initial = j.at("initial").get<std::vector<std::uint64_t>>();
	for (const json& c : j.at("calls"))
		ce.calls.push_back(call_from_json(c));
	for (const json& e : j.at("events"))
		ce.events.push_back({e.at(0).get<std::size_t>(), e.at(1).get<std::size_t>(), e.at(2).get<std::size_t>(),
				     static_cast<hw_kind>(e.at(3).get<int>())});
	ce.prop = static_cast<property>(j.at("prop").get<int>());
	for (const json& c : j.at("witness"))
		ce.witness.push_back(call_from_json(c));
	ce.calls_not_needed = j.at("calls_not_needed").get<std::size_t>();
	if (const json& h = j.at("hint"); !h.is_null())
		ce.hint = hint_query{h.at(0).get<std::size_t>(), h.at(1).get<std::uint64_t>(), h.at(2).get<std::size_t>()};
	const json& hw = j.at("hw");
	ce.hw.bbml2_noabort = hw.at(0).get<bool>();
	ce.hw.no_hafdbs = hw.at(1).get<bool>();
	ce.hw.one_cpu = hw.at(2).get<bool>();
	return ce;
}

// A job whose process did not hand back results: each of its obligations
// unknown.
std::vector<proof_result> lost(const isolated_job& job, const std::string& why, double seconds)
{
	std::vector<proof_result> out;
	for (const std::string& name : job.obligations) {
		proof_result r;
		r.strategy = job.strategy;
		r.obligation = name;
		r.gran = job.gran;
		r.verdict = proof_verdict::unknown;
		r.detail = why;
		r.seconds = seconds;
		out.push_back(std::move(r));
	}
	return out;
}

struct child {
	std::size_t job = 0;
	pid_t pid = -1;
	int fd = -1;
	std::string out;
	stopwatch clock;
	// Its progress pipe: lines "<obligation>\t<paths>", the last one kept.
	int progress_fd = -1;
	std::string progress_buf, obligation;
	std::size_t paths = 0;
};

// The child's side of the progress pipe: at most five lines a second, each
// small enough that one write() of it is atomic; a parent that stopped
// reading never blocks the proof (the pipe is non-blocking).
void report_to_parent(int fd)
{
	set_proof_progress([fd, last = std::chrono::steady_clock::time_point{}](const proof_result& r) mutable {
		const auto now = std::chrono::steady_clock::now();
		if (now - last < std::chrono::milliseconds(200))
			return;
		last = now;
		const std::string line = fmt::format("{}\t{}\n", r.obligation.substr(0, 200), r.paths);
		[[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
	});
}

// What the parent read from a child's progress pipe: the last whole line.
void take_progress(child& c, const char* buf, std::size_t n)
{
	c.progress_buf.append(buf, n);
	const std::size_t end = c.progress_buf.rfind('\n');
	if (end == std::string::npos)
		return;
	const std::size_t before = c.progress_buf.rfind('\n', end - (end > 0 ? 1 : 0));
	const std::size_t start = before == std::string::npos || before == end ? 0 : before + 1;
	const std::string line = c.progress_buf.substr(start, end - start);
	c.progress_buf.erase(0, end + 1);
	const std::size_t tab = line.find('\t');
	if (tab == std::string::npos)
		return;
	c.obligation = line.substr(0, tab);
	c.paths = std::strtoull(line.c_str() + tab + 1, nullptr, 10);
}

struct child_work {
	const isolated_job* job;
	std::string out;
};

void* run_job(void* arg)
{
	child_work& w = *static_cast<child_work*>(arg);
	try {
		w.out = results_to_json(w.job->run());
	} catch (const std::exception& e) {
		w.out = json{{"error", e.what()}}.dump();
	} catch (...) {
		w.out = json{{"error", "unknown exception"}}.dump();
	}
	return nullptr;
}

// Terms of a large teardown nest thousands deep (a conjunction grown one
// call at a time), and both Z3 and the bit slicer recurse on them: the job
// runs on a thread with a stack of its own (address space only until used).
constexpr std::size_t child_stack_bytes = std::size_t{1} << 30;

[[noreturn]] void run_child(const isolated_job& job, int fd, int progress_fd)
{
	report_to_parent(progress_fd);
	child_work w{&job, {}};
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
	const std::string& out = w.out;
	const char* p = out.data();
	std::size_t left = out.size();
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

// SIGINT or SIGTERM while children prove: the handler only notes it; the
// parent's loop (which wakes at least every 200 ms) kills and reaps every
// child and then dies of the same signal, so the shell sees 130 or 143 and
// no prover process outlives the run.  A child also dies with its parent
// however the parent ends (PR_SET_PDEATHSIG), even by SIGKILL.
volatile sig_atomic_t stop_signal = 0;

extern "C" void note_stop_signal(int sig)
{
	stop_signal = sig;
}

// The handlers, for as long as run_isolated() has children.
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

// Whatever the child has said of its progress since the last look.
void drain_progress(child& c)
{
	char buf[4096];
	while (c.progress_fd >= 0) {
		const ssize_t got = ::read(c.progress_fd, buf, sizeof buf);
		if (got > 0) {
			take_progress(c, buf, static_cast<std::size_t>(got));
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

child spawn(const std::vector<isolated_job>& jobs, std::size_t k)
{
	const pid_t parent = ::getpid();
	int fds[2], pfds[2];
	if (::pipe(fds) != 0)
		throw internal_error(fmt::format("prover: pipe: {}", std::strerror(errno)));
	if (::pipe2(pfds, O_NONBLOCK) != 0) {
		::close(fds[0]);
		::close(fds[1]);
		throw internal_error(fmt::format("prover: pipe: {}", std::strerror(errno)));
	}
	std::fflush(nullptr);
	const pid_t pid = ::fork();
	if (pid < 0) {
		for (int f : {fds[0], fds[1], pfds[0], pfds[1]})
			::close(f);
		throw internal_error(fmt::format("prover: fork: {}", std::strerror(errno)));
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

// What a finished child handed back.
std::vector<proof_result> collect(const isolated_job& job, child& c, int status)
{
	if (WIFSIGNALED(status))
		return lost(job,
			    fmt::format("the prover process died of signal {} ({})", WTERMSIG(status),
					 strsignal(WTERMSIG(status))),
			    c.clock.seconds());
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return lost(job, fmt::format("the prover process exited with status {}", WEXITSTATUS(status)),
			    c.clock.seconds());
	json j;
	try {
		j = json::parse(c.out);
	} catch (const json::exception&) {
		return lost(job, "the prover process sent back no results", c.clock.seconds());
	}
	if (j.is_object() && j.contains("error"))
		throw internal_error(fmt::format("{} {}: {}", job.strategy.empty() ? "-" : job.strategy,
						 fmt::join(job.obligations, "+"),
						 j.at("error").get<std::string>()));
	return results_from_json(c.out);
}

} // namespace

std::string results_to_json(const std::vector<proof_result>& rs)
{
	json list = json::array();
	for (const proof_result& r : rs) {
		json j{{"obligation", r.obligation},
		       {"strategy", r.strategy},
		       {"granule", static_cast<int>(r.gran)},
		       {"verdict", static_cast<int>(r.verdict)},
		       {"seconds", r.seconds},
		       {"run_seconds", r.run_seconds},
		       {"solve_seconds", r.solve_seconds},
		       {"paths", r.paths},
		       {"path_questions", r.path_questions},
		       {"time_stops", r.time_stops},
		       {"formulas", r.formulas},
		       {"detail", r.detail},
		       {"replay", r.replay},
		       {"ce_text", r.ce_text}};
		if (r.ce)
			j["ce"] = ce_to_json(*r.ce);
		list.push_back(std::move(j));
	}
	return list.dump();
}

std::vector<proof_result> results_from_json(const std::string& text)
{
	std::vector<proof_result> out;
	try {
		for (const json& j : json::parse(text)) {
			proof_result r;
			r.obligation = j.at("obligation").get<std::string>();
			r.strategy = j.at("strategy").get<std::string>();
			r.gran = static_cast<granule>(j.at("granule").get<int>());
			r.verdict = static_cast<proof_verdict>(j.at("verdict").get<int>());
			r.seconds = j.at("seconds").get<double>();
			r.run_seconds = j.at("run_seconds").get<double>();
			r.solve_seconds = j.at("solve_seconds").get<double>();
			r.paths = j.at("paths").get<std::size_t>();
			r.path_questions = j.at("path_questions").get<std::size_t>();
			r.time_stops = j.at("time_stops").get<std::size_t>();
			r.formulas = j.at("formulas").get<std::size_t>();
			r.detail = j.at("detail").get<std::string>();
			r.replay = j.at("replay").get<std::string>();
			r.ce_text = j.at("ce_text").get<std::string>();
			if (j.contains("ce"))
				r.ce = ce_from_json(j.at("ce"));
			out.push_back(std::move(r));
		}
	} catch (const json::exception& e) {
		throw internal_error(fmt::format("prover: malformed results from a prover process: {}", e.what()));
	}
	return out;
}

std::vector<proof_result> run_isolated(const std::vector<isolated_job>& jobs, unsigned parallel, double wall_seconds,
				       const std::function<void(const proof_result&)>& done,
				       const std::function<void(const isolated_status&)>& progress)
{
	if (parallel == 0)
		parallel = 1;
	std::vector<std::optional<std::vector<proof_result>>> results(jobs.size());
	std::vector<child> running;
	// The heaviest first: a long job started last would run alone at the end.
	std::vector<std::size_t> order(jobs.size());
	for (std::size_t k = 0; k < order.size(); k++)
		order[k] = k;
	std::stable_sort(order.begin(), order.end(),
			 [&](std::size_t a, std::size_t b) { return jobs[a].weight > jobs[b].weight; });
	std::size_t next = 0, reported = 0, heard = 0;
	// `done` hears results in job order, once every job before has ended:
	// whichever child finishes first, the lines come in one order.
	auto finish = [&](std::size_t job, std::vector<proof_result> rs) {
		results[job] = std::move(rs);
		reported++;
		for (; heard < jobs.size() && results[heard]; heard++)
			if (done)
				for (const proof_result& r : *results[heard])
					done(r);
	};
	const stop_handlers handlers;
	try {
		while (reported < jobs.size()) {
			while (next < jobs.size() && running.size() < parallel && !stop_signal)
				running.push_back(spawn(jobs, order[next++]));
			std::vector<pollfd> fds;
			for (const child& c : running)
				fds.push_back({c.fd, POLLIN, 0});
			const int n = stop_signal ? 0 : ::poll(fds.data(), fds.size(), 200);
			if (n < 0 && errno != EINTR)
				throw internal_error(fmt::format("prover: poll: {}", std::strerror(errno)));
			// Before any child's end is read: one killed by the same
			// Ctrl-C is not an obligation's verdict.
			if (const int sig = stop_signal) {
				kill_children(running);
				die_of(sig);
			}
			for (std::size_t k = running.size(); k-- > 0;) {
				child& c = running[k];
				drain_progress(c);
				bool ended = false;
				if (n > 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
					char buf[65536];
					const ssize_t got = ::read(c.fd, buf, sizeof buf);
					if (got > 0)
						c.out.append(buf, static_cast<std::size_t>(got));
					else if (got == 0 || errno != EINTR)
						ended = true;
				}
				if (!ended && c.clock.seconds() > wall_seconds) {
					::kill(c.pid, SIGKILL);
					int status = 0;
					::waitpid(c.pid, &status, 0);
					close_pipes(c);
					finish(c.job, lost(jobs[c.job],
							   fmt::format("the prover process ran past the wall-clock "
								       "limit of {:.0f} s and was stopped",
								       wall_seconds),
							   c.clock.seconds()));
					running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
					continue;
				}
				if (!ended)
					continue;
				int status = 0;
				::waitpid(c.pid, &status, 0);
				close_pipes(c);
				c.pid = -1;
				finish(c.job, collect(jobs[c.job], c, status));
				running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
			}
			if (progress) {
				isolated_status st{reported, jobs.size(), {}};
				for (const child& c : running)
					st.running.push_back({jobs[c.job].strategy, jobs[c.job].obligations.empty() ? "" : jobs[c.job].obligations.front(),
							      jobs[c.job].gran, c.obligation, c.paths, c.clock.seconds()});
				progress(st);
			}
		}
	} catch (...) {
		kill_children(running);
		throw;
	}
	std::vector<proof_result> out;
	for (auto& r : results)
		for (proof_result& x : *r)
			out.push_back(std::move(x));
	return out;
}

} // namespace ptespec::proofs
