// ptespec check: `test` and `prove` for the chosen strategies, folded into
// one verdict per strategy and property: the randomised verdict, then the
// proofs' verdict over the obligations that speak for that property
// (e.g. "holds+partly", "fails+refuted"; "holds" alone where no obligation
// covers the property).  A legend under the table says what every word it
// used means, and what each partial proof covered.  Exit 0 when every cell
// passed, 1 when one failed, 4 when none failed and one is undecided.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>


#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "cli/report.h"
#include "cli/proof_flags.h"
#include "cli/selection.h"
#include "cli/verdicts.h"
#include "model/errors.h"
#include "model/transcript.h"
#include "proofs/catalogue.h"
#include "properties/runner.h"

namespace ptespec::cli {

namespace {

struct check_cli {
	selection sel;
	proof_flags proof;
	int cases = 0;	// 0: the granule's default
	std::uint64_t seed = 1;
	hardware_options hw;
	std::string caller;	// empty: core-mm
	sweep_flags sweeps;
	bool json = false;
	std::string report;	// --report DIR: also write the report of this table there
};

// The obligations whose refutation of this cell's strategy, granule and
// property made its proof word "refuted" (as proofs::proof_word decides),
// each with its counterexample: a failing cell carries its own.
nlohmann::json refuted_by(const std::vector<proofs::proof_result>& proved, const cell& x)
{
	nlohmann::json out = nlohmann::json::array();
	if (x.proof != "refuted")
		return out;
	for (const auto& r : proved)
		if (r.verdict == proofs::proof_verdict::refuted && r.strategy == x.test.strategy && r.gran == x.gran &&
		    r.ce && r.ce->prop == x.test.prop)
			out.push_back({{"obligation", r.obligation}, {"counterexample", proof_json(r)["counterexample"]}});
	return out;
}

// The report --report asks for, checked against what the table will be.
std::optional<report_cli> report_of(const check_cli& c, const std::vector<granule>& grans)
{
	if (c.report.empty())
		return std::nullopt;
	if (grans.size() != 1)
		throw usage_error("--report with more than one granule: expected one (a report's proofs are of one "
				  "granule)");
	if (!c.proof.obligations.empty())
		throw usage_error("--report with --obligation: expected the report's own obligations (every "
				  "default family); run 'ptespec report' for those alone");
	report_cli r;	// the cost section's folios as report's default
	r.out = c.report;
	r.cases = c.cases;
	r.seed = c.seed;
	r.hw = c.hw;
	r.caller = c.caller;
	r.sweeps = c.sweeps;
	r.proof_granule = to_string(grans[0]);
	r.jobs = c.proof.jobs;
	if (!c.sel.all)
		r.names = c.sel.names;
	return r;
}

// The seed line: what the cases were and what the proofs model, or why
// nothing is proved; then what the cases did not run.
void print_header(const check_cli& c, const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
		  const proofs::prove_options& o, const mm::caller& via)
{
	const bool other_caller = &via != &mm::core_mm();
	const std::string with = c.sweeps.with_text();
	if (other_caller)
		fmt::print("seed {}{}, caller {}{}, {}; proofs: none (they model core-mm's calls only)\n", c.seed, with,
			   via.info().name, c.hw.is_default() ? "" : ", hardware " + to_string(c.hw),
			   cases_text(grans, c.cases));
	else if (std::none_of(strategies.begin(), strategies.end(),
			      [&o](const strategy* s) { return verdicts::proves(*s, o); }))
		fmt::print("seed {}{}, {}{}; proofs: none (a kernel tree is proved only for the obligations "
			   "--obligation names)\n",
			   c.seed, with, c.hw.is_default() ? "" : "hardware " + to_string(c.hw) + ", ",
			   cases_text(grans, c.cases));
	else if (c.hw.is_default())
		fmt::print("seed {}{}, {}; proofs: any number of hardware events per gap\n", c.seed, with,
			   cases_text(grans, c.cases));
	else if (!c.hw.no_hafdbs)
		fmt::print("seed {}{}, hardware {}, {}; proofs: on the same hardware, any number of hardware "
			   "events per gap\n",
			   c.seed, with, to_string(c.hw), cases_text(grans, c.cases));
	else
		fmt::print("seed {}{}, hardware {}, {}; proofs: none (they model hardware that manages "
			   "access/dirty itself)\n",
			   c.seed, with, to_string(c.hw), cases_text(grans, c.cases));
	fmt::print("{}", sampled_lines(c.sweeps, c.hw));
	std::fflush(stdout);
}

// The --json document (docs/json.md).
void print_json(const check_cli& c, const verdict_table& vt)
{
	const std::vector<cell>& cells = vt.cells;
	const std::vector<proofs::proof_result>& proved = vt.proofs;
	const std::size_t* n = vt.counts;
	nlohmann::json list = nlohmann::json::array();
	for (std::size_t i = 0; i < cells.size(); i++) {
		const cell& x = cells[i];
		nlohmann::json j{{"strategy", x.test.strategy},
				 {"property", to_string(x.test.prop)},
				 {"granule", to_string(x.gran)},
				 {"test", to_string(x.test.v)},
				 {"proof", x.proof.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.proof)},
				 {"verdict", x.word}};
		if (x.proof == "partly proved")
			j["proof_covers"] = x.proof_covers.whole();
		if (x.test.v == verdict::fails)
			j["reproduce"] = x.test.ce.reproduce;
		if (!x.agreement.empty())
			j["agreement"] = x.agreement;
		j["counterexample"] =
			x.test.v == verdict::fails ? sampled_counterexample_json(x.test) : nlohmann::json(nullptr);
		j["refuted_by"] = refuted_by(proved, x);
		list.push_back(std::move(j));
	}
	nlohmann::json proof_list = nlohmann::json::array();
	for (const auto& r : proved)
		proof_list.push_back(proof_json(r));
	nlohmann::json out{{"schema", json_schema},
			   {"command", "check"},
			   {"seed", c.seed},
			   {"hardware", to_string(c.hw)},
			   {"cases", c.cases > 0 ? nlohmann::json(c.cases) : nlohmann::json("default")},
			   {"results", list},
			   {"proofs", proof_list},
			   {"totals",
			    {{"passed", n[0]},
			     {"failed", n[1]},
			     {"undecided", n[2]},
			     {"not_applicable", n[3]},
			     {"helper_laws_proved", vt.laws_proved},
			     {"helper_laws_refuted", vt.laws_refuted},
			     {"helper_laws_unknown", vt.laws_unknown}}}};
	if (c.sweeps.mprotect)
		out["mprotect"] = true;
	if (c.sweeps.swarm)
		out["swarm"] = true;
	out["sweep"] = to_string(c.sweeps.resolve());
	fmt::print("{}\n", out.dump(2));
}

// The table, granule by granule; `used` gathers the words its cells use,
// for the legend.
std::string table_text(const std::vector<strategy*>& strategies, const std::vector<cell>& cells,
		       std::set<std::string>& used)
{
	std::string table;
	// The name column fits the longest name (a kernel tree's is long).
	std::size_t width = 16;
	for (const strategy* s : strategies)
		width = std::max(width, s->info().name.size());
	// Each property's column fits its name and the longest word under it,
	// so the table stays within 120 columns where the words allow.
	std::array<std::size_t, nr_properties> col{};
	for (std::size_t k = 0; k < nr_properties; k++)
		col[k] = to_string(all_properties[k]).size();
	for (std::size_t i = 0; i < cells.size(); i++)
		col[i % nr_properties] = std::max(col[i % nr_properties], cells[i].word.size());
	for (std::size_t i = 0; i < cells.size(); i++) {
		const std::size_t in_gran = i % (strategies.size() * all_properties.size());
		if (in_gran == 0) {
			table += fmt::format("\n{:<{}}", fmt::format("[{}]", to_string(cells[i].gran)), width);
			for (std::size_t k = 0; k < nr_properties; k++)
				table += fmt::format(" {:<{}}", to_string(all_properties[k]), col[k]);
			table += "\n";
		}
		if (in_gran % all_properties.size() == 0)
			table += fmt::format("{:<{}}", cells[i].test.strategy, width);
		table += fmt::format(" {:<{}}", cells[i].word, col[i % nr_properties]);
		add_words(used, cells[i]);
		if (in_gran % all_properties.size() == all_properties.size() - 1)
			table += "\n";
	}
	// No row ends in the spaces that pad its last column.
	for (std::size_t at; (at = table.find(" \n")) != std::string::npos;)
		table.erase(at, 1);
	return table;
}

// What each partial proof covered: one line per distinct statement, and why
// the proofs stop at the tables they tried, once per granule and reason,
// naming the strategies it holds for.
void print_partial(const std::vector<cell>& cells)
{
	std::set<std::string> partial;
	std::map<std::string, std::vector<std::string>> gaps;
	for (const cell& x : cells)
		if (x.proof == "partly proved") {
			partial.insert(fmt::format("[{}] {}: {}", to_string(x.gran), to_string(x.test.prop), x.proof_covers.covered));
			if (!x.proof_covers.gap.empty()) {
				std::vector<std::string>& who = gaps[fmt::format("[{}] {}", to_string(x.gran), x.proof_covers.gap)];
				if (std::find(who.begin(), who.end(), x.test.strategy) == who.end())
					who.push_back(x.test.strategy);
			}
		}
	if (!partial.empty())
		fmt::print("\npartly proved, what the proofs covered:\n");
	for (const std::string& line : partial)
		fmt::print("{}", wrapped_text(line, 2));
	if (!gaps.empty())
		fmt::print("\nwhy not every table the callers reach:\n");
	for (const auto& [line, who] : gaps)
		fmt::print("{}", wrapped_text(fmt::format("{} ({})", line, fmt::join(who, ", ")), 2));
}

// The cells not exercised, the obligations not proved, and the shortest
// sampled counterexample of each failing cell, with the proofs'
// re-judgement of its failing call where one was made.
void print_details(const verdict_table& vt)
{
	const std::vector<cell>& cells = vt.cells;
	for (const cell& x : cells)
		if (x.test.v == verdict::not_exercised)
			fmt::print("\n[{}] {} {}: not exercised: {}\n", to_string(x.gran), x.test.strategy,
				   to_string(x.test.prop), x.test.why_not_exercised);
	for (const auto& r : vt.proofs)
		if (r.verdict != proofs::proof_verdict::proved)
			fmt::print("\n[{}] {} {}: {}{}\n", to_string(r.gran), r.strategy.empty() ? "-" : r.strategy,
				   r.obligation, to_string(r.verdict),
				   r.verdict == proofs::proof_verdict::unknown ? " (" + r.detail + ")"
				   : r.replay.empty()			       ? ""
									       : ", replay: " + r.replay);
	for (const cell& x : cells)
		if (x.test.v == verdict::fails) {
			fmt::print("\n[{}] {}", to_string(x.gran), format_counterexample(x.test));
			if (!x.agreement.empty())
				fmt::print("{}", wrapped_text("proofs, from the table the failing call began from: " +
								      x.agreement,
							      2));
		}
}

int run_check(const check_cli& c)
{
	(void)c.sweeps.resolve();	// --sweep beside --mprotect: refused before anything is printed
	const std::vector<strategy*> strategies = c.sel.resolve();
	const std::vector<granule> grans = c.proof.grans();
	const proofs::prove_options o = c.proof.options();
	const mm::caller& via = caller_of(c.caller);
	// A report written from this table: refused now, not after the run.
	const std::optional<report_cli> rc = report_of(c, grans);
	const std::string gnuplot = rc ? report_prerequisites(*rc) : "";
	if (!c.json)
		print_header(c, strategies, grans, o, via);
	progress_line where("check");
	const verdict_table vt = compute_verdicts(strategies, grans, {o, c.cases, c.seed, c.hw, &via, c.sweeps.resolve(), c.sweeps.mprotect, c.sweeps.swarm},
						  [&where](const std::string& what) { where.update(what); });
	where.clear();
	if (c.json) {
		print_json(c, vt);
		return exit_for(vt.failed(), vt.undecided());
	}
	std::set<std::string> used;
	const std::string table = table_text(strategies, vt.cells, used);
	fmt::print("{}\n{}", table, legend(used));
	print_partial(vt.cells);
	print_details(vt);
	if (rc)
		write_report(*rc, vt, gnuplot);
	const std::size_t* n = vt.counts;
	fmt::print("\ncells: {} passed, {} failed, {} undecided{}\n", n[0], n[1], n[2],
		   n[3] ? fmt::format(" ({} n/a)", n[3]) : "");
	fmt::print("helper laws: {} proved, {} refuted, {} unknown\n", vt.laws_proved, vt.laws_refuted,
		   vt.laws_unknown);
	return exit_for(vt.failed(), vt.undecided());
}

} // namespace

action define_check(CLI::App& sub)
{
	auto c = std::make_shared<check_cli>();
	c->sel.define(sub);
	c->proof.define(sub);
	add_once(
		sub, "--cases",
		[c](const std::string& n) { c->cases = static_cast<int>(parse_count("--cases", n, 1, max_cases, "cases")); },
		"RapidCheck cases per strategy and property, 1 to 1000000 (default: per granule, measured; see "
		"docs/usage.md)",
		"N");
	add_once(
		sub, "--seed", [c](const std::string& s) { c->seed = parse_seed("--seed", s); },
		"seed of the randomised part, decimal or 0x-hex (default 1)", "S");
	add_hardware(sub, c->hw);
	add_caller(sub, c->caller);
	add_sweep_flags(sub, c->sweeps);
	sub.add_flag("--json", c->json, "print the results as JSON");
	add_once(
		sub, "--report",
		[c](const std::string& d) {
			if (d.empty())
				throw usage_error("--report '': expected a DIR to write the report into");
			c->report = d;
		},
		"also write report.md, the cost table and its chart into DIR from this very table (as 'ptespec report' "
		"would, without a second run; one granule)",
		"DIR");
	return [c] { return run_check(*c); };
}

} // namespace ptespec::cli
