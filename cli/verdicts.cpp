#include "cli/verdicts.h"

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec::cli {

namespace {

cell judge_cell(property_result pr, granule g, std::string pw)
{
	cell c;
	c.test = std::move(pr);
	c.gran = g;
	c.proof = std::move(pw);
	const bool fails = c.test.v == verdict::fails || c.proof == "refuted";
	const bool undecided = c.test.v == verdict::not_exercised || c.proof == "unknown";
	c.out = fails ? outcome::failed
		: undecided ? outcome::undecided
		: c.test.v == verdict::not_applicable && c.proof.empty() ? outcome::not_applicable
									  : outcome::passed;
	const std::string pword = short_proof_word(c.proof);
	c.word = std::string(to_string(c.test.v)) + (pword.empty() ? "" : "+" + pword);
	return c;
}

} // namespace

int default_cases(granule g)
{
	switch (g) {
	// The worst of 100 seeds over every builtin flawed cell (cases to the
	// first failure): 4K 2738, 16K 1953, 64K 2692 (docs/performance.md).
	case granule::k4: return 5000;
	case granule::k16: return 4000;
	case granule::k64: return 5000;
	}
	return 5000;
}

std::string cases_text(const std::vector<granule>& grans, int asked)
{
	if (asked > 0)
		return fmt::format("{} cases per pair", asked);
	std::string s;
	for (granule g : grans)
		s += fmt::format("{}{} {}", s.empty() ? "" : ", ", to_string(g), default_cases(g));
	return fmt::format("cases per pair: {} (the defaults)", s);
}

void check_cases(int cases, bool given)
{
	if (given && (cases < 1 || cases > 1000000))
		throw usage_error(fmt::format("--cases {}: expected a number of cases from 1 to 1000000", cases));
}

std::string short_proof_word(const std::string& proof) { return proof == "partly proved" ? "partly" : proof; }

verdict_table compute_verdicts(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
			       const proofs::prove_options& o, int cases, std::uint64_t seed,
			       const std::function<void(const std::string&)>& progress)
{
	verdict_table t;
	std::size_t proofs_done = 0;
	t.proofs = proofs::prove_all(strategies, grans, o, [&](const proofs::proof_result& r) {
		if (progress)
			progress(fmt::format("proofs: {} done, last {} {} {}", ++proofs_done,
					     r.strategy.empty() ? "-" : r.strategy, r.obligation, to_string(r.verdict)));
	});
	const std::size_t total = grans.size() * strategies.size() * all_properties.size();
	for (granule g : grans)
		for (strategy* s : strategies)
			for (property p : all_properties) {
				if (progress)
					progress(fmt::format("test [{}/{}] {} {} {}", t.cells.size() + 1, total, to_string(g),
							     s->info().name, to_string(p)));
				run_options ro;
				ro.gran = g;
				ro.seed = seed;
				ro.cases = cases_for(g, cases);
				cell c = judge_cell(run_property(*s, p, ro), g, proofs::proof_word(t.proofs, *s, g, p));
				if (c.proof == "partly proved")
					c.proof_covers = proofs::proof_coverage(t.proofs, *s, g, p);
				t.counts[static_cast<int>(c.out)]++;
				t.cells.push_back(std::move(c));
			}
	for (const auto& r : t.proofs)
		if (r.strategy.empty())
			(r.verdict == proofs::proof_verdict::proved    ? t.laws_proved
			 : r.verdict == proofs::proof_verdict::refuted ? t.laws_refuted
								       : t.laws_unknown)++;
	return t;
}

// The words a table used, explained once each.
std::string legend(const std::set<std::string>& used)
{
	static const std::vector<std::pair<std::string, std::string>> words = {
		{"holds", "no sampled case broke it, and some call could have"},
		{"fails", "a sampled case broke it (counterexample below)"},
		{"not exercised", "no call in the sampled cases could have broken it: undecided"},
		{"n/a", "the strategy has none of the calls the property judges"},
		{"proved", "Z3 proved it for every call it judges, from every table the callers reach"},
		{"partly", "partly proved: Z3 proved it for the calls and tables listed below, and no more"},
		{"refuted", "Z3 found a counterexample (replayed on the concrete machine)"},
		{"unknown", "an obligation covering it was not decided (time or path budget): undecided"},
	};
	std::string out = "legend:\n";
	for (const auto& [w, meaning] : words)
		if (used.count(w))
			out += fmt::format("  {:<14} {}\n", w, meaning);
	return out;
}

void add_words(std::set<std::string>& used, const cell& c)
{
	used.insert(std::string(to_string(c.test.v)));
	if (!c.proof.empty())
		used.insert(c.proof == "partly proved" ? "partly" : c.proof);
}

} // namespace ptespec::cli
