// How many sampled cases each flawed cell needs before its first failure:
// the measurement `test`, `check` and `report`'s default case count is set
// from (properties/defaults.h), with each flawed cell's margin over it.
//
//   ptespec_bench_defaults [--seeds N] [--cap C] [--granule G ...] [--strategy S ...] [--property P ...]
//                          [--mprotect] [--swarm] [--sweep core|kernel]
//
// --mprotect and --swarm measure with those options on (as `test` takes
// them), so a configuration can be measured before it becomes the default;
// --sweep kernel measures the defaults' second sweep alone (run_options::
// sweeps), --sweep core the first (the same as neither flag).
//
// A cell (strategy, property, granule) is flawed when some seed finds a
// failure within C cases; the strategies' names are never consulted to
// decide it.  For each flawed cell it prints how many seeds found the
// failure, the median and the worst cases-to-first-failure, and the median
// and worst seconds of the whole run (shrinking included); for a cell some
// seed did not break within C cases it prints how many missed.  Holding
// cells are listed by count only.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "impl/strategy.h"
#include "properties/defaults.h"
#include "properties/runner.h"

namespace {

using namespace ptespec;

struct args {
	int seeds = 100;
	int cap = 20000;
	std::vector<granule> grans;
	std::vector<std::string> strategies;
	std::vector<property> properties;
	bool mprotect = false;
	bool swarm = false;
	run_options::sweeps sweep = run_options::sweeps::as_given;
};

[[noreturn]] void usage(const std::string& why)
{
	std::fprintf(stderr, "ptespec_bench_defaults: %s\n", why.c_str());
	std::exit(2);
}

int positive(const char* flag, const char* v)
{
	char* end = nullptr;
	const long n = std::strtol(v, &end, 10);
	if (!v[0] || *end || n < 1 || n > 10000000)
		usage(fmt::format("{} '{}': expected a number from 1 to 10000000", flag, v));
	return static_cast<int>(n);
}

args parse(int argc, char** argv)
{
	args a;
	for (int i = 1; i < argc; i++) {
		const std::string f = argv[i];
		if (f == "--mprotect" || f == "--swarm") {
			(f == "--mprotect" ? a.mprotect : a.swarm) = true;
			continue;
		}
		if (i + 1 >= argc)
			usage(fmt::format("{}: expected a value after it", f));
		const char* v = argv[++i];
		if (f == "--sweep") {
			const std::string w = v;
			if (w != "core" && w != "kernel")
				usage(fmt::format("--sweep '{}': expected core or kernel", w));
			a.sweep = w == "core" ? run_options::sweeps::core : run_options::sweeps::kernel;
		} else if (f == "--seeds")
			a.seeds = positive("--seeds", v);
		else if (f == "--cap")
			a.cap = positive("--cap", v);
		else if (f == "--granule")
			try {
				a.grans.push_back(parse_granule(v));
			} catch (const std::exception& e) {
				usage(e.what());
			}
		else if (f == "--strategy")
			a.strategies.push_back(v);
		else if (f == "--property") {
			const auto p = parse_property(v);
			if (!p)
				usage(fmt::format("--property '{}': expected a property name", v));
			a.properties.push_back(*p);
		} else
			usage(fmt::format("unknown option '{}'; expected --seeds, --cap, --granule, --strategy, "
					  "--property, --mprotect, --swarm or --sweep",
					  f));
	}
	if (a.grans.empty())
		a.grans = {granule::k4, granule::k16, granule::k64};
	if (a.properties.empty())
		a.properties.assign(all_properties.begin(), all_properties.end());
	return a;
}

template <class T>
T quantile(std::vector<T> v, double q)
{
	std::sort(v.begin(), v.end());
	return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

} // namespace

int main(int argc, char** argv)
{
	const args a = parse(argc, argv);
	std::vector<strategy*> chosen;
	for (const std::string& n : a.strategies)
		try {
			chosen.push_back(&registry::global().get(n));
		} catch (const std::exception& e) {
			usage(e.what());
		}
	if (chosen.empty())
		chosen = registry::global().all();
	fmt::print("seeds 1..{}, at most {} cases per run{}{}{}\n", a.seeds, a.cap, a.mprotect ? ", --mprotect" : "",
		   a.swarm ? ", --swarm" : "",
		   a.sweep == run_options::sweeps::as_given ? "" : fmt::format(", --sweep {}", to_string(a.sweep)));
	fmt::print("{:<5} {:<17} {:<12} {:>7} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6}\n", "gran", "strategy", "property",
		   "failed", "med.cases", "max.cases", "med.s", "max.s", "default", "margin");
	std::fflush(stdout);
	std::size_t holding = 0;
	for (granule g : a.grans)
		for (strategy* s : chosen)
			for (property p : a.properties) {
				std::vector<int> cases;
				std::vector<double> secs;
				int missed = 0;
				for (int seed = 1; seed <= a.seeds; seed++) {
					run_options o;
					o.gran = g;
					o.seed = static_cast<std::uint64_t>(seed);
					o.cases = a.cap;
					o.mprotect = a.mprotect;
					o.swarm = a.swarm;
					o.sweep = a.sweep;
					const auto t0 = std::chrono::steady_clock::now();
					const property_result r = run_property(*s, p, o);
					const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
					if (r.v != verdict::fails) {
						missed++;
						// A cell no early seed breaks is very likely sound:
						// do not spend the whole budget proving it.
						if (cases.empty() && seed >= 3)
							break;
						continue;
					}
					cases.push_back(r.cases);
					secs.push_back(t);
				}
				if (cases.empty()) {
					holding++;
					continue;
				}
				// The default's margin over the worst seed: below 1, some
				// seed needs more cases than the default gives.
				const int dflt = default_cases(g, p);
				fmt::print("{:<5} {:<17} {:<12} {:>3}/{:<3} {:>8} {:>8} {:>8.2f} {:>8.2f} {:>8} {:>6.2f}{}\n",
					   to_string(g), s->info().name, to_string(p), cases.size(), cases.size() + missed,
					   quantile(cases, 0.5), quantile(cases, 1.0), quantile(secs, 0.5), quantile(secs, 1.0),
					   dflt, static_cast<double>(dflt) / quantile(cases, 1.0),
					   missed ? fmt::format("  ({} seeds found nothing in {} cases)", missed, a.cap) : "");
				std::fflush(stdout);
			}
	fmt::print("{} cells never failed (first {} seeds x {} cases)\n", holding, std::min(a.seeds, 3), a.cap);
	return 0;
}
