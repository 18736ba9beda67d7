// The verdict table `check` prints and `report` writes: for every chosen
// granule, strategy and property, the sampled verdict and the proofs' word
// folded into one cell.  One function computes it, so the two commands can
// never disagree on the same seed and cases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/geometry.h"
#include "model/history.h"
#include "proofs/catalogue.h"
#include "properties/defaults.h"
#include "properties/runner.h"

namespace ptespec::cli {

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
	std::string proof_covers;	// for "partly proved": what the proofs covered
	bool sampled_only = false;	// the strategy cannot run on symbolic words: no proof attempted
	// For a sampled failure that was proved: the proofs' agreement with it
	// (proofs::judge_agreement): "agrees", "undecided: ...", "outside: ..."
	// ("" when not judged; a disagreement never reaches a cell: exit 3).
	std::string agreement;
	outcome out = outcome::passed;
	std::string word;	// "holds+partly", "fails+refuted", ...
};

struct verdict_table {
	std::vector<cell> cells;	// granule-major, then strategy, then property
	std::vector<proofs::proof_result> proofs;
	std::size_t counts[4] = {0, 0, 0, 0};	// by outcome
	std::size_t laws_proved = 0, laws_refuted = 0, laws_unknown = 0;	// the helper algebra

	std::size_t failed() const { return counts[1] + laws_refuted; }
	std::size_t undecided() const { return counts[2] + laws_unknown; }
};

// Proves, then samples, every cell.  `progress` (may be empty) hears a short
// line of what is running.
// `mprotect` adds the mprotect caller to the sampled commands (the proofs
// are unchanged: they name the calls they cover).
// Under hardware other than the default, or a caller other than core-mm,
// nothing is proved (the proofs model the default hardware and core-mm's
// calls only): every cell is its sampled verdict, marked sampled only.
verdict_table compute_verdicts(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
			       const proofs::prove_options& o, int cases, std::uint64_t seed,
			       const std::function<void(const std::string&)>& progress, const hardware_options& hw = {},
			       const mm::caller& via = mm::core_mm(), bool mprotect = false);

// The short word of a cell's proof, as the table prints it.
std::string short_proof_word(const std::string& proof);
// "legend:" and one line per word in `used`.
std::string legend(const std::set<std::string>& used);
// The words one cell uses (for the legend).
void add_words(std::set<std::string>& used, const cell& c);

// --- the JSON documents (docs/json.md, docs/json-schema.json) ---

// The version every --json document carries as "schema"; raised when a
// field changes meaning or goes away, not when one is added.
inline constexpr int json_schema = 1;

// A sampled counterexample (test, check): the shrunk commands, each call
// with its result, hardware events and the runs it changed, the violation
// and the reproduce line.
nlohmann::json sampled_counterexample_json(const property_result& r);
// A recorded history as {"initial", "calls": [{"call", "result", "before",
// "after", "hw", ...}]}: what explore's violations and the proofs'
// replayed refutations show.
nlohmann::json history_json(const history& h);
// One proof result (prove, check), with its counterexample when refuted.
nlohmann::json proof_json(const proofs::proof_result& r);

} // namespace ptespec::cli
