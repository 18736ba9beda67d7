// Solver time per proof obligation, for mainline at each granule (CONT_PTES
// 16, 32, 128), each obligation in a process of its own as `ptespec prove`
// runs it (proofs/isolate.h), so no run inherits another's Z3 state.
//
//   BM_obligation/<name>/cont<N>     the obligation as `ptespec prove` runs it
//   BM_batch_or_range/cont<N>        batch-or over the one range [0, CONT_PTES)
//                                    (the "batch-or at 128" target)
//
// Counters: paths (run on the symbolic machine), run_s (running the
// strategy on them), solve_s (the final solver questions); the time is the
// whole obligation, wall clock, including the child process.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "impl/strategy.h"
#include "proofs/catalogue.h"
#include "proofs/isolate.h"

namespace ptespec {

namespace {

void report(benchmark::State& state, const std::vector<proofs::proof_result>& rs)
{
	if (rs.size() != 1) {
		state.SkipWithError("expected one result");
		return;
	}
	const proofs::proof_result& r = rs.front();
	if (r.verdict != proofs::proof_verdict::proved)
		state.SkipWithError((r.obligation + " was not proved: " + r.detail).c_str());
	state.counters["paths"] = static_cast<double>(r.paths);
	state.counters["run_s"] = r.run_seconds;
	state.counters["solve_s"] = r.solve_seconds;
}

std::vector<proofs::proof_result> prove_one(const proofs::prove_options& o, granule g)
{
	std::vector<strategy*> mainline{&registry::global().get("mainline")};
	return proofs::prove_all(mainline, {g}, o);
}

void BM_obligation(benchmark::State& state, std::string prefix, granule g)
{
	proofs::prove_options o;
	o.only = {prefix};
	o.schedule.jobs = 1;
	std::vector<proofs::proof_result> rs;
	for (auto _ : state)
		rs = prove_one(o, g);
	report(state, rs);
}

void BM_batch_or_range(benchmark::State& state, granule g)
{
	proofs::prove_options o;
	o.only = {"batch-or/"};
	o.schedule.jobs = 1;
	o.range_first = 0;
	o.range_nr = geometry::of(g).cont_ptes;
	std::vector<proofs::proof_result> rs;
	for (auto _ : state)
		rs = prove_one(o, g);
	report(state, rs);
}

void register_all()
{
	const std::pair<granule, const char*> grans[] = {
		{granule::k4, "cont16"}, {granule::k64, "cont32"}, {granule::k16, "cont128"}};
	for (const auto& [g, name] : grans) {
		const std::pair<const char*, const char*> obligations[] = {{"batch-or/", "batch-or"},
									   {"per-call/", "per-call-one-call"},
									   {"no-loss/", "no-loss-one-call"},
									   {"exit/run", "exit-run"},
									   {"exit/batch", "exit-batch"}};
		for (const auto& [prefix, label] : obligations)
			benchmark::RegisterBenchmark(
				(std::string("BM_obligation/") + label + "/" + name).c_str(), BM_obligation,
				std::string(prefix), g)
				->Unit(benchmark::kSecond)
				->UseRealTime()
				->Iterations(1);
		benchmark::RegisterBenchmark((std::string("BM_batch_or_range/") + name).c_str(), BM_batch_or_range, g)
			->Unit(benchmark::kSecond)
			->UseRealTime()
			->Iterations(1);
	}
}

} // namespace

} // namespace ptespec

int main(int argc, char** argv)
{
	ptespec::register_all();
	benchmark::Initialize(&argc, argv);
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
