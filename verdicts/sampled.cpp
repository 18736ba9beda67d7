#include "verdicts/sampled.h"

#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/errors.h"
#include "os/children.h"
#include "proofs/obligations.h"
#include "properties/result_wire.h"

namespace ptespec::verdicts {

namespace {

// A sampled failure re-judged by the proofs from the table its failing call
// began from: a proof that holds there contradicts the checker, and that
// is ptespec's own bug -- both are printed and the command exits 3.
std::string agreement_of(const sampled_job& j, const property_result& tr)
{
	// On the hardware the case ran on, which the kernel sweep draws.
	proofs::prove_options po = j.po;
	po.hw = tr.ce.hist.hw;
	const proofs::agreement a = tr.ce.hint ? proofs::judge_hint_agreement(*j.s, tr.ce.hist.geo, tr.ce.hist.folios,
									       *tr.ce.hint, po.hw)
					       : proofs::judge_agreement(*j.s, tr.ce.hist, tr.prop, po);
	switch (a.v) {
	case proofs::agreement::verdict::agrees: return "agrees: " + a.why;
	case proofs::agreement::verdict::undecided: return "undecided: " + a.why;
	case proofs::agreement::verdict::outside: return "outside: " + a.why;
	case proofs::agreement::verdict::disagrees: break;
	}
	throw internal_error(fmt::format("the proofs and the checker disagree on {} {} at {}: {}\n{}",
					 j.s->info().name, to_string(tr.prop), to_string(j.o.gran), a.why,
					 format_counterexample(tr)));
}

sampled_cell run_one(const sampled_job& j)
{
	sampled_cell c{run_property(*j.s, j.p, j.o), ""};
	if (j.rejudge && c.r.v == verdict::fails && !c.r.ce.breach)
		c.agreement = agreement_of(j, c.r);
	return c;
}

bool stays_here(const sampled_job& j)
{
	return j.o.coverage != nullptr || j.o.words != nullptr;
}

} // namespace

std::string status_text(const std::vector<sampled_job>& list, const sampled_status& st)
{
	std::string line = fmt::format("{} of {} ended", st.ended, st.total);
	for (std::size_t k = 0; k < st.running.size(); k++) {
		const sampled_job& j = list[st.running[k]];
		line += fmt::format("{} {} {} {}", k == 0 ? "; running" : ",", to_string(j.o.gran), j.s->info().name,
				    to_string(j.p));
	}
	return line;
}
std::vector<sampled_cell> run_sampled(const std::vector<sampled_job>& list, unsigned jobs,
				      const std::function<void(const sampled_status&)>& progress)
{
	std::vector<sampled_cell> out(list.size());
	bool here = os::jobs_or_cores(jobs) == 1;
	for (const sampled_job& j : list)
		here = here || stays_here(j);
	if (here) {
		for (std::size_t k = 0; k < list.size(); k++) {
			if (progress)
				progress({k, list.size(), {k}});
			out[k] = run_one(list[k]);
		}
		return out;
	}
	std::vector<os::child_job> children;
	for (const sampled_job& j : list)
		children.push_back({[&j](int) {
					    // Bad input found only while running (a plugin's or a
					    // tree's) stays bad input, exit 2, as in a serial run.
					    try {
						    const sampled_cell c = run_one(j);
						    return nlohmann::json{{"result", to_wire(c.r)}, {"agreement", c.agreement}}.dump();
					    } catch (const usage_error& e) {
						    return nlohmann::json{{"usage_error", e.what()}}.dump();
					    }
				    },
				    // The longest first: cases times the run's length.
				    static_cast<double>(j.o.cases) * static_cast<double>(cont_ptes_of(j.o.gran))});
	auto ended = [&](std::size_t k, os::child_end e) {
		const sampled_job& j = list[k];
		const std::string who = fmt::format("{} {} {}", j.s->info().name, to_string(j.p), to_string(j.o.gran));
		if (e.how == os::child_end::kind::raised)
			throw internal_error(e.out);
		if (e.how != os::child_end::kind::returned)
			throw internal_error(fmt::format("the process running {} {}", who, os::describe(e, 0)));
		try {
			const nlohmann::json c = nlohmann::json::parse(e.out);
			if (c.contains("usage_error"))
				throw usage_error(c.at("usage_error").get<std::string>());
			out[k] = {result_from_wire(c.at("result").get<std::string>()), c.at("agreement").get<std::string>()};
		} catch (const nlohmann::json::exception& x) {
			throw internal_error(fmt::format("the process running {} sent back: {}", who, x.what()));
		}
	};
	auto tick = [&](std::size_t over, const std::vector<os::running_child>& now) {
		if (!progress)
			return;
		sampled_status st{over, list.size(), {}};
		for (const os::running_child& c : now)
			st.running.push_back(c.job);
		progress(st);
	};
	os::run_children(children, jobs, std::numeric_limits<double>::infinity(), ended, tick);
	return out;
}

} // namespace ptespec::verdicts
