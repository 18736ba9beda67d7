// ptespec explore: one strategy, one bounded scenario, every placement of up
// to K hardware events and every initial young/dirty state (explore/).
// Prints what was searched, how much the reductions saved, and the first
// violation as a history with rulers that the checker confirms twice.

#include <cstdio>
#include <memory>
#include <string>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "explore/explorer.h"
#include "model/errors.h"

namespace ptespec::cli {

namespace {

struct explore_cli {
	std::string strategy;
	std::string scenario = "exit";
	std::string granule = "4k";
	std::size_t cont_ptes = 0;
	int hw_events = 2;
	std::string initial = "sparse";
	unsigned initial_flagged = 1;
	bool no_reduce = false;
	bool all_violations = false;
	double time_limit = 0;
	bool json = false;
};

std::string describe_initial(const explore::explore_options& o)
{
	if (o.initial == explore::initial_set::all)
		return fmt::format("all 4^{}", o.geo.cont_ptes);
	return fmt::format("sparse: at most {} flagged entries, plus the uniform runs", o.initial_flagged);
}

std::string event_text(const explore::placed_event& e)
{
	return fmt::format("{} of #{} lands in #{} before point {}", to_string(e.kind), e.page, e.entry, e.point);
}

nlohmann::json violation_json(const explore::found_violation& f, const geometry& geo)
{
	nlohmann::json events = nlohmann::json::array();
	for (const auto& e : f.events)
		events.push_back({{"point", e.point},
				  {"entry", e.entry},
				  {"page", e.page},
				  {"kind", std::string(to_string(e.kind))}});
	(void)geo;
	return {{"property", std::string(to_string(f.v.prop))},
		{"page", f.v.page},
		{"message", f.v.message},
		{"events", events},
		{"history", f.lines},
		{"replay_confirms", f.replay_confirms},
		{"rerun_confirms", f.rerun_confirms}};
}

int run_explore(const explore_cli& c)
{
	using namespace explore;
	strategy& s = registry::global().get(c.strategy);
	explore_options o;
	o.scen = parse_scenario(c.scenario, {scenario::exit, scenario::dontneed, scenario::fork, scenario::madv_free});
	o.geo = geometry::of(parse_granule(c.granule));
	if (c.cont_ptes)
		o.geo.cont_ptes = c.cont_ptes;
	o.hw_events = c.hw_events;
	if (c.initial == "all")
		o.initial = initial_set::all;
	else if (c.initial != "sparse")
		throw usage_error(fmt::format("--initial '{}': expected sparse or all", c.initial));
	o.initial_flagged = c.initial_flagged;
	o.reduce = !c.no_reduce;
	o.all_violations = c.all_violations;
	if (c.time_limit < 0)
		throw usage_error(fmt::format("--time-limit {}: expected seconds >= 0", c.time_limit));
	o.time_limit = c.time_limit;
	check_options(o);
	if (isatty(STDERR_FILENO))
		o.progress = [](std::uint64_t explored, std::uint64_t done, std::uint64_t states) {
			fmt::print(stderr, "\r{} schedules, initial state {}/{}\033[K", explored, done, states);
		};

	const explore_result r = explore::explore(s, o);
	if (o.progress)
		fmt::print(stderr, "\r\033[K");

	if (c.json) {
		nlohmann::json j{{"strategy", r.strategy},
				 {"scenario", std::string(to_string(o.scen))},
				 {"granule", c.granule},
				 {"cont_ptes", o.geo.cont_ptes},
				 {"hw_events", o.hw_events},
				 {"initial_states", r.initial_states},
				 {"explored", r.explored},
				 {"pruned", r.pruned},
				 {"infeasible", r.infeasible},
				 {"seconds", r.seconds},
				 {"complete", r.complete}};
		nlohmann::json props = nlohmann::json::array();
		for (property p : r.violated)
			props.push_back(std::string(to_string(p)));
		j["violated"] = props;
		j["violation"] = r.first ? violation_json(*r.first, o.geo) : nlohmann::json(nullptr);
		fmt::print("{}\n", j.dump(2));
		return r.first ? exit_failed : exit_ok;
	}

	fmt::print("explore {} {} at {} (CONT_PTES {}), up to {} hardware event{}{}\n", r.strategy,
		   to_string(o.scen), c.granule, o.geo.cont_ptes, o.hw_events, o.hw_events == 1 ? "" : "s",
		   o.reduce ? "" : ", unreduced");
	fmt::print("initial states: {} ({})\n", r.initial_states, describe_initial(o));
	fmt::print("explored {} schedules, pruned {} placements, {} infeasible, in {:.2f} s\n", r.explored, r.pruned,
		   r.infeasible, r.seconds);
	if (!r.first) {
		fmt::print("{}: no violation\n", r.complete ? "exhaustive" : "INCOMPLETE (time limit)");
		return exit_ok;
	}
	const found_violation& f = *r.first;
	fmt::print("\nVIOLATION {}: {}\n", to_string(f.v.prop), f.v.message);
	for (const auto& e : f.events)
		fmt::print("  event: {}\n", event_text(e));
	for (const auto& l : f.lines)
		fmt::print("  {}\n", l);
	fmt::print("confirmed: replayed history {}, re-run with the planned agent {}\n",
		   f.replay_confirms ? "yes" : "NO", f.rerun_confirms ? "yes" : "NO");
	if (r.violated.size() > 1 || c.all_violations) {
		std::string names;
		for (property p : r.violated)
			names += fmt::format("{}{}", names.empty() ? "" : ", ", to_string(p));
		fmt::print("violated properties: {}\n", names);
	}
	return exit_failed;
}

} // namespace

action define_explore(CLI::App& sub)
{
	auto c = std::make_shared<explore_cli>();
	sub.add_option("--strategy", c->strategy, "the strategy to explore (see 'ptespec list')")
		->type_name("NAME")
		->required();
	sub.add_option("--scenario", c->scenario, "exit, dontneed, fork or madv-free (default exit)");
	sub.add_option("--granule", c->granule, "4k, 16k or 64k (default 4k)")->type_name("G");
	sub.add_option("--cont-ptes", c->cont_ptes, "override CONT_PTES (a power of two, 2..128) to scale the run")
		->type_name("N");
	sub.add_option("--hw-events", c->hw_events, "place up to K hardware events, 0..6 (default 2)")->type_name("K");
	sub.add_option("--initial", c->initial, "initial young/dirty states: sparse (default) or all (CONT_PTES <= 8)");
	sub.add_option("--initial-flagged", c->initial_flagged, "sparse: at most F flagged entries (default 1)")
		->type_name("F");
	sub.add_flag("--no-reduce", c->no_reduce, "place events at every point, page and landing (no reduction)");
	sub.add_flag("--all-violations", c->all_violations, "go on after the first violation and name every property");
	sub.add_option("--time-limit", c->time_limit, "stop after this many seconds (reported as incomplete)")
		->type_name("S");
	sub.add_flag("--json", c->json,
		     "print {\"strategy\",\"scenario\",\"granule\",\"hw_events\",\"explored\",\"pruned\",\"seconds\","
		     "\"violation\"...}");
	return [c] { return run_explore(*c); };
}

} // namespace ptespec::cli
