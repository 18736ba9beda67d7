#include "verdicts/table.h"

#include <algorithm>

#include <fmt/format.h>

#include "impl/strategy.h"
#include "verdicts/sampled.h"

namespace ptespec::verdicts {

namespace {

cell judge_cell(sampled_cell sc, granule g, std::string pw, bool sampled_only)
{
	cell c;
	c.test = std::move(sc.r);
	c.agreement = std::move(sc.agreement);
	c.gran = g;
	c.proof = std::move(pw);
	c.sampled_only = sampled_only;
	const bool fails = c.test.v == verdict::fails || c.proof == "refuted";
	const bool undecided = c.test.v == verdict::not_exercised || c.proof == "unknown";
	c.out = fails ? outcome::failed
		: undecided ? outcome::undecided
		: c.test.v == verdict::not_applicable && c.proof.empty() ? outcome::not_applicable
									  : outcome::passed;
	const std::string pword = short_proof_word(c.proof);
	const std::string tword = c.test.ce.breach ? "caller" : std::string(to_string(c.test.v));
	c.word = tword + (pword.empty() ? "" : "+" + pword);
	// A cell no proof was tried on says so itself, not only in the legend:
	// a kernel tree's `holds` is what its sampled cases exercised, no more.
	if (sampled_only && c.test.v != verdict::not_applicable)
		c.word += " (sampled)";
	return c;
}

} // namespace

std::string cases_text(const std::vector<granule>& grans, int asked)
{
	if (asked > 0)
		return fmt::format("{} cases per pair", asked);
	std::string s;
	for (granule g : grans) {
		const default_budget b = default_budget_of(g);
		s += fmt::format("{}{} {}", s.empty() ? "" : ", ", to_string(g), b.cases);
		if (b.lockless_cases != b.cases)
			s += fmt::format(" (lockless {})", b.lockless_cases);
	}
	return fmt::format("cases per pair: {} (the defaults)", s);
}

std::string short_proof_word(const std::string& proof) { return proof == "partly proved" ? "partly" : proof; }

// A kernel tree is proved only for the obligations --obligation names: its C
// code branches where a template selects (a run's flags ORed by
// `if (pte_dirty(pte))`), so most default obligations end at their path
// budget, undecided, after a minute each.
bool proves(const strategy& s, const proofs::prove_options& o)
{
	if (s.info().origin.starts_with(kernel_tree_origin) && o.only.empty())
		return false;
	return s.symbolic();
}

verdict_table compute_verdicts(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
			       const table_options& t, const std::function<void(const std::string&)>& progress)
{
	verdict_table out;
	const mm::caller& via = t.via ? *t.via : mm::core_mm();
	const bool prove = !t.hw.no_hafdbs && &via == &mm::core_mm();
	proofs::prove_options po = t.proof;
	po.hw = t.hw;
	std::vector<strategy*> proved;
	for (strategy* s : strategies)
		if (prove && proves(*s, po))
			proved.push_back(s);
	if (prove)	// the helper algebra is proved even with no strategy to prove
		out.proofs = proofs::prove_all(proved, grans, po, {}, progress);

	run_options every;	// what every cell shares
	every.hw = t.hw;
	every.seed = t.seed;
	every.caller = &via;
	every.sweep = t.sweep;
	every.mprotect = t.mprotect;
	every.swarm = t.swarm;
	std::vector<sampled_job> jobs;
	for (granule g : grans)
		for (strategy* s : strategies)
			for (property p : all_properties) {
				sampled_job j{s, p, every, std::find(proved.begin(), proved.end(), s) != proved.end(), po};
				j.o.gran = g;
				j.o.cases = cases_for(g, p, t.cases);
				jobs.push_back(std::move(j));
			}
	auto heard = [&](const sampled_status& st) {
		if (progress)
			progress("test: " + status_text(jobs, st));
	};
	std::vector<sampled_cell> sampled = run_sampled(jobs, po.schedule.jobs, heard);
	for (std::size_t k = 0; k < jobs.size(); k++) {
		const sampled_job& j = jobs[k];
		cell c = judge_cell(std::move(sampled[k]), j.o.gran,
				    j.rejudge ? proofs::proof_word(out.proofs, *j.s, j.o.gran, j.p) : "", !j.rejudge);
		if (c.proof == "partly proved")
			c.proof_covers = proofs::proof_coverage(out.proofs, *j.s, j.o.gran, j.p);
		out.counts[static_cast<int>(c.out)]++;
		out.cells.push_back(std::move(c));
	}
	for (const auto& r : out.proofs)
		if (r.strategy.empty())
			(r.verdict == proofs::proof_verdict::proved    ? out.laws_proved
			 : r.verdict == proofs::proof_verdict::refuted ? out.laws_refuted
								       : out.laws_unknown)++;
	return out;
}

} // namespace ptespec::verdicts
