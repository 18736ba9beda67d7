// What checking costs and how fast it finds failures.
//
//   BM_exit_teardown/bare     the callers and a strategy on a bare table
//   BM_exit_teardown/checked  the same with the checker and the (idle)
//                             hardware agent attached: the ratio is the
//                             harness overhead
//   BM_property_cases         RapidCheck cases per second, mainline, no-loss
//   BM_time_to_failure        one full run_property until the first failure,
//                             a fresh seed per iteration (median = the figure)
#include <benchmark/benchmark.h>

#include <optional>

#include "impl/strategy.h"
#include "model/pte.h"
#include "properties/harness.h"
#include "properties/runner.h"

namespace ptespec {
namespace {

constexpr std::uint64_t user_rw = PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_PXN | PTE_UXN |
				  PTE_RDONLY | PTE_WRITE | PTE_AF;

// Map every folio of the world and tear it all down, as exit does.
void one_exit(harness& h)
{
	const world_layout& w = h.layout();
	for (std::size_t f = 0; f < w.folios.size(); f++)
		h.fault_map(w.folio_first_page(f), w.folios[f].nr_pages, user_rw);
	h.zap(0, w.nr_entries, true, true, false);
}

void BM_exit_teardown(benchmark::State& st, const char* name, bool bare)
{
	strategy& s = registry::global().get(name);
	const world_layout w = world_layout::make(granule::k4);
	harness h(s, w, std::nullopt, nullptr, bare);
	const std::vector<hw_plan_event> none;
	h.begin_command(none);
	std::uint64_t calls = 0;
	for (auto _ : st) {
		const std::uint64_t before = h.calls();
		one_exit(h);
		calls += h.calls() - before;
	}
	st.counters["calls/s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}

void BM_property_cases(benchmark::State& st)
{
	strategy& s = registry::global().get("mainline");
	run_options o;
	o.cases = 100;
	std::int64_t cases = 0;
	std::uint64_t calls = 0;
	for (auto _ : st) {
		o.seed++;
		const property_result r = run_property(s, property::no_loss, o);
		cases += r.cases;
		calls += r.calls;
	}
	st.counters["cases/s"] = benchmark::Counter(static_cast<double>(cases), benchmark::Counter::kIsRate);
	st.counters["checked calls/s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}

void BM_time_to_failure(benchmark::State& st, const char* name, property p)
{
	strategy& s = registry::global().get(name);
	run_options o;
	o.cases = 1000;
	static std::uint64_t seed = 0;
	for (auto _ : st) {
		o.seed = ++seed;	// a fresh seed per repetition
		const property_result r = run_property(s, p, o);
		if (r.v != verdict::fails)
			st.SkipWithError("no failure found within 1000 cases");
	}
}

BENCHMARK_CAPTURE(BM_exit_teardown, mainline_bare, "mainline", true);
BENCHMARK_CAPTURE(BM_exit_teardown, mainline_checked, "mainline", false);
BENCHMARK(BM_property_cases)->Unit(benchmark::kMillisecond);

} // namespace

// The failing pairs are registered at run time from what the tool finds,
// so the list follows the verdicts rather than a hand-kept copy.
void register_time_to_failure()
{
	static std::vector<std::string> names;
	for (strategy* s : registry::global().all()) {
		for (property p : all_properties) {
			run_options o;
			o.cases = 200;
			if (run_property(*s, p, o).v != verdict::fails)
				continue;
			names.push_back(s->info().name + "/" + std::string(to_string(p)));
			const char* sname = s->info().name.c_str();
			benchmark::RegisterBenchmark(("BM_time_to_failure/" + names.back()).c_str(),
						     [sname, p](benchmark::State& st) { BM_time_to_failure(st, sname, p); })
				->Unit(benchmark::kMillisecond)
				->Iterations(1)
				->Repetitions(9)
				->ReportAggregatesOnly(true);
		}
	}
}

} // namespace ptespec

int main(int argc, char** argv)
{
	// Finding the failing pairs takes a while: only when they are asked for.
	bool ttf = true;
	for (int i = 1; i < argc; i++)
		if (std::string(argv[i]).starts_with("--benchmark_filter=") &&
		    std::string(argv[i]).find("failure") == std::string::npos)
			ttf = false;
	benchmark::Initialize(&argc, argv);
	if (ttf)
		ptespec::register_time_to_failure();
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
