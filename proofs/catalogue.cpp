#include "proofs/catalogue.h"

#include <fmt/format.h>

#include "model/errors.h"

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
	std::vector<proof_result> out;
	auto keep = [&](proof_result r) {
		if (done)
			done(r);
		out.push_back(std::move(r));
	};
	for (granule g : grans) {
		for (proof_result& r : prove_helpers(g, o))
			keep(std::move(r));
		for (strategy* s : strategies)
			prove_strategy(*s, g, o, keep);
	}
	return out;
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

} // namespace ptespec::proofs
