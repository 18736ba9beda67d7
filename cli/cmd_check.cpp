// ptespec check: `test` and `prove` for the chosen strategies, folded into
// one verdict per strategy and property: the randomised verdict, then the
// proofs' verdict over the obligations that speak for that property
// (e.g. "holds+proved", "fails+refuted"; "holds" alone where no obligation
// covers the property).  Exit 0 only when everything held and was proved.

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/proof_flags.h"
#include "cli/selection.h"
#include "model/errors.h"
#include "proofs/catalogue.h"
#include "properties/runner.h"

namespace ptespec::cli {

namespace {

struct check_cli {
	selection sel;
	proof_flags proof;
	int cases = 100;
	std::uint64_t seed = 1;
	bool json = false;
};

int run_check(const check_cli& c)
{
	const std::vector<strategy*> strategies = c.sel.resolve();
	const std::vector<granule> grans = c.proof.grans();
	if (c.cases < 1 || c.cases > 1000000)
		throw usage_error(fmt::format("--cases {}: expected a number of cases from 1 to 1000000", c.cases));
	const proofs::prove_options o = c.proof.options();
	const std::vector<proofs::proof_result> proved = proofs::prove_all(strategies, grans, o);

	std::size_t passed = 0, failed = 0;
	nlohmann::json list = nlohmann::json::array();
	std::string table;
	for (granule g : grans) {
		table += fmt::format("\n{:<16}", fmt::format("[{}]", to_string(g)));
		for (property p : all_properties)
			table += fmt::format(" {:<15}", to_string(p));
		table += "\n";
		for (strategy* s : strategies) {
			table += fmt::format("{:<16}", s->info().name);
			for (property p : all_properties) {
				run_options ro;
				ro.gran = g;
				ro.seed = c.seed;
				ro.cases = c.cases;
				const property_result pr = run_property(*s, p, ro);
				const std::string pw = proofs::proof_word(proved, s->info().name, g, p);
				const std::string word =
					std::string(to_string(pr.v)) + (pw.empty() ? "" : "+" + pw);
				const bool bad = pr.v == verdict::fails || (!pw.empty() && pw != "proved");
				(bad ? failed : passed)++;
				table += fmt::format(" {:<15}", word);
				list.push_back({{"strategy", s->info().name},
						{"property", to_string(p)},
						{"granule", to_string(g)},
						{"test", to_string(pr.v)},
						{"proof", pw.empty() ? nlohmann::json(nullptr) : nlohmann::json(pw)},
						{"verdict", word}});
			}
			table += "\n";
		}
	}
	// Helper algebra: strategy-independent, counted once.
	for (const auto& r : proved)
		if (r.strategy.empty())
			(r.verdict == proofs::proof_verdict::proved ? passed : failed)++;

	if (c.json) {
		fmt::print("{}\n", nlohmann::json{{"seed", c.seed}, {"results", list}}.dump(2));
	} else {
		fmt::print("seed {}, {} cases per pair; proofs: any number of hardware events per gap\n", c.seed, c.cases);
		fmt::print("{}", table);
		for (const auto& r : proved)
			if (r.verdict != proofs::proof_verdict::proved)
				fmt::print("\n[{}] {} {}: {}{}\n", to_string(r.gran), r.strategy.empty() ? "-" : r.strategy,
					   r.obligation, to_string(r.verdict),
					   r.verdict == proofs::proof_verdict::unknown ? " (" + r.detail + ")"
					   : r.replay.empty()			       ? ""
										       : ", replay: " + r.replay);
		fmt::print("\n{} passed, {} failed\n", passed, failed);
	}
	return failed ? exit_failed : exit_ok;
}

} // namespace

action define_check(CLI::App& sub)
{
	auto c = std::make_shared<check_cli>();
	c->sel.define(sub);
	c->proof.define(sub);
	sub.add_option("--cases", c->cases, "RapidCheck cases per strategy and property (default 100)");
	sub.add_option("--seed", c->seed, "seed of the randomised part (default 1)");
	sub.add_flag("--json", c->json, "print the results as JSON");
	return [c] { return run_check(*c); };
}

} // namespace ptespec::cli
