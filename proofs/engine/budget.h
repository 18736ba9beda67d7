// Solver budgets counted in work, with time as a safety net.
//
// A question given Z3 resource units (rlimit) stops after the same work on
// any machine, so what a run decides does not depend on the machine or its
// load.  It still gets a timeout, in case some part of the solver does not
// count its work; that timeout must sit far above the time the units take
// on a slow, loaded machine (a sanitizer build on a busy runner solves
// several times slower than an idle one), or it, not the units, decides.
// Where it did, the run says so (stopped_by_time).
#pragma once

#include <algorithm>
#include <chrono>
#include <utility>

#include <z3++.h>

namespace ptespec::proofs {

// The timeout of a question whose budget is resource units calibrated at
// `ms` of solving on an idle machine: twenty times that, and five seconds
// at least (the path oracle's first tries, 80 000 units, took 23-62 ms
// here; a sanitizer build on a busy runner is several times slower).
inline unsigned safety_net_ms(unsigned ms)
{
	const unsigned long long net = 20ull * ms;
	return static_cast<unsigned>(std::clamp<unsigned long long>(net, 5000, 0xffffffffull));
}

// A solver's answer and how long it took.
struct timed_answer {
	z3::check_result result;
	double ms;
};

// s.check(args...), timed.
template <class... Args>
timed_answer timed_check(z3::solver& s, Args&&... args)
{
	const auto t0 = std::chrono::steady_clock::now();
	const z3::check_result r = s.check(std::forward<Args>(args)...);
	return {r, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()};
}

// Whether a question with timeout `timeout_ms` was stopped by it rather than
// by its resource units or an answer.  Z3's reason does not tell (its
// incremental solver says "canceled" for either), so: unknown after (nearly)
// the whole timeout.
inline bool stopped_by_time(const timed_answer& a, unsigned timeout_ms)
{
	return a.result == z3::unknown && a.ms >= 0.9 * timeout_ms;
}

} // namespace ptespec::proofs
