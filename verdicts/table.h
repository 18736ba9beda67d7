// The verdict table `check` prints and `report` writes: for every chosen
// granule, strategy and property, the sampled verdict and the proofs' word
// folded into one cell.  One function computes it, so the two commands can
// never disagree on the same seed and cases, and a report is written from
// the very table a check printed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/geometry.h"
#include "model/hardware_options.h"
#include "mm/caller.h"
#include "proofs/catalogue.h"
#include "properties/defaults.h"
#include "properties/runner.h"

namespace ptespec::verdicts {

// "5000 cases per pair" when --cases was given, else the defaults of the
// granules (properties/defaults.h): "cases per pair: 4k 10000, 16k 5000
// (lockless 20000) (the defaults)".
std::string cases_text(const std::vector<granule>& grans, int asked);

enum class outcome { passed, failed, undecided, not_applicable };

// One cell: the sampled verdict and the proofs' word, and what they add up
// to.  A refutation or a failing case fails the cell whatever the other
// says; an unknown proof or a property never exercised leaves it undecided.
struct cell {
	property_result test;
	granule gran = granule::k4;
	std::string proof;	// "", "proved", "partly proved", "refuted", "unknown"
	proofs::coverage_text proof_covers;	// for "partly proved": what the proofs covered, and why no more
	bool sampled_only = false;	// no proof was attempted: the cell is its sampled verdict alone
	// For a sampled failure that was proved: the proofs' agreement with it
	// (proofs::judge_agreement): "agrees", "undecided: ...", "outside: ..."
	// ("" when not judged; a disagreement never reaches a cell: exit 3).
	std::string agreement;
	outcome out = outcome::passed;
	std::string word;	// "holds+partly", "fails+refuted", "holds (sampled only)", ...
};

struct verdict_table {
	std::vector<cell> cells;	// granule-major, then strategy, then property
	std::vector<proofs::proof_result> proofs;
	std::size_t counts[4] = {0, 0, 0, 0};	// by outcome
	std::size_t laws_proved = 0, laws_refuted = 0, laws_unknown = 0;	// the helper algebra

	std::size_t failed() const { return counts[1] + laws_refuted; }
	std::size_t undecided() const { return counts[2] + laws_unknown; }
};

// What a table is asked for, beside the strategies and granules.
struct table_options {
	proofs::prove_options proof;	// proof.schedule.jobs: cells and obligations at once (0: one per core)
	int cases = 0;	// 0: the granule's default
	std::uint64_t seed = 1;
	hardware_options hw;
	const mm::caller* via = nullptr;	// nullptr: core-mm
	run_options::sweeps sweep = run_options::sweeps::as_given;	// the sweeps of each cell
	bool mprotect = false;	// a sweep as given: the mprotect caller among the sampled commands
	bool swarm = false;	// a sweep as given: swarm testing (run_options::swarm)
};

// Proves, then samples, every cell.  `progress` (may be empty) hears a short
// line of what is running.  The proofs model core-mm's calls on hardware that
// manages access/dirty itself: under other hardware or another caller nothing
// is proved, and every cell is its sampled verdict, marked sampled only.
verdict_table compute_verdicts(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
			       const table_options& t, const std::function<void(const std::string&)>& progress);

// Whether check proves s: a kernel tree only for the obligations
// --obligation names (see table.cpp).
bool proves(const strategy& s, const proofs::prove_options& o);

// The short word of a cell's proof, as the table prints it.
std::string short_proof_word(const std::string& proof);

} // namespace ptespec::verdicts
