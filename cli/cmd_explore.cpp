// ptespec explore: one strategy, bounded scenarios of the core-mm callers
// (every one unless --scenario names one), every placement of up to K
// hardware events and every chosen initial young/dirty state (explore/).
// Prints, per scenario, what was searched and what it found; then one
// verdict scoped to what was covered; each violation as a history with
// rulers that the checker confirms twice.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>


#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "cli/verdicts.h"
#include "explore/explorer.h"
#include "model/errors.h"
#include "model/transcript.h"

namespace ptespec::cli {

namespace {

struct explore_cli {
	std::optional<std::string> strategy;
	std::string scenario = "all";
	std::string granule = "4k";
	std::size_t cont_ptes = 0;
	int hw_events = 2;
	std::string initial = "sparse";
	unsigned initial_flagged = 1;
	bool no_reduce = false;
	bool all_violations = false;
	double time_limit = 0;
	hardware_options hw;
	std::string caller;	// empty: core-mm
	bool json = false;
};

std::vector<explore::scenario> chosen_scenarios(const std::string& name)
{
	using namespace explore;
	if (name == "all")
		return explored_scenarios();
	std::vector<scenario> allowed = explored_scenarios();
	allowed.push_back(scenario::mprotect);	// on request only
	return {parse_scenario_flag("--scenario", name, allowed,
				    "munmap is cost's zap over whole runs; explore's zaps with full=0 are dontneed-start, "
				    "-end and -inner",
				    "all")};
}

// The most hardware events a search may place with no --time-limit.
constexpr int max_unbudgeted_events = 3;

// The most initial states a search may start from: what --initial all
// allows (4^8, tables of at most 8 entries).  More are refused before the
// search starts: each state is a search of its own.
constexpr std::uint64_t max_initial_states = 65536;

// How many initial states --initial sparse gives a table of n entries: every
// choice of at most f flagged entries, each young, dirty or both, plus the
// three uniform tables.  Saturates past the limit.
std::uint64_t sparse_states(std::size_t n, std::size_t f)
{
	std::uint64_t total = 0, choose = 1, pow3 = 1;
	for (std::size_t k = 0; k <= std::min(f, n); k++) {
		if (k > 0) {
			choose = choose * (n - k + 1) / k;
			pow3 *= 3;
		}
		const long double term = static_cast<long double>(choose) * static_cast<long double>(pow3);
		if (term > max_initial_states || choose > max_initial_states)
			return max_initial_states + 1;
		total += static_cast<std::uint64_t>(term);
		if (total > max_initial_states)
			return total;
	}
	return total + (f < n ? 3 : 0);
}

// The initial states, said short enough for the verdict line.
std::string initial_scope(const explore::explore_options& o)
{
	if (o.initial == explore::initial_set::all)
		return "all initial states";
	return fmt::format("sparse initial states (<={} flagged)", o.initial_flagged);
}

std::string initial_detail(const explore::explore_result& r)
{
	if (r.options.initial == explore::initial_set::all)
		return "initial states: all (4^N for a scenario of N entries)";
	return fmt::format("initial states: <={} flagged entr{}, plus the 3 uniform tables", r.options.initial_flagged,
			   r.options.initial_flagged == 1 ? "y" : "ies");
}

// `|........########|`: the caller's range over the scenario's runs.
std::string range_ruler(const explore::explore_result& r)
{
	const std::size_t c = r.options.geo.cont_ptes;
	std::string out = "|";
	for (std::size_t k = 0; k < r.entries; k++) {
		out += k >= r.covered.first && k < r.covered.last ? '#' : '.';
		if ((k + 1) % c == 0)
			out += '|';
	}
	return out;
}

std::string table_text(const explore::explore_result& r)
{
	const std::size_t runs = r.entries / r.options.geo.cont_ptes;
	std::string t = fmt::format("#{}-#{} of {} run{} of CONT_PTES {}", r.covered.first, r.covered.last - 1, runs,
				    runs == 1 ? "" : "s", r.options.geo.cont_ptes);
	if (r.entries <= 64)
		t += " " + range_ruler(r);
	return t;
}

std::string status_text(const explore::explore_result& r)
{
	if (r.breach)
		return fmt::format("CALLER broke {}: nothing explored", mm::to_string(r.breach->b.rule));
	if (r.first)
		return fmt::format("VIOLATION {}", to_string(r.first->v.prop));
	return r.complete ? "no violation" : "INCOMPLETE (time limit)";
}

std::string names_of(const std::vector<explore::scenario>& v)
{
	std::string out;
	for (explore::scenario s : v)
		out += fmt::format("{}{}", out.empty() ? "" : ", ", to_string(s));
	return out;
}

std::string event_text(const explore::placed_event& e)
{
	return fmt::format("{} of #{} lands in #{} before point {}", to_string(e.kind), e.page, e.entry, e.point);
}

nlohmann::json violation_json(const explore::found_violation& f)
{
	nlohmann::json events = nlohmann::json::array();
	for (const auto& e : f.events)
		events.push_back({{"point", e.point},
				  {"entry", e.entry},
				  {"page", e.page},
				  {"kind", std::string(to_string(e.kind))}});
	const nlohmann::json h = history_json(f.h);
	return {{"property", std::string(to_string(f.v.prop))},
		{"page", f.v.page},
		{"message", f.v.message},
		{"events", events},
		{"history", f.lines},
		{"initial", h.at("initial")},
		{"calls", h.at("calls")},
		{"replay_confirms", f.replay_confirms},
		{"rerun_confirms", f.rerun_confirms}};
}

nlohmann::json scenario_json(const explore::explore_result& r)
{
	nlohmann::json props = nlohmann::json::array();
	for (property p : r.violated)
		props.push_back(std::string(to_string(p)));
	nlohmann::json j{{"scenario", std::string(to_string(r.options.scen))},
		{"calls", std::string(scenario_calls(r.options.scen))},
		{"runs", r.entries / r.options.geo.cont_ptes},
		{"entries", r.entries},
		{"range", {r.covered.first, r.covered.last}},
		{"initial_states", r.initial_states},
		{"hw_events", r.options.hw_events},
		{"explored", r.explored},
		{"pruned", r.pruned},
		{"infeasible", r.infeasible},
		{"seconds", r.seconds},
		{"complete", r.complete},
		{"status", r.breach ? "caller breach" : r.first ? "violation" : r.complete ? "no violation" : "incomplete"},
		{"violated", props},
		{"violation", r.first ? violation_json(*r.first) : nlohmann::json(nullptr)}};
	if (r.breach)
		j["caller_breach"] = mm::breach_text(*r.breach);
	return j;
}

// One scenario: what it found and how far it went, then (indented) what it
// ran: the calls and the range over the runs.
void print_scenario(const explore::explore_result& one)
{
	fmt::print("{}: {}; K={}, {} initial states, {} schedules, {} placements pruned{}; {:.2f} s\n",
		   to_string(one.options.scen), status_text(one), one.options.hw_events, one.initial_states, one.explored,
		   one.pruned, one.infeasible ? fmt::format(", {} infeasible", one.infeasible) : std::string(),
		   one.seconds);
	fmt::print("{}", wrapped_text(fmt::format("{}; {}", scenario_calls(one.options.scen), table_text(one)), 4));
}

// What the sweep decided, scoped to what it covered.
std::string verdict_line(const explore::sweep_result& r, const explore_cli& c)
{
	const explore::explore_options& o = r.options;
	const std::size_t total = r.runs.size() + r.not_run.size();
	const std::string scope = fmt::format("{} scenario{}, up to {} hardware event{}, {}{}", total,
					      total == 1 ? "" : "s", o.hw_events, o.hw_events == 1 ? "" : "s",
					      initial_scope(o), o.reduce ? "" : ", unreduced");
	std::vector<explore::scenario> bad;
	for (const auto& s : r.runs)
		if (s.first || s.breach)
			bad.push_back(s.options.scen);
	if (!bad.empty())
		return fmt::format("violation in {} of {}: {}{}", bad.size(), scope, names_of(bad),
				   r.complete() ? "" : " (and the search is INCOMPLETE: stopped by --time-limit)");
	if (!r.complete()) {
		std::size_t done = 0;
		for (const auto& s : r.runs)
			done += s.complete;
		return fmt::format("INCOMPLETE over {}: --time-limit {} s stopped the search in scenario {} ({} of {} "
				   "searched to the end{}): no violation in what was searched",
				   scope, c.time_limit, to_string(*r.stopped_in()), done, total,
				   r.not_run.size() > 1 ? fmt::format("; not started: {}",
								      names_of({r.not_run.begin() + 1, r.not_run.end()}))
							: "");
	}
	return fmt::format("exhaustive over {}: no violation", scope);
}

explore::explore_options explore_options_of(const explore_cli& c, const std::vector<explore::scenario>& which)
{
	using namespace explore;
	explore_options o;
	o.scen = which.front();
	o.geo = geometry::of(parse_granule(c.granule));
	o.hw = c.hw;
	o.caller = &caller_of(c.caller);
	if (c.cont_ptes)
		o.geo.cont_ptes = c.cont_ptes;
	o.scaled_runs = c.cont_ptes == 0;
	o.hw_events = c.hw_events;
	if (c.initial == "all")
		o.initial = initial_set::all;
	else if (c.initial != "sparse")
		throw usage_error(fmt::format("--initial '{}': expected sparse or all", c.initial));
	o.initial_flagged = c.initial_flagged;
	o.reduce = !c.no_reduce;
	o.all_violations = c.all_violations;
	o.time_limit = c.time_limit;
	return o;
}

// Refuses, before anything runs, a search that would run for days and say
// nothing meanwhile.
void refuse_endless(const explore_cli& c, const explore::explore_options& o,
		    const std::vector<explore::scenario>& which)
{
	using namespace explore;
	// The search grows as the power K: at K=3 one run of 16 entries took
	// about a minute, and each further event multiplies that by some 20.
	// Past 3 it needs a budget, not a wait of days with nothing to say.
	if (c.hw_events > max_unbudgeted_events && c.time_limit == 0)
		throw usage_error(fmt::format("--hw-events {}: expected 0 to {} without a time limit (each event more "
					      "multiplies the search by some 20), or a --time-limit S for up to 6",
					      c.hw_events, max_unbudgeted_events));
	for (scenario sc : which) {
		const std::size_t n = scenario_runs(sc) * (o.scaled_runs ? explored_cont_ptes(sc, o.geo) : o.geo.cont_ptes);
		if (o.initial == initial_set::all && n > 8)
			throw usage_error(fmt::format("--initial all: 4^{} initial states for {}'s {} entries; expected at most "
						      "8 entries ({} states): a smaller --cont-ptes, or --initial sparse",
						      n, to_string(sc), n, max_initial_states));
		if (o.initial == initial_set::sparse) {
			const std::uint64_t states = sparse_states(n, c.initial_flagged);
			if (states > max_initial_states)
				throw usage_error(fmt::format("--initial-flagged {}: {} initial states for {}'s {} entries; "
							      "expected at most {} (the 4^8 of --initial all): a smaller F",
							      c.initial_flagged,
							      states > max_initial_states + 1 ? std::to_string(states) : "more than 65536",
							      to_string(sc), n, max_initial_states));
		}
	}
}

// The progress line, and (for text) the heading and each scenario's lines
// as its search ends: a sweep takes minutes, and a reader at a pipe sees it
// move.  (JSON is one document, at the end.)
std::shared_ptr<progress_line> watch_sweep(const explore_cli& c, const strategy& s, explore::explore_options& o)
{
	auto current = std::make_shared<std::string>();
	auto where = std::make_shared<progress_line>("explore");
	o.scenario_begins = [current](explore::scenario sc) { *current = std::string(to_string(sc)); };
	o.progress = [current, where](std::uint64_t explored, std::uint64_t done, std::uint64_t states) {
		where->update(fmt::format("{}: {} schedules, initial state {}/{}", *current, explored, done, states));
	};
	if (c.json)
		return where;
	fmt::print("explore {} at {}{}{} (CONT_PTES {}{}), up to {} hardware event{}{}\n", s.info().name, c.granule,
		   c.hw.is_default() ? "" : ", hardware " + to_string(c.hw),
		   c.caller.empty() || c.caller == "core-mm" ? "" : ", caller " + c.caller, o.geo.cont_ptes,
		   o.scaled_runs ? "; exit-per-entry and dontneed-inner at most 8" : "", o.hw_events,
		   o.hw_events == 1 ? "" : "s", o.reduce ? "" : ", unreduced");
	std::fflush(stdout);
	auto first = std::make_shared<bool>(true);
	o.scenario_ends = [where, first](const explore::explore_result& one) {
		where->clear();
		if (std::exchange(*first, false))
			fmt::print("{}\n", initial_detail(one));
		print_scenario(one);
		std::fflush(stdout);
	};
	return where;
}

void print_json(const explore_cli& c, const explore::sweep_result& r)
{
	using namespace explore;
	const explore_options& o = r.options;
	nlohmann::json list = nlohmann::json::array();
	for (const explore_result& one : r.runs)
		list.push_back(scenario_json(one));
	nlohmann::json not_run = nlohmann::json::array();
	for (scenario sc : r.not_run)
		not_run.push_back(std::string(to_string(sc)));
	const std::optional<scenario> stopped = r.stopped_in();
	// Per scenario: a violation failed it; searched to the end with none
	// it passed; stopped or never started by the time limit it is
	// undecided (what the exit code says of the whole).
	std::size_t passed = 0, failed = 0, undecided = r.not_run.size();
	for (const explore_result& one : r.runs)
		(one.first || one.breach ? failed : one.complete ? passed : undecided)++;
	nlohmann::json j{{"schema", json_schema},
			 {"command", "explore"},
			 {"strategy", r.strategy},
			 {"granule", c.granule},
			 {"hardware", to_string(c.hw)},
			 {"cont_ptes", o.geo.cont_ptes},
			 {"hw_events", o.hw_events},
			 {"reduce", o.reduce},
			 {"initial", c.initial},
			 {"initial_flagged", o.initial_flagged},
			 {"scenarios", list},
			 {"not_run", not_run},
			 {"explored", r.explored()},
			 {"seconds", r.seconds},
			 {"complete", r.complete()},
			 {"stopped_in",
			  stopped ? nlohmann::json(std::string(to_string(*stopped))) : nlohmann::json(nullptr)},
			 {"verdict", r.failed() ? "violation" : r.complete() ? "no violation" : "incomplete"},
			 {"totals", {{"passed", passed}, {"failed", failed}, {"undecided", undecided}}}};
	fmt::print("{}\n", j.dump(2));
}

void print_violation(const explore::explore_result& one, const explore_cli& c)
{
	const explore::found_violation& f = *one.first;
	fmt::print("\nVIOLATION {} in {}: {}\n", to_string(f.v.prop), to_string(one.options.scen), f.v.message);
	for (const auto& e : f.events)
		fmt::print("  event: {}\n", event_text(e));
	for (const auto& l : f.lines)
		fmt::print("  {}\n", l);
	fmt::print("confirmed: replayed history {}, re-run with the planned agent {}\n",
		   f.replay_confirms ? "yes" : "NO", f.rerun_confirms ? "yes" : "NO");
	if (one.violated.size() > 1 || c.all_violations) {
		std::string names;
		for (property p : one.violated)
			names += fmt::format("{}{}", names.empty() ? "" : ", ", to_string(p));
		fmt::print("violated properties: {}\n", names);
	}
}

void print_text(const explore_cli& c, const explore::sweep_result& r)
{
	for (explore::scenario sc : r.not_run)
		fmt::print("{}: {}; not started (time limit)\n", to_string(sc), scenario_calls(sc));
	for (const explore::explore_result& one : r.runs)
		if (one.breach)
			fmt::print("\nCALLER in {}: {}\n", to_string(one.options.scen), mm::breach_text(*one.breach));
	for (const explore::explore_result& one : r.runs)
		if (one.first)
			print_violation(one, c);
	fmt::print("\n{}\n", verdict_line(r, c));
}

int run_explore(const explore_cli& c)
{
	if (!c.strategy)
		throw usage_error("explore: no strategy chosen; expected --strategy NAME (see 'ptespec list')");
	strategy& s = parse_strategy("--strategy", *c.strategy);
	const std::vector<explore::scenario> which = chosen_scenarios(c.scenario);
	explore::explore_options o = explore_options_of(c, which);
	refuse_endless(c, o, which);
	const std::shared_ptr<progress_line> where = watch_sweep(c, s, o);
	const explore::sweep_result r = explore::explore_all(s, o, which);
	where->clear();
	if (c.json)
		print_json(c, r);
	else
		print_text(c, r);
	return exit_for(r.failed(), r.complete() ? 0 : 1);
}

} // namespace

action define_explore(CLI::App& sub)
{
	auto c = std::make_shared<explore_cli>();
	add_once(
		sub, "--strategy", [c](const std::string& n) { c->strategy = n; },
		"the strategy to explore (required; see 'ptespec list')", "NAME");
	add_once(
		sub, "--scenario",
		[c](const std::string& n) {
			chosen_scenarios(n);
			c->scenario = n;
		},
		"all (default: every scenario below, one after another), exit, exit-per-entry, exit-split, "
		"dontneed-start, dontneed-end, dontneed-inner, fork or madv-free",
		"NAME");
	add_once(
		sub, "--granule",
		[c](const std::string& g) {
			parse_granule_flag("--granule", g);
			c->granule = g;
		},
		"4k, 16k or 64k (default 4k)", "G");
	add_once(
		sub, "--cont-ptes",
		[c](const std::string& n) {
			const std::uint64_t v = parse_count("--cont-ptes", n, 2, 128);
			if ((v & (v - 1)) != 0)
				throw usage_error(fmt::format("--cont-ptes {}: expected a power of two from 2 to 128", n));
			c->cont_ptes = v;
		},
		"override CONT_PTES (a power of two, 2..128) to scale the run", "N");
	add_once(
		sub, "--hw-events",
		[c](const std::string& n) { c->hw_events = static_cast<int>(parse_count("--hw-events", n, 0, 6, "events")); },
		"place up to K hardware events, 0..6 (default 2; the search grows as the power K, so above 3 only "
		"with a --time-limit)", "K");
	add_once(
		sub, "--initial", [c](const std::string& n) { c->initial = parse_choice("--initial", n, {"sparse", "all"}); },
		"initial young/dirty states: sparse (default) or all (tables of at most 8 entries)", "SET");
	add_once(
		sub, "--initial-flagged",
		[c](const std::string& n) {
			c->initial_flagged = static_cast<unsigned>(parse_count("--initial-flagged", n, 0, 128, "entries"));
		},
		"sparse: at most F flagged entries (default 1; refused past 65536 initial states)", "F");
	add_hardware(sub, c->hw);
	add_caller(sub, c->caller);
	sub.add_flag("--no-reduce", c->no_reduce, "place events at every point, page and landing (no reduction)");
	sub.add_flag("--all-violations", c->all_violations,
		     "go on after a scenario's first violation and name every property it shows");
	add_once(
		sub, "--time-limit",
		[c](const std::string& t) { c->time_limit = parse_seconds("--time-limit", t, 86400, "no limit"); },
		"stop the whole search after this many seconds, up to 86400 (reported as INCOMPLETE, exit 4; default "
		"0: no limit)",
		"S");
	sub.add_flag("--json", c->json,
		     "print {\"schema\":1,\"strategy\",\"hw_events\",\"scenarios\":[{\"scenario\",\"calls\",\"range\","
		     "\"initial_states\",\"explored\",\"status\",\"violation\"...}],\"complete\",\"verdict\"...}");
	sub.footer("By default every scenario is explored, one run unless said (# the range); a run is the "
		   "granule's CONT_PTES entries, but at most 8 in exit-per-entry and dontneed-inner (they grow "
		   "fastest) unless --cont-ptes sets every run:\n"
		   "  exit            zap full=1, batched (get_and_clear_full_ptes)      |################|\n"
		   "  exit-per-entry  zap full=1, ptep_get_and_clear_full entry by entry |################|\n"
		   "  exit-split      zap full=1, batched, over two VMAs that cut the run |########^#######|\n"
		   "  dontneed-start  zap full=0 (munmap, MADV_DONTNEED), starts mid-run |........########|\n"
		   "  dontneed-end    zap full=0, ends mid-run                           |########........|\n"
		   "  dontneed-inner  zap full=0 over two runs, both edges mid-run       "
		   "|........########|########........|\n"
		   "  fork            wrprotect_ptes, starts mid-run                     |........########|\n"
		   "  madv-free       clear_young_dirty_ptes, starts mid-run             |........########|\n"
		   "Each caller reads every entry with ptep_get first.  Initial states: sparse = every table with at "
		   "most F flagged entries plus the three uniform ones.\n"
		   "Exit status: 0 every scenario searched to the end with no violation, 1 a violation in any "
		   "scenario, 2 bad usage, 4 no violation but --time-limit stopped the search (INCOMPLETE).");
	return [c] { return run_explore(*c); };
}

} // namespace ptespec::cli
