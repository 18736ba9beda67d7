// Each strategy's exit teardown timed natively: a bare machine (no
// observer, no hardware, no harness), so the figure is the strategy's own
// work on a real table and the counters beside it are the cost model's.
//
//   BM_exit/<strategy>   map 256 64K folios (untimed), then core-mm's exit
//                        walk (mm/callers.h): ptep_get each entry, clear a
//                        folded run or a folio's batch with
//                        get_and_clear_full_ptes, one final flush.
//
// reads/writes/atomics/tlbis are per iteration; divide the time by them to
// relate `ptespec cost` counts to nanoseconds on this host.
#include <benchmark/benchmark.h>

#include "explore/scenario.h"
#include "impl/strategy.h"
#include "mm/callers.h"
#include "model/pte.h"

namespace ptespec {

namespace {
constexpr std::size_t folios = 256;

call_result invoke(strategy& s, machine& m, call c) { return s.invoke(m, c); }

// The callers' calls straight on the machine: no checker, no hardware.
class bare_sink final : public mm::call_sink {
public:
	bare_sink(strategy& s, machine& m) : s_(s), m_(m) {}
	bool implements(call_kind k) const override { return s_.implements(k); }
	std::optional<call_result> run(const call& c) override
	{
		if (!s_.implements(c.kind))
			return std::nullopt;
		return invoke(s_, m_, c);
	}
	void flush_range(std::size_t first, std::size_t nr) override { m_.flush_tlb_range(first, nr); }
	std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte) override
	{
		return s_.pte_batch_hint(g, i, pte);
	}

private:
	strategy& s_;
	machine& m_;
};

// zap_pte_range for exit (mm/callers.h), over the whole table.
void exit_walk(strategy& s, machine& m)
{
	bare_sink sink(s, m);
	mm::zap_options o;
	o.full = true;
	mm::zap_pte_range(sink, {m.geo(), m.folios()}, 0, m.size(), o);
}

} // namespace

void BM_exit(benchmark::State& st, strategy* s)
{
	const world_layout w = explore::scenario_layout(geometry::of(granule::k4), folios);
	cost_counters total;
	for (auto _ : st) {
		st.PauseTiming();
		machine m(w.geo, w.nr_entries);
		m.set_folios(w.folios);
		for (const folio_extent& f : w.folios)
			invoke(*s, m,
			       {call_kind::set_ptes, static_cast<std::size_t>(f.first_pfn - w.pfn_base),
				static_cast<std::size_t>(f.nr_pages), false,
				pfn_pte(f.first_pfn, pte_mkdirty(explore::touched_prot), w.geo), 0});
		m.cost() = cost_counters{};
		st.ResumeTiming();
		exit_walk(*s, m);
		benchmark::DoNotOptimize(m.table().data());
		st.PauseTiming();
		const cost_counters& c = m.cost();
		total.reads += c.reads;
		total.writes += c.writes;
		total.atomics += c.atomics;
		total.tlbi_range += c.tlbis();
		st.ResumeTiming();
	}
	const auto per = benchmark::Counter::kAvgIterations;
	st.counters["reads"] = benchmark::Counter(static_cast<double>(total.reads), per);
	st.counters["writes"] = benchmark::Counter(static_cast<double>(total.writes), per);
	st.counters["atomics"] = benchmark::Counter(static_cast<double>(total.atomics), per);
	st.counters["tlbis"] = benchmark::Counter(static_cast<double>(total.tlbi_range), per);
	st.counters["pages/s"] = benchmark::Counter(static_cast<double>(st.iterations() * w.nr_entries),
						    benchmark::Counter::kIsRate);
}

} // namespace ptespec

// Registered from main, not by static initialisation: the strategies
// register themselves that way too, in an order no TU controls.
int main(int argc, char** argv)
{
	for (ptespec::strategy* s : ptespec::registry::global().all())
		benchmark::RegisterBenchmark(("BM_exit/" + s->info().name).c_str(), ptespec::BM_exit, s)
			->Unit(benchmark::kMicrosecond);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
