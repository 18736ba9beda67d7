// ptespec cost: primitive counts per strategy for a whole-process workload,
// weighed by a profile and shown as percent over the nocont baseline -- the
// shape of the seed thread's exit() table (BRIEF §5).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/selection.h"
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
	bool json = false;
};

// The seed's measured exit() cost over baseline, Ampere Altra, 1 / 2 NUMA
// nodes (BRIEF §5): printed beside the model's for comparison.
std::optional<std::pair<int, int>> seed_figure(const std::string& name)
{
	static const std::map<std::string, std::pair<int, int>> seed = {
		{"unfold", {190, 768}}, {"simple", {8, 29}}, {"robust", {21, 19}}, {"mainline", {13, 9}}};
	const auto it = seed.find(name);
	if (it == seed.end())
		return std::nullopt;
	return it->second;
}

int run_cost(const cost_cli& c)
{
	using namespace explore;
	cost_options o;
	o.scen = parse_scenario(c.scenario, {scenario::exit, scenario::munmap, scenario::fork, scenario::madv_free});
	o.gran = parse_granule(c.granule);
	o.folios = c.folios;
	std::vector<cost_profile> profiles;
	for (const std::string& p : c.profiles.empty() ? std::vector<std::string>{"numa1", "numa2"} : c.profiles)
		profiles.push_back(load_profile(p));
	const std::vector<strategy*> chosen = c.sel.resolve();
	const cost_row base = measure(registry::global().get("nocont"), o);
	std::vector<cost_row> rows;
	for (strategy* s : chosen)
		rows.push_back(s->info().name == "nocont" ? base : measure(*s, o));

	if (c.json) {
		nlohmann::json list = nlohmann::json::array();
		for (const cost_row& r : rows) {
			nlohmann::json pct;
			for (const cost_profile& p : profiles)
				pct[p.name] = percent_over(r, base, p);
			list.push_back({{"strategy", r.strategy},
					{"reads", r.counts.reads},
					{"writes", r.counts.writes},
					{"atomics", r.counts.atomics},
					{"tlbi_page", r.counts.tlbi_page},
					{"tlbi_range", r.counts.tlbi_range},
					{"tlbi_all", r.counts.tlbi_all},
					{"calls", r.calls},
					{"percent_over_baseline", pct}});
		}
		nlohmann::json names = nlohmann::json::array();
		for (const cost_profile& p : profiles)
			names.push_back(p.name);
		fmt::print("{}\n", nlohmann::json{{"scenario", std::string(to_string(o.scen))},
						  {"granule", c.granule},
						  {"folios", o.folios},
						  {"pages", base.pages},
						  {"baseline", "nocont"},
						  {"profiles", names},
						  {"rows", list}}
					   .dump(2));
		return exit_ok;
	}

	fmt::print("cost of {}: {} folios of one run each ({} pages at {}), counted on a bare harness\n",
		   to_string(o.scen), o.folios, base.pages, c.granule);
	for (const cost_profile& p : profiles)
		fmt::print("profile {}: {}\n", p.name, p.description);
	fmt::print("\n{:<18} {:>8} {:>7} {:>8} {:>9} {:>10} {:>8}", "strategy", "reads", "writes", "atomics",
		   "tlbi_page", "tlbi_range", "tlbi_all");
	for (const cost_profile& p : profiles)
		fmt::print(" {:>9}", p.name);
	const bool seed = o.scen == scenario::exit;
	if (seed)
		fmt::print("  {:>12}", "seed 1N/2N");
	fmt::print("\n");
	for (const cost_row& r : rows) {
		fmt::print("{:<18} {:>8} {:>7} {:>8} {:>9} {:>10} {:>8}", r.strategy, r.counts.reads, r.counts.writes,
			   r.counts.atomics, r.counts.tlbi_page, r.counts.tlbi_range, r.counts.tlbi_all);
		for (const cost_profile& p : profiles)
			fmt::print(" {:>+8.1f}%", percent_over(r, base, p));
		if (seed) {
			const auto f = seed_figure(r.strategy);
			fmt::print("  {:>12}", f ? fmt::format("+{}%/+{}%", f->first, f->second) : "");
		}
		fmt::print("\n");
	}
	fmt::print("\npercent: weighted cost over nocont (the kernel without contpte) under each profile\n");
	return exit_ok;
}

} // namespace

action define_cost(CLI::App& sub)
{
	auto c = std::make_shared<cost_cli>();
	c->sel.define(sub);
	sub.add_option("--scenario", c->scenario, "exit, munmap, fork or madv-free (default exit)");
	sub.add_option("--profile", c->profiles, "numa1, numa2 or a profile FILE (repeatable; default both)")
		->type_name("P");
	sub.add_option("--folios", c->folios, "number of 64K folios (runs) in the process (default 256)")
		->type_name("M");
	sub.add_option("--granule", c->granule, "4k, 16k or 64k (default 4k)")->type_name("G");
	sub.add_flag("--json", c->json, "print the counts and percentages as JSON");
	return [c] { return run_cost(*c); };
}

} // namespace ptespec::cli
