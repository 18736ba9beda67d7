// Runs one property against one strategy: RapidCheck generates caller
// command sequences with racing hardware, the checker judges every call,
// and a failure comes back shrunk, replayed and printed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"
#include "model/property.h"

namespace ptespec {

enum class verdict { holds, fails, not_applicable };
std::string_view to_string(verdict v);

struct run_options {
	granule gran = granule::k4;
	std::uint64_t seed = 1;
	int cases = 100;
	int max_size = 40;	// commands per case grow up to about this
	bool adversarial = false;
};

// One call of a counterexample, ready to print or serialise.
struct ce_call {
	std::size_t command = 0;	// index of the caller action it belongs to
	std::string call;	// e.g. "ptep_get(#3)"
	std::string result;	// e.g. "0x... young+dirty", or ""
	std::vector<std::string> hw;	// hardware events during the call
	std::vector<std::pair<std::string, std::string>> runs;	// ruler before -> after, runs it changed
};

struct counterexample {
	std::vector<std::string> commands;	// the shrunk caller actions
	std::vector<ce_call> calls;	// every call up to the violation
	std::string initial;	// rulers of the initial table
	violation v;
	std::string reproduce;	// one-line command
};

struct property_result {
	std::string strategy;
	property prop = property::no_loss;
	verdict v = verdict::holds;
	int cases = 0;	// cases run (successful ones when it holds)
	std::uint64_t calls = 0;	// checked calls over all cases
	counterexample ce;	// when it fails
	// RapidCheck's classification of the cases (RC_CLASSIFY tags -> count),
	// to show that the edges are exercised.
	std::vector<std::pair<std::string, int>> distribution;
};

// Whether the strategy has the calls the property judges.
bool property_applicable(const strategy& s, property p);

property_result run_property(strategy& s, property p, const run_options& o);

// The counterexample as text: commands, calls, hardware events and the
// rulers of the runs each call changed; ends with the reproduce line.
std::string format_counterexample(const property_result& r);

} // namespace ptespec
