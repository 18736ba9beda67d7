// One parser per kind of flag value, shared by every command, so that a
// value means the same thing in each and a bad one is refused in the same
// words: one line naming the flag, the text given and what was expected
// ("--cases 'abc': expected a whole number from 1 to 1000000").  Each
// throws usage_error.
//
// The text is quoted when it is not a number of the kind asked for; a
// number out of range is shown as given ("--hw-events 9: expected ...").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "explore/scenario.h"
#include "impl/strategy.h"
#include "mm/caller.h"
#include "model/geometry.h"
#include "model/hardware_options.h"
#include "properties/runner.h"

namespace CLI {
class App;
class Option;
class ParseError;
} // namespace CLI

namespace ptespec::cli {

// The limits of the size flags several commands share, stated in their
// messages.  --cases: a million cases of one property take minutes already.
inline constexpr std::uint64_t max_cases = 1'000'000;
// --folios: the cost model's table (explore/cost.cpp refuses more).
inline constexpr std::uint64_t max_folios = 65536;

// Decimal or 0x-hex, 0 to 2^64-1: no sign, no leading zero (C reads 010 as
// octal 8), nothing empty.
std::uint64_t parse_seed(std::string_view flag, std::string_view text);

// A whole decimal number from lo to hi (no sign, no leading zero, no
// exponent); `unit` ("cases", "ms") is said in the message when given.
std::uint64_t parse_count(std::string_view flag, std::string_view text, std::uint64_t lo, std::uint64_t hi,
			  std::string_view unit = "");

// Seconds, a finite decimal number from 0 to hi (never NaN or infinite).
double parse_seconds(std::string_view flag, std::string_view text, double hi, std::string_view zero_means = "");

// 4k, 16k or 64k (any case); parse_granules also takes `all` among them.
granule parse_granule_flag(std::string_view flag, std::string_view text);
std::vector<granule> parse_granules(std::string_view flag, const std::vector<std::string>& texts);

// The hardware the machine models: a comma-separated list of the names in
// model/hardware_options.h's hardware_features ("bbml2"), each once, or
// `default` alone.
hardware_options parse_hardware(std::string_view flag, std::string_view text);

// Declares --hardware on a command that runs strategies.
CLI::Option* add_hardware(CLI::App& sub, hardware_options& hw);

// Which sweeps a command's sampled cells make (run_options::sweeps):
// --sweep core|kernel|both, or one sweep shaped by --mprotect and --swarm.
struct sweep_flags {
	std::optional<run_options::sweeps> sweep;	// --sweep
	bool mprotect = false;	// --mprotect
	bool swarm = false;	// --swarm

	// --mprotect or --swarm: one sweep as given; else --sweep's, by
	// default both.  --sweep beside either is a usage_error.
	run_options::sweeps resolve() const;
	// Sets o's sweep, mprotect and swarm.
	void apply(run_options& o) const;
	// ", with mprotect, swarm testing" for a sweep as given; "" otherwise.
	std::string with_text() const;
	// " --mprotect --swarm", " --sweep core": the flags that ask the same.
	std::string flags() const;
};

// Declares --sweep, --mprotect and --swarm on a command that samples the
// callers.
void add_sweep_flags(CLI::App& sub, sweep_flags& f);

// The lines under a sampled run's seed line: what its sweeps were
// ("sampled in two sweeps: ..."), then not_run_line's; each wrapped,
// indented 2.
std::string sampled_lines(const sweep_flags& f, const hardware_options& hw);

// What the sampled cases of a run did not exercise -- "not run: the
// mprotect, NUMA-hinting, guard-page, MADV_COLD, mremap and migration callers (--sweep both),
// a single CPU (--hardware one-cpu), ..." -- or "" when everything ran.  A
// `holds` speaks only for what ran.
std::string not_run_line(const sweep_flags& f, const hardware_options& hw);

// Declares --jobs N, 1 to 64: how many child processes run `what` at once
// (0, when it is not given, means one per core).  More would not fit one
// machine's memory: a prover's child holds a Z3 context.
inline constexpr std::uint64_t max_jobs = 64;
CLI::Option* add_jobs(CLI::App& sub, unsigned& jobs, std::string_view what);

// A registered strategy (after the plugins are loaded: parsed in the
// command's action, not while the command line is read).
strategy& parse_strategy(std::string_view flag, std::string_view text);

// A registered caller variant (mm/caller.h), looked up after the plugins
// load like a strategy.
const mm::caller& parse_caller(std::string_view flag, std::string_view text);

// Declares --caller on a command that runs callers; `name` stays empty
// when it is not given (core-mm).  caller_of resolves it.
CLI::Option* add_caller(CLI::App& sub, std::string& name);
const mm::caller& caller_of(const std::string& name);

// One of `known`, exactly.
std::string parse_choice(std::string_view flag, std::string_view text, const std::vector<std::string>& known);

// A caller scenario, by the names of explore/scenario.h, the same in every
// command; `dontneed` is another name for `munmap` (the same zap, full=0,
// over whole runs).  A name another command runs but this one does not is
// refused naming the ones `allowed` here (after `leading`, e.g. "all") and
// `why_not`.
explore::scenario parse_scenario_flag(std::string_view flag, std::string_view text,
				      const std::vector<explore::scenario>& allowed, std::string_view why_not = "",
				      std::string_view leading = "");

// Declaring options whose value goes through a parser as the command line
// is read, so a bad one is refused before plugins load or anything runs.
// `take` gets the text (never empty: refused here, with the flag's type).
// A once-only option given twice is refused too: CLI11 would keep one.
CLI::Option* add_once(CLI::App& sub, const std::string& flag, std::function<void(const std::string&)> take,
		      const std::string& help, const std::string& type);
CLI::Option* add_repeatable(CLI::App& sub, const std::string& flag, std::function<void(const std::string&)> take,
			    const std::string& help, const std::string& type);

// The command line before CLI11 reads it: `--flag=` with nothing after the
// '=' is refused (CLI11 would take the next word as its value).
void reject_empty_values(const CLI::App& app, int argc, char** argv);

// CLI11's own parse errors (a value missing, a required option absent) in
// ptespec's words.
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e);

} // namespace ptespec::cli
