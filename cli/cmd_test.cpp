// ptespec test: every chosen strategy against every property, by
// randomised stateful testing with racing hardware.  Prints the seed first,
// a strategies x properties table, the shrunk counterexamples, and
// "N passed, N failed".

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>


#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "cli/selection.h"
#include "cli/verdicts.h"
#include "verdicts/sampled.h"
#include "model/errors.h"
#include "model/transcript.h"
#include "model/word_coverage.h"
#include "properties/commands.h"
#include "properties/defaults.h"
#include "properties/runner.h"

namespace ptespec::cli {

namespace {

struct test_options {
	selection sel;
	std::vector<std::string> properties;
	std::vector<granule> granules{granule::k4};
	bool given_granule = false;
	int cases = 0;	// 0: the granule's default
	std::optional<std::uint64_t> seed;	// none: draw one
	hardware_options hw;
	std::string caller;	// empty: core-mm
	bool adversarial = false;
	sweep_flags sweeps;
	bool json = false;
	bool verbose = false;
	bool coverage = false;
	unsigned jobs = 0;	// 0: one per core
};

// "contpte_ptep_get" out of GCC's "W ns::cls<M>::contpte_ptep_get(M&, ...) [with ...]".
std::string short_function(const std::string& f)
{
	std::string s = f.substr(0, f.find('('));
	const std::size_t colons = s.rfind("::");
	if (colons != std::string::npos)
		s = s.substr(colons + 2);
	const std::size_t space = s.rfind(' ');
	return space == std::string::npos ? s : s.substr(space + 1);
}

// The path from the layer folder on ("impl/mainline.h"), or the file name.
std::string short_file(const std::string& f)
{
	for (const char* layer : {"/impl/", "/tests/", "/examples/"}) {
		const std::size_t at = f.rfind(layer);
		if (at != std::string::npos)
			return f.substr(at + 1);
	}
	const std::size_t slash = f.rfind('/');
	return slash == std::string::npos ? f : f.substr(slash + 1);
}

std::string coverage_text(const std::string& name, const branch_coverage& cov)
{
	std::string out = fmt::format("\nbranch coverage: {} (every m.branch its cases reached, each way)\n", name);
	std::size_t both = 0, one = 0;
	for (const auto& [site, n] : cov.sites()) {
		const bool each = n.taken && n.not_taken;
		(each ? both : one)++;
		out += fmt::format("  {:<34} {:<32} taken {:>9}  not taken {:>9}{}\n",
				   fmt::format("{}:{}", short_file(site.file), site.line), short_function(site.function),
				   n.taken, n.not_taken, each ? "" : n.taken ? "   <-- never false" : "   <-- never true");
	}
	out += fmt::format("  {} of {} sites taken both ways; a site the cases never reached is not listed\n", both,
			   both + one);
	return out;
}

// Each field of the words that reached the strategy, with whether it was
// seen 0 and seen 1 (non-zero, for a wider field).
std::string word_coverage_text(const std::string& name, const word_coverage& cov)
{
	std::string out = fmt::format(
		"\nword fields: {} (the values set_ptes and ptep_set_access_flags were given and the entries it read: "
		"{} present, {} non-present)\n",
		name, cov.present_values(), cov.non_present_values());
	std::size_t both = 0;
	for (bool present : {true, false}) {
		out += fmt::format("  {:<42} {:>6} {:>6}\n", present ? "present values" : "non-present values", "seen 0",
				   "seen 1");
		for (std::size_t f = 0; f < nr_word_fields; f++) {
			const word_field& wf = word_fields[f];
			if (wf.present != present)
				continue;
			const word_coverage::seen& s = cov.fields()[f];
			both += s.zero && s.nonzero;
			const char* note = s.zero && s.nonzero ? ""
					   : s.zero		   ? "   <-- only 0"
					   : s.nonzero		   ? "   <-- only 1"
								   : "   <-- not met";
			const bool one_value = s.zero != s.nonzero && !wf.one_value_why.empty();
			out += fmt::format("    {:<40} {:>6} {:>6}{}{}{}\n",
					   wf.wide ? fmt::format("{} (1: non-zero)", wf.name) : std::string(wf.name),
					   s.zero ? "yes" : "-", s.nonzero ? "yes" : "-", note, one_value ? ": " : "",
					   one_value ? wf.one_value_why : std::string_view{});
		}
	}
	out += fmt::format("  {} of {} fields seen both ways\n", both, nr_word_fields);
	return out;
}

std::vector<property> chosen_properties(const std::vector<std::string>& names)
{
	if (names.empty())
		return {all_properties.begin(), all_properties.end()};
	std::vector<property> out;
	for (const std::string& n : names) {
		const auto p = parse_property(n);
		if (!p) {
			std::string known;
			for (property q : all_properties)
				known += fmt::format("{}{}", known.empty() ? "" : ", ", to_string(q));
			throw usage_error(fmt::format("--property '{}': expected one of {}", n, known));
		}
		out.push_back(*p);
	}
	return out;
}

void print_header(const test_options& t, const mm::caller& via, std::uint64_t seed)
{
	fmt::print("seed {}\n", seed);
	if (!t.hw.is_default())
		fmt::print("hardware {}\n", to_string(t.hw));
	if (&via != &mm::core_mm())
		fmt::print("caller {}: {}\n", via.info().name, via.info().description);
	fmt::print("{}", sampled_lines(t.sweeps, t.hw));
	if (t.adversarial) {
		fmt::print("adversarial callers relax the rules the arch code must not rely on:\n");
		for (const char* rule : adversarial_rules)
			fmt::print("{}", wrapped_text(fmt::format("- {}", rule), 2));
	}
	std::fflush(stdout);
}

// The cells of a run, granule by granule, strategy by strategy, property by
// property, and the results as they came back in that order.
struct test_run {
	std::vector<verdicts::sampled_job> jobs;	// result k is jobs[k]'s, at granule gran(k)
	std::map<std::string, branch_coverage> coverage;	// per strategy, over its properties and granules
	std::map<std::string, word_coverage> words;	// the same, for the fields of the words it met
	std::vector<property_result> results;
	double secs = 0;

	granule gran(std::size_t k) const { return jobs[k].o.gran; }
};

void plan_cells(const test_options& t, const std::vector<strategy*>& strategies, const std::vector<property>& props,
		const run_options& every, test_run& run)
{
	for (granule g : t.granules) {
		for (strategy* s : strategies) {
			for (property p : props) {
				verdicts::sampled_job j{s, p, every, false, {}};	// no re-judgement: test proves nothing
				j.o.gran = g;
				j.o.cases = cases_for(g, p, t.cases);
				if (t.coverage) {	// recorded in this process: the cells run here, one after another
					j.o.coverage = &run.coverage[s->info().name];
					j.o.words = &run.words[s->info().name];
				}
				run.jobs.push_back(std::move(j));
			}
		}
	}
}

void run_cells(const test_options& t, test_run& run)
{
	progress_line progress("test");
	const auto t0 = std::chrono::steady_clock::now();
	for (verdicts::sampled_cell& c :
	     verdicts::run_sampled(run.jobs, t.jobs, [&](const verdicts::sampled_status& st) {
		     progress.update(verdicts::status_text(run.jobs, st));
	     }))
		run.results.push_back(std::move(c.r));
	progress.clear();
	run.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_json(const test_options& t, const mm::caller& via, std::uint64_t seed, const test_run& run,
		const tally& n)
{
	nlohmann::json out;
	out["schema"] = json_schema;
	out["command"] = "test";
	out["seed"] = seed;
	out["granule"] = t.granules.size() == 1 ? std::string(to_string(t.granules[0])) : "all";
	out["adversarial"] = t.adversarial;
	if (t.sweeps.mprotect)
		out["mprotect"] = true;
	if (t.sweeps.swarm)
		out["swarm"] = true;
	out["sweep"] = to_string(t.sweeps.resolve());
	out["hardware"] = to_string(t.hw);
	if (&via != &mm::core_mm())
		out["caller"] = via.info().name;
	nlohmann::json list = nlohmann::json::array();
	for (std::size_t i = 0; i < run.results.size(); i++) {
		const property_result& r = run.results[i];
		nlohmann::json j{{"strategy", r.strategy},
				 {"property", to_string(r.prop)},
				 {"granule", to_string(run.gran(i))},
				 {"verdict", to_string(r.v)},
				 {"cases", r.cases},
				 {"calls", r.calls},
				 {"exercised", r.exercised}};
		if (r.v == verdict::not_exercised)
			j["why"] = r.why_not_exercised;
		j["counterexample"] = r.v == verdict::fails ? sampled_counterexample_json(r) : nlohmann::json(nullptr);
		list.push_back(std::move(j));
	}
	out["results"] = std::move(list);
	out["totals"] = {{"passed", n.passed}, {"failed", n.failed}, {"undecided", n.undecided},
			 {"not_applicable", n.not_applicable}};
	fmt::print("{}\n", out.dump(2));
}

// A row without the spaces that would pad its last column.
void print_row(std::string row)
{
	row.erase(row.find_last_not_of(' ') + 1);
	fmt::print("{}\n", row);
}

// The table, granule by granule; returns the calls the cells checked.
std::uint64_t print_table(const std::vector<strategy*>& strategies, const std::vector<property>& props,
			  const std::vector<granule>& grans, const std::vector<property_result>& results)
{
	std::size_t w = 8;
	for (strategy* s : strategies)
		w = std::max(w, s->info().name.size());
	// Each property's column fits its name and the words under it, so the
	// table stays within 120 columns where the words allow.
	std::vector<std::size_t> col(props.size());
	for (std::size_t k = 0; k < props.size(); k++)
		col[k] = to_string(props[k]).size();
	for (std::size_t i = 0; i < results.size(); i++)
		col[i % props.size()] = std::max(col[i % props.size()], verdict_word(results[i]).size());
	std::size_t i = 0;
	std::uint64_t calls = 0;
	for (granule g : grans) {
		std::string head = fmt::format("\n{:<{}}", fmt::format("[{}]", to_string(g)), w + 2);
		for (std::size_t k = 0; k < props.size(); k++)
			head += fmt::format(" {:<{}}", to_string(props[k]), col[k]);
		print_row(head);
		for (strategy* s : strategies) {
			std::string row = fmt::format("{:<{}}", s->info().name, w + 2);
			for (std::size_t k = 0; k < props.size(); k++, i++) {
				calls += results[i].calls;
				row += fmt::format(" {:<{}}", verdict_word(results[i]), col[k]);
			}
			print_row(row);
		}
	}
	return calls;
}

void print_distributions(const test_run& run)
{
	for (std::size_t k = 0; k < run.results.size(); k++) {
		const property_result& r = run.results[k];
		if (r.distribution.empty())
			continue;
		fmt::print("\n[{}] {} {}: how the {} cases classify\n", to_string(run.gran(k)), r.strategy,
			   to_string(r.prop), r.cases);
		for (const auto& [tag, count] : r.distribution)
			fmt::print("  {:5.1f}%  {}\n", 100.0 * count / std::max(r.cases, 1), tag);
	}
}

// The counterexamples; a caller's breach shows once per granule and
// strategy (every property's cases meet the same caller).  Returns whether
// one was a caller's.
bool print_failures(const test_run& run)
{
	std::set<std::pair<granule, std::string>> caller_shown;
	for (std::size_t k = 0; k < run.results.size(); k++) {
		const property_result& r = run.results[k];
		if (r.v == verdict::fails && (!r.ce.breach || caller_shown.emplace(run.gran(k), r.strategy).second))
			fmt::print("\n[{}] {}", to_string(run.gran(k)), format_counterexample(r));
	}
	return !caller_shown.empty();
}

void print_text(const test_options& t, const std::vector<strategy*>& strategies, const std::vector<property>& props,
		test_run& run, const tally& n)
{
	const std::uint64_t calls = print_table(strategies, props, t.granules, run.results);
	if (t.verbose)
		print_distributions(run);
	const bool caller_failed = print_failures(run);
	if (t.coverage)
		for (strategy* s : strategies) {
			fmt::print("{}", coverage_text(s->info().name, run.coverage[s->info().name]));
			fmt::print("{}", word_coverage_text(s->info().name, run.words[s->info().name]));
		}
	for (std::size_t k = 0; k < run.results.size(); k++) {
		const property_result& r = run.results[k];
		if (r.v == verdict::not_exercised)
			fmt::print("\n[{}] {} {}: not exercised: {}\n", to_string(run.gran(k)), r.strategy,
				   to_string(r.prop), r.why_not_exercised);
	}
	fmt::print("\n{}, {} checked calls in {:.1f} s\n", cases_text(t.granules, t.cases), calls, run.secs);
	fmt::print("{}\n", tally_line(n));
	if (n.undecided || n.not_applicable)
		fmt::print("{}\n", verdict_legend);
	if (caller_failed)
		fmt::print("{}\n", caller_legend);
}

int run_test(const test_options& t)
{
	(void)t.sweeps.resolve();	// --sweep beside --mprotect: refused before anything is printed
	const std::vector<strategy*> strategies = t.sel.resolve();
	const std::vector<property> props = chosen_properties(t.properties);
	const mm::caller& via = caller_of(t.caller);
	const std::uint64_t seed =
		t.seed ? *t.seed : std::random_device{}() | (std::uint64_t{std::random_device{}()} << 32);
	if (!t.json)
		print_header(t, via, seed);
	run_options every;	// what every cell shares
	every.hw = t.hw;
	every.seed = seed;
	every.adversarial = t.adversarial;
	every.caller = &via;
	t.sweeps.apply(every);
	test_run run;
	plan_cells(t, strategies, props, every, run);
	run_cells(t, run);
	const tally n = tally_of(run.results);
	if (t.json)
		print_json(t, via, seed, run, n);
	else
		print_text(t, strategies, props, run, n);
	return exit_for(n.failed, n.undecided);
}

} // namespace

action define_test(CLI::App& sub)
{
	auto t = std::make_shared<test_options>();
	t->sel.define(sub);
	add_repeatable(
		sub, "--property",
		[t](const std::string& p) {
			chosen_properties({p});
			if (std::find(t->properties.begin(), t->properties.end(), p) != t->properties.end())
				throw usage_error(fmt::format("--property '{}' given twice; expected each property once", p));
			t->properties.push_back(p);
		},
		"judge only this property (repeatable; default: all)", "NAME");
	add_repeatable(
		sub, "--granule",
		[t](const std::string& g) {
			if (!t->given_granule)
				t->granules.clear();
			t->given_granule = true;
			const std::vector<granule> gs = parse_granules("--granule", {g});
			if (g == "all")
				t->granules = gs;	// all three, in order, whatever else was named
			else if (std::find(t->granules.begin(), t->granules.end(), gs.front()) == t->granules.end() &&
				 t->granules.size() < 3)
				t->granules.push_back(gs.front());
		},
		"4k, 16k, 64k or all (repeatable; default 4k)", "G");
	add_once(
		sub, "--cases",
		[t](const std::string& n) { t->cases = static_cast<int>(parse_count("--cases", n, 1, max_cases, "cases")); },
		"RapidCheck cases per strategy and property, 1 to 1000000 (default: per granule, measured; see "
		"docs/usage.md)",
		"N");
	add_once(
		sub, "--seed", [t](const std::string& s) { t->seed = parse_seed("--seed", s); },
		"seed to reproduce a run, decimal or 0x-hex (default: random, printed first)", "S");
	add_hardware(sub, t->hw);
	add_caller(sub, t->caller);
	sub.add_flag("--adversarial", t->adversarial,
		     "callers that relax core-mm's rules the arch code must not rely on (batches cut anywhere, full=1 "
		     "in munmap); the arch API's own rules are kept");
	add_sweep_flags(sub, t->sweeps);
	add_jobs(sub, t->jobs, "cells (strategy, property, granule)");
	sub.add_flag("--json", t->json, "print the results as JSON");
	sub.add_flag("--verbose", t->verbose, "show how the cases classify over the edges the generators aim at");
	sub.add_flag("--coverage", t->coverage,
		     "list every branch of each strategy the cases reached, with how often each way (and those "
		     "taken only one way), and which fields of the words that reached it were seen 0 and 1");
	return [t] { return run_test(*t); };
}

} // namespace ptespec::cli
