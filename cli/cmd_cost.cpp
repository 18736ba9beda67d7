// ptespec cost: primitive counts per strategy for a whole-process workload,
// weighed by a profile and shown as percent over the nocont baseline -- the
// shape of the exit() table measured in the linux-mm thread the project grew
// out of.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "cli/selection.h"
#include "cli/thread_figures.h"
#include "cli/verdicts.h"
#include "explore/cost.h"
#include "model/errors.h"

namespace ptespec::cli {

namespace {

struct cost_cli {
	selection sel;
	std::string scenario = "exit";
	std::vector<std::string> profiles;
	std::string granule = "4k";
	std::size_t folios = 256;
	hardware_options hw;
	std::string caller;	// empty: core-mm
	bool json = false;
};

// The scenarios the cost model runs: whole folios, never a range that
// cuts a run.
explore::scenario cost_scenario(const std::string& name)
{
	using explore::scenario;
	return parse_scenario_flag("--scenario", name,
				   {scenario::exit, scenario::exit_per_entry, scenario::munmap, scenario::fork,
				    scenario::madv_free},
				   "the cost model unmaps whole folios; dontneed-start, -end and -inner cut a run: "
				   "explore's");
}

std::vector<explore::cost_profile> profiles_of(const cost_cli& c, std::vector<std::string>& given)
{
	given = c.profiles.empty() ? std::vector<std::string>{"numa1", "numa2"} : c.profiles;
	std::vector<explore::cost_profile> profiles;
	for (const std::string& p : given)
		profiles.push_back(explore::load_profile(p));
	return profiles;
}

// The rows, the baseline's first; a caller's breach ends the count (counts
// of calls the arch code may not be given are no strategy's cost: the
// breach is the result).
struct counted {
	explore::cost_row base;
	std::vector<explore::cost_row> rows;
	std::optional<std::string> breach;	// the line to print instead
};

counted count_rows(const explore::cost_options& o, const std::vector<strategy*>& chosen,
		   const std::vector<explore::cost_profile>& profiles, const std::vector<std::string>& given)
{
	// A strategy's count takes seconds at 16K or 64K pages or many folios.
	progress_line where("cost");
	where.update(fmt::format("counting nocont, the baseline ({} folios)", o.folios));
	counted out{explore::measure(registry::global().get("nocont"), o), {}, {}};
	if (out.base.breach) {
		out.breach = mm::breach_text(*out.base.breach);
		return out;
	}
	// A percentage over a baseline the profile weighs at nothing is 0/0:
	// refused, not printed as +0.0 %.
	for (std::size_t k = 0; k < profiles.size(); k++)
		if (!(profiles[k].weigh(out.base.counts, out.base.pages) > 0))
			throw usage_error(fmt::format("--profile '{}': its weights give the nocont baseline of {} a cost of 0; "
						      "expected a profile with a positive \"page\" or \"read\" weight",
						      given[k], to_string(o.scen)));
	for (strategy* s : chosen) {
		where.update(fmt::format("counting {} ({} of {})", s->info().name, out.rows.size() + 1, chosen.size()));
		out.rows.push_back(s->info().name == "nocont" ? out.base : explore::measure(*s, o));
		if (out.rows.back().breach) {
			out.breach = fmt::format("{} (strategy {})", mm::breach_text(*out.rows.back().breach), s->info().name);
			return out;
		}
	}
	return out;
}

void print_json(const cost_cli& c, const explore::cost_options& o, const std::vector<explore::cost_profile>& profiles,
		const counted& n)
{
	nlohmann::json list = nlohmann::json::array();
	for (const explore::cost_row& r : n.rows) {
		nlohmann::json pct;
		for (const explore::cost_profile& p : profiles)
			pct[p.name] = explore::percent_over(r, n.base, p);
		list.push_back({{"strategy", r.strategy},
				{"reads", r.counts.reads},
				{"writes", r.counts.writes},
				{"atomics", r.counts.atomics},
				{"tlbi_page", r.counts.tlbi_page},
				{"tlbi_range", r.counts.tlbi_range},
				{"tlbi_all", r.counts.tlbi_all},
				{"calls", r.calls},
				{"percent_over_baseline", pct}});
		if (o.hw.no_hafdbs)
			list.back()["faults"] = r.faults;
	}
	nlohmann::json names = nlohmann::json::array();
	for (const explore::cost_profile& p : profiles)
		names.push_back(p.name);
	fmt::print("{}\n", nlohmann::json{{"schema", json_schema},
					  {"command", "cost"},
					  {"scenario", std::string(to_string(o.scen))},
					  {"granule", c.granule},
					  {"hardware", to_string(c.hw)},
					  {"folios", o.folios},
					  {"pages", n.base.pages},
					  {"baseline", "nocont"},
					  {"profiles", names},
					  {"rows", list}}
				   .dump(2));
}

void print_text(const cost_cli& c, const explore::cost_options& o, const std::vector<explore::cost_profile>& profiles,
		const counted& n)
{
	fmt::print("cost of {}: {} folios of one run each ({} pages at {}{}), counted on a bare harness\n",
		   to_string(o.scen), o.folios, n.base.pages, c.granule,
		   c.hw.is_default() ? "" : ", hardware " + to_string(c.hw));
	for (const explore::cost_profile& p : profiles)
		fmt::print("profile {}: {}\n", p.name, p.description);
	fmt::print("\n{:<18} {:>8} {:>7} {:>8} {:>9} {:>10} {:>8}", "strategy", "reads", "writes", "atomics",
		   "tlbi_page", "tlbi_range", "tlbi_all");
	for (const explore::cost_profile& p : profiles)
		fmt::print(" {:>9}", p.name);
	const bool seed = o.scen == explore::scenario::exit;
	if (seed)
		fmt::print("  {:>12}", "seed 1N/2N");
	if (o.hw.no_hafdbs)
		fmt::print("  {:>7}", "faults");
	fmt::print("\n");
	for (const explore::cost_row& r : n.rows) {
		fmt::print("{:<18} {:>8} {:>7} {:>8} {:>9} {:>10} {:>8}", r.strategy, r.counts.reads, r.counts.writes,
			   r.counts.atomics, r.counts.tlbi_page, r.counts.tlbi_range, r.counts.tlbi_all);
		for (const explore::cost_profile& p : profiles)
			fmt::print(" {:>+8.1f}%", explore::percent_over(r, n.base, p));
		if (seed) {
			const auto f = thread_figure(r.strategy);
			fmt::print("  {:>12}", f ? fmt::format("+{}%/+{}%", f->first, f->second) : "");
		}
		if (o.hw.no_hafdbs)
			fmt::print("  {:>7}", r.faults);
		fmt::print("\n");
	}
	fmt::print("\npercent: weighted cost over nocont (the kernel without contpte) under each profile\n");
	if (o.hw.no_hafdbs)
		fmt::print("faults: taken writing every page once after it was mapped old and clean, before the workload "
			   "(no hardware access/dirty management)\n");
}

int run_cost(const cost_cli& c)
{
	explore::cost_options o;
	o.scen = cost_scenario(c.scenario);
	o.gran = parse_granule_flag("--granule", c.granule);
	o.folios = c.folios;
	o.hw = c.hw;
	o.caller = &caller_of(c.caller);
	std::vector<std::string> given;
	const std::vector<explore::cost_profile> profiles = profiles_of(c, given);
	const std::vector<strategy*> chosen = c.sel.resolve();
	const counted n = count_rows(o, chosen, profiles, given);
	if (n.breach) {
		fmt::print("{}\n", *n.breach);
		return exit_failed;
	}
	if (c.json)
		print_json(c, o, profiles, n);
	else
		print_text(c, o, profiles, n);
	return exit_ok;
}

} // namespace

action define_cost(CLI::App& sub)
{
	auto c = std::make_shared<cost_cli>();
	c->sel.define(sub);
	add_once(
		sub, "--scenario",
		[c](const std::string& n) {
			cost_scenario(n);
			c->scenario = n;
		},
		"exit, exit-per-entry, munmap (or dontneed), fork or madv-free (default exit)", "NAME");
	add_repeatable(
		sub, "--profile",
		[c](const std::string& p) {
			if (p.empty())
				throw usage_error("--profile '': expected numa1, numa2 or a profile FILE");
			c->profiles.push_back(p);
		},
		"numa1, numa2 or a profile FILE (repeatable; default both)", "P");
	add_once(
		sub, "--folios",
		[c](const std::string& n) { c->folios = parse_count("--folios", n, 1, max_folios, "folios"); },
		"number of 64K folios (runs) in the process, 1 to 65536 (default 256)", "M");
	add_once(
		sub, "--granule",
		[c](const std::string& g) {
			parse_granule_flag("--granule", g);
			c->granule = g;
		},
		"4k, 16k or 64k (default 4k)", "G");
	add_hardware(sub, c->hw);
	add_caller(sub, c->caller);
	sub.add_flag("--json", c->json, "print the counts and percentages as JSON");
	return [c] { return run_cost(*c); };
}

} // namespace ptespec::cli
