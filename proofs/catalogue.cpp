#include "proofs/catalogue.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "model/errors.h"
#include "proofs/isolate.h"

namespace ptespec::proofs {

std::vector<granule> granules_of(const std::vector<std::string>& names)
{
	std::vector<granule> out;
	for (const std::string& n : names) {
		if (n == "all")
			return {granule::k4, granule::k16, granule::k64};
		out.push_back(parse_granule(n));
	}
	if (out.empty())
		throw usage_error("--granule: expected 4k, 16k, 64k or all");
	return out;
}

std::vector<proof_result> prove_all(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
				    const prove_options& o, const std::function<void(const proof_result&)>& done)
{
	std::vector<isolated_job> jobs;
	for (granule g : grans) {
		bool helpers = false;
		for (const std::string& n : helper_names())
			helpers = helpers || o.wants(n);
		if (helpers)
			jobs.push_back({"", {"helpers"}, g, [g, o] { return prove_helpers(g, o); }, 0});
		// An obligation's cost grows with the run: CONT_PTES 128 first.
		const double weight = static_cast<double>(geometry::of(g).cont_ptes);
		for (strategy* s : strategies)
			for (obligation& ob : obligations_of(*s, g, o))
				jobs.push_back({s->info().name, ob.names, g, [s, ob] { return run_obligation(*s, ob); },
						weight * static_cast<double>(ob.names.size())});
	}
	const unsigned parallel = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
	return run_isolated(jobs, parallel, o.wall_seconds, done);
}

std::vector<property> covered_properties(const proof_result& r)
{
	const std::string& n = r.obligation;
	if (n.starts_with("batch-or"))
		return {property::batch_or, property::isolation};
	if (n.starts_with("per-call/"))
		return {property::per_call};
	if (n.starts_with("no-loss/"))
		return {property::no_loss};
	if (n.starts_with("exit/"))
		return {property::no_loss, property::per_call};
	return {};
}

std::string proof_word(const std::vector<proof_result>& rs, const std::string& strategy, granule g, property p)
{
	bool covered = false, refuted = false, undecided = false;
	for (const proof_result& r : rs) {
		if (r.strategy != strategy || r.gran != g)
			continue;
		const std::vector<property> ps = covered_properties(r);
		if (std::find(ps.begin(), ps.end(), p) == ps.end())
			continue;
		covered = true;
		if (r.verdict == proof_verdict::refuted && r.ce && r.ce->prop == p)
			refuted = true;
		else if (r.verdict != proof_verdict::proved)
			undecided = true;
	}
	if (!covered)
		return "";
	return refuted ? "refuted" : undecided ? "unknown" : "proved";
}

} // namespace ptespec::proofs
