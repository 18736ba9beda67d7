#include "verdicts/sampled.h"

#include <algorithm>
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

// A re-judgement of j's result where the proofs are asked for one.
sampled_cell judged_cell(const sampled_job& j, property_result r)
{
	sampled_cell c{std::move(r), ""};
	if (j.rejudge && c.r.v == verdict::fails && !c.r.ce.breach)
		c.agreement = agreement_of(j, c.r);
	return c;
}

bool stays_here(const sampled_job& j)
{
	return j.o.coverage != nullptr || j.o.words != nullptr;
}

// The jobs that run as one: the properties of one strategy with the same
// options (granule, seed, case count, sweeps...) share their cases
// (run_properties).  A job that records coverage runs alone: what it
// records is its own run's.  Groups in the order of their first job.
std::vector<std::vector<std::size_t>> groups_of(const std::vector<sampled_job>& list)
{
	std::vector<std::vector<std::size_t>> groups;
	for (std::size_t k = 0; k < list.size(); k++) {
		const sampled_job& j = list[k];
		auto joins = [&](const std::vector<std::size_t>& g) {
			const sampled_job& first = list[g.front()];
			return !stays_here(j) && !stays_here(first) && first.s == j.s && first.o == j.o;
		};
		auto at = std::find_if(groups.begin(), groups.end(), joins);
		if (at == groups.end())
			groups.push_back({k});
		else
			at->push_back(k);
	}
	return groups;
}

std::vector<sampled_cell> run_group(const std::vector<sampled_job>& list, const std::vector<std::size_t>& group)
{
	const sampled_job& first = list[group.front()];
	std::vector<property> ps;
	for (std::size_t k : group)
		ps.push_back(list[k].p);
	const std::vector<property_result> rs = group.size() == 1
							? std::vector<property_result>{run_property(*first.s, first.p, first.o)}
							: run_properties(*first.s, ps, first.o);
	std::vector<sampled_cell> out;
	for (std::size_t i = 0; i < group.size(); i++)
		out.push_back(judged_cell(list[group[i]], rs[i]));
	return out;
}

} // namespace

std::string status_text(const std::vector<sampled_job>& list, const sampled_status& st)
{
	std::string line = fmt::format("{} of {} ended", st.ended, st.total);
	// The cells of one strategy running together read as one.
	std::vector<std::pair<std::string, std::vector<std::string>>> now;
	for (std::size_t k : st.running) {
		const sampled_job& j = list[k];
		const std::string who = fmt::format("{} {}", to_string(j.o.gran), j.s->info().name);
		if (now.empty() || now.back().first != who)
			now.push_back({who, {}});
		now.back().second.emplace_back(to_string(j.p));
	}
	for (std::size_t k = 0; k < now.size(); k++) {
		const auto& [who, props] = now[k];
		line += fmt::format("{} {} {}", k == 0 ? "; running" : ",", who,
				    props.size() == 1 ? props.front() : fmt::format("({} properties)", props.size()));
	}
	return line;
}

std::vector<sampled_cell> run_sampled(const std::vector<sampled_job>& list, unsigned jobs,
				      const std::function<void(const sampled_status&)>& progress)
{
	std::vector<sampled_cell> out(list.size());
	const std::vector<std::vector<std::size_t>> groups = groups_of(list);
	bool here = os::jobs_or_cores(jobs) == 1;
	for (const sampled_job& j : list)
		here = here || stays_here(j);
	if (here) {
		std::size_t ended = 0;
		for (const std::vector<std::size_t>& g : groups) {
			if (progress)
				progress({ended, list.size(), g});
			const std::vector<sampled_cell> cells = run_group(list, g);
			for (std::size_t i = 0; i < g.size(); i++)
				out[g[i]] = cells[i];
			ended += g.size();
		}
		return out;
	}
	std::vector<os::child_job> children;
	for (const std::vector<std::size_t>& g : groups) {
		const sampled_job& j = list[g.front()];
		children.push_back({[&list, &g](int) {
					    // Bad input found only while running (a plugin's or a
					    // tree's) stays bad input, exit 2, as in a serial run.
					    try {
						    nlohmann::json cells = nlohmann::json::array();
						    for (const sampled_cell& c : run_group(list, g))
							    cells.push_back({{"result", to_wire(c.r)}, {"agreement", c.agreement}});
						    return cells.dump();
					    } catch (const usage_error& e) {
						    return nlohmann::json{{"usage_error", e.what()}}.dump();
					    }
				    },
				    // The longest first: cases times the run's length.
				    static_cast<double>(j.o.cases) * static_cast<double>(cont_ptes_of(j.o.gran))});
	}
	std::size_t ended_cells = 0;
	auto ended = [&](std::size_t k, os::child_end e) {
		const std::vector<std::size_t>& g = groups[k];
		const sampled_job& j = list[g.front()];
		const std::string who = fmt::format("{} {} {}", j.s->info().name,
						    g.size() == 1 ? std::string(to_string(j.p))
								  : fmt::format("({} properties)", g.size()),
						    to_string(j.o.gran));
		if (e.how == os::child_end::kind::raised)
			throw internal_error(e.out);
		if (e.how != os::child_end::kind::returned)
			throw internal_error(fmt::format("the process running {} {}", who, os::describe(e, 0)));
		try {
			const nlohmann::json c = nlohmann::json::parse(e.out);
			if (c.is_object() && c.contains("usage_error"))
				throw usage_error(c.at("usage_error").get<std::string>());
			if (!c.is_array() || c.size() != g.size())
				throw internal_error(fmt::format("the process running {} sent back {} cells, not {}", who,
								 c.is_array() ? c.size() : 0, g.size()));
			for (std::size_t i = 0; i < g.size(); i++)
				out[g[i]] = {result_from_wire(c[i].at("result").get<std::string>()),
					     c[i].at("agreement").get<std::string>()};
		} catch (const nlohmann::json::exception& x) {
			throw internal_error(fmt::format("the process running {} sent back: {}", who, x.what()));
		}
		ended_cells += g.size();
	};
	auto tick = [&](std::size_t, const std::vector<os::running_child>& now) {
		if (!progress)
			return;
		sampled_status st{ended_cells, list.size(), {}};
		for (const os::running_child& c : now)
			for (std::size_t k : groups[c.job])
				st.running.push_back(k);
		progress(st);
	};
	os::run_children(children, jobs, std::numeric_limits<double>::infinity(), ended, tick);
	return out;
}

} // namespace ptespec::verdicts
