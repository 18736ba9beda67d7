// Sampled cases per strategy and property when no case count is given,
// shared by `test`, `check` and `report`.
//
// Each number is set from a measurement (bench/bench_defaults, the table in
// docs/performance.md): for every builtin (strategy, property) cell that
// fails, the cases to the first failure over 100 seeds; each default is the
// smallest multiple of 1000 at least twice the worst seed of its granule
// (and of lockless or the other properties), so each of those cells fails on
// every one of the 100 seeds with room to spare.  A seed's cases to the first
// failure do not depend on the budget (RapidCheck's size grows with the case
// index), so a default above the worst seed fails the cell on each seed.
//
// lockless has a count of its own: it is the one property judged through
// lockless reads interleaved with a locked writer, and a torn read needs the
// writer's clears and the reader's pass over one run to meet, which takes
// the most cases where the run is longest (CONT_PTES 128 at 16K).  Giving
// every property that count would make the cells that hold run several
// times longer for nothing.
#pragma once

#include "model/geometry.h"
#include "model/property.h"

namespace ptespec {

struct default_budget {
	int cases;	    // every property but lockless
	int lockless_cases;
};

constexpr default_budget default_budget_of(granule g)
{
	switch (g) {
	case granule::k4: return {9000, 10000};
	case granule::k16: return {11000, 20000};
	case granule::k64: return {7000, 11000};
	}
	return {11000, 20000};
}

constexpr int default_cases(granule g, property p)
{
	const default_budget b = default_budget_of(g);
	return p == property::lockless ? b.lockless_cases : b.cases;
}

// The case count of one run: `asked` when one was given (> 0), else the
// default.
constexpr int cases_for(granule g, property p, int asked) { return asked > 0 ? asked : default_cases(g, p); }

} // namespace ptespec
