// How the CLI prints a verdict table (verdicts/table.h) and the JSON
// documents of its commands.
#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "model/history.h"
#include "proofs/catalogue.h"
#include "properties/runner.h"
#include "verdicts/table.h"

namespace ptespec::cli {

using verdicts::cases_text;
using verdicts::cell;
using verdicts::compute_verdicts;
using verdicts::outcome;
using verdicts::short_proof_word;
using verdicts::table_options;
using verdicts::verdict_table;

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
