// ptespec prove: the Z3 obligations for the chosen strategies.  One line per
// obligation and strategy (verdict, seconds, paths), each refutation's
// concrete counterexample with its replay verdict, what each family of
// obligations covers, and "N passed, N failed, N undecided" (proved;
// refuted; unknown).

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "cli/proof_flags.h"
#include "cli/selection.h"
#include "cli/verdicts.h"
#include "model/errors.h"
#include "proofs/catalogue.h"

namespace ptespec::cli {

namespace {

struct prove_cli {
	selection sel;
	proof_flags proof;
	bool every_range = false;
	bool json = false;
	hardware_options hw;
};

// The obligations' results, each line printed as it arrives (a long run
// shows where it is), or nothing until the end for JSON.
std::vector<proofs::proof_result> prove_streaming(const prove_cli& p, const std::vector<strategy*>& strategies,
						  const std::vector<granule>& grans, const proofs::prove_options& o)
{
	auto line = [](const proofs::proof_result& r) {
		fmt::print("{:<16} {:<44} {:<5} {:<8} {:>8.2f} {:>6}  {}\n", r.strategy.empty() ? "-" : r.strategy,
			   r.obligation, to_string(r.gran), to_string(r.verdict), r.seconds, r.paths, r.replay);
		std::fflush(stdout);
	};
	if (!p.json)
		fmt::print("{:<16} {:<44} {:<5} {:<8} {:>8} {:>6}  {}\n", "strategy", "obligation", "gran", "verdict",
			   "seconds", "paths", "replay");
	progress_line where("prove");
	std::vector<proofs::proof_result> results = proofs::prove_all(
		strategies, grans, o,
		[&](const proofs::proof_result& r) {
			if (p.json)
				return;
			where.clear();
			line(r);
		},
		[&where](const std::string& what) { where.update(what); });
	where.clear();
	return results;
}

// Each obligation not proved, with its counterexample and replay; a word on
// questions a time net stopped; what each family that ran covers.
void print_details(const std::vector<proofs::proof_result>& results)
{
	for (const auto& r : results) {
		if (r.verdict == proofs::proof_verdict::proved)
			continue;
		fmt::print("\n[{}] {} {}: {} ({})\n", to_string(r.gran), r.strategy.empty() ? "-" : r.strategy, r.obligation,
			   to_string(r.verdict), r.detail);
		if (r.ce)
			fmt::print("  counterexample ({} violated):\n{}", to_string(r.ce->prop), r.ce_text);
		else if (!r.ce_text.empty())
			fmt::print("{}", r.ce_text);
		if (!r.replay.empty())
			fmt::print("  replay: {}\n", r.replay);
	}
	// Budgets are work, not time, so a run repeats -- unless a time net
	// stopped some question first (a much slower or busier machine).
	std::size_t time_stops = 0;
	for (const auto& r : results)
		time_stops += r.time_stops;
	if (time_stops > 0)
		fmt::print("\n{} solver question{} stopped by {} time safety net before {} work budget: another run, "
			   "on another machine or under other load, may decide {} otherwise\n",
			   time_stops, time_stops == 1 ? "" : "s", time_stops == 1 ? "its" : "their",
			   time_stops == 1 ? "its" : "their", time_stops == 1 ? "it" : "them");
	// What a `proved` above means: the calls and tables each family ran.
	fmt::print("\nwhat the obligations cover (a proof holds for these calls from these tables only):\n");
	for (const proofs::obligation_family& f : proofs::obligation_table()) {
		bool ran = false;
		for (const auto& r : results)
			ran = ran || proofs::family_of(r) == &f;
		if (!ran)
			continue;
		fmt::print("  {:<18} {} -- {}; {}\n", f.prefix + "*", proofs::scope_properties(f.scope),
			   proofs::scope_calls(f.scope), f.scope.tables);
	}
}

int run_prove(const prove_cli& p)
{
	const std::vector<strategy*> strategies = p.sel.resolve();
	const std::vector<granule> grans = p.proof.grans();
	proofs::prove_options o = p.proof.options();
	if (p.every_range)
		o.every_range_upto = 32;
	o.hw = p.hw;
	const std::vector<proofs::proof_result> results = prove_streaming(p, strategies, grans, o);

	// A strategy that cannot run on symbolic words was not proved: that
	// is undecided, never a pass.
	std::vector<std::string> unproved, why;
	for (const strategy* s : strategies)
		if (!s->symbolic()) {
			unproved.push_back(s->info().name);
			why.push_back(s->why_not_symbolic());
		}
	std::size_t passed = 0, failed = 0, undecided = unproved.size();
	for (const auto& r : results)
		(r.verdict == proofs::proof_verdict::proved	  ? passed
		 : r.verdict == proofs::proof_verdict::refuted ? failed
							       : undecided)++;
	if (p.json) {
		nlohmann::json list = nlohmann::json::array();
		for (const auto& r : results)
			list.push_back(proof_json(r));
		fmt::print("{}\n", nlohmann::json{{"schema", json_schema},
						  {"command", "prove"},
						  {"results", list},
						  {"unproved", unproved},
						  {"totals", {{"passed", passed}, {"failed", failed}, {"undecided", undecided}}}}
					    .dump(2));
		return exit_for(failed, undecided);
	}
	for (std::size_t k = 0; k < unproved.size(); k++)
		fmt::print("{:<16} not proved: {} (undecided)\n", unproved[k], why[k]);
	// Calls a strategy has on the concrete machines only: no obligation
	// covers them, whatever was asked.
	for (const strategy* s : strategies) {
		std::string only_concrete;
		for (std::size_t k = 0; k < nr_call_kinds; k++) {
			const call_kind kind = static_cast<call_kind>(k);
			if (s->symbolic() && s->implements(kind) && !s->implements_symbolic(kind))
				only_concrete += (only_concrete.empty() ? "" : ", ") + std::string(to_string(kind));
		}
		if (!only_concrete.empty())
			fmt::print("{:<16} not in its symbolic build, so covered by no obligation: {}\n", s->info().name,
				   only_concrete);
	}
	fmt::print("\nhardware: {}; every entry may take any number of access/write events in every gap "
		   "(one symbolic slot per entry before each primitive on it and at each call's end); step/ and seq/ "
		   "judge every store against the TLB, which holds what the table maps when a call begins\n",
		   to_string(p.hw));
	print_details(results);
	fmt::print("\n{} passed, {} failed, {} undecided\n", passed, failed, undecided);
	return exit_for(failed, undecided);
}

} // namespace

action define_prove(CLI::App& sub)
{
	auto p = std::make_shared<prove_cli>();
	p->sel.define(sub);
	p->proof.define(sub);
	// The symbolic machine keeps the TLB as the checker does (BBML2 and one
	// CPU change what it may hold), but its hardware slots are the MMU's
	// own access/dirty updates: without HAFDBS refused, never a `proved`
	// that ignored the option.
	add_once(
		sub, "--hardware",
		[p](const std::string& t) {
			const hardware_options hw = parse_hardware("--hardware", t);
			if (hw.no_hafdbs)
				throw usage_error(fmt::format("--hardware '{}': the proofs model hardware that manages "
							      "access/dirty itself; expected default, bbml2 or one-cpu "
							      "(test, check, explore, cost, demo and report take {})",
							      t, t));
			p->hw = hw;
		},
		"the hardware to model: default, or bbml2 and one-cpu, comma-separated (no-hafdbs is not proved)",
		"LIST");
	sub.add_flag("--every-range", p->every_range,
		     "batch-or over every (start, length) of two runs at CONT_PTES 16 and 32 (default: the run-edge "
		     "starts and ends)");
	sub.add_flag("--json", p->json, "print the results as JSON");
	return [p] { return run_prove(*p); };
}

} // namespace ptespec::cli
