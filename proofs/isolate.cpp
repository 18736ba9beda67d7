#include "proofs/isolate.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "model/errors.h"
#include "os/children.h"

namespace ptespec::proofs {

namespace {

using json = nlohmann::json;

json call_to_json(const call& c)
{
	return {static_cast<int>(c.kind), c.index, c.nr, c.full, c.pte, c.flags};
}

call call_from_json(const json& j)
{
	call c;
	c.kind = static_cast<call_kind>(j.at(0).get<int>());
	c.index = j.at(1).get<std::size_t>();
	c.nr = j.at(2).get<std::size_t>();
	c.full = j.at(3).get<bool>();
	c.pte = j.at(4).get<std::uint64_t>();
	c.flags = j.at(5).get<unsigned>();
	return c;
}

json ce_to_json(const counterexample& ce)
{
	json folios = json::array(), calls = json::array(), events = json::array(), witness = json::array();
	for (const folio_extent& f : ce.folios)
		folios.push_back({f.first_pfn, f.nr_pages});
	for (const call& c : ce.calls)
		calls.push_back(call_to_json(c));
	for (const ce_event& e : ce.events)
		events.push_back({e.call, e.gap, e.entry, static_cast<int>(e.kind)});
	for (const call& c : ce.witness)
		witness.push_back(call_to_json(c));
	return {{"granule", static_cast<int>(ce.geo.gran)},
		{"pmd_table", ce.geo.pmd_table()},
		{"folios", folios},
		{"initial", ce.initial},
		{"calls", calls},
		{"events", events},
		{"prop", static_cast<int>(ce.prop)},
		{"witness", witness},
		{"calls_not_needed", ce.calls_not_needed},
		{"hint", ce.hint ? json{ce.hint->entry, ce.hint->pte, ce.hint->answer} : json(nullptr)},
		{"hw", {ce.hw.bbml2_noabort, ce.hw.no_hafdbs, ce.hw.one_cpu}}};
}

counterexample ce_from_json(const json& j)
{
	counterexample ce;
	const granule g = static_cast<granule>(j.at("granule").get<int>());
	ce.geo = j.value("pmd_table", false) ? geometry::pmd_of(g) : geometry::of(g);
	for (const json& f : j.at("folios"))
		ce.folios.push_back({f.at(0).get<std::uint64_t>(), f.at(1).get<std::uint64_t>()});
	ce.initial = j.at("initial").get<std::vector<std::uint64_t>>();
	for (const json& c : j.at("calls"))
		ce.calls.push_back(call_from_json(c));
	for (const json& e : j.at("events"))
		ce.events.push_back({e.at(0).get<std::size_t>(), e.at(1).get<std::size_t>(), e.at(2).get<std::size_t>(),
				     static_cast<hw_kind>(e.at(3).get<int>())});
	ce.prop = static_cast<property>(j.at("prop").get<int>());
	for (const json& c : j.at("witness"))
		ce.witness.push_back(call_from_json(c));
	ce.calls_not_needed = j.at("calls_not_needed").get<std::size_t>();
	if (const json& h = j.at("hint"); !h.is_null())
		ce.hint = hint_query{h.at(0).get<std::size_t>(), h.at(1).get<std::uint64_t>(), h.at(2).get<std::size_t>()};
	const json& hw = j.at("hw");
	ce.hw.bbml2_noabort = hw.at(0).get<bool>();
	ce.hw.no_hafdbs = hw.at(1).get<bool>();
	ce.hw.one_cpu = hw.at(2).get<bool>();
	return ce;
}

// A job whose process did not hand back results: each of its obligations
// unknown.
std::vector<proof_result> lost(const isolated_job& job, const std::string& why, double seconds)
{
	std::vector<proof_result> out;
	for (const std::string& name : job.obligations) {
		proof_result r;
		r.strategy = job.strategy;
		r.obligation = name;
		r.gran = job.gran;
		r.verdict = proof_verdict::unknown;
		r.detail = why;
		r.seconds = seconds;
		out.push_back(std::move(r));
	}
	return out;
}

// The child's side of the progress pipe: at most five lines a second, each
// "<obligation>\t<paths>", small enough that one write() of it is atomic; a
// parent that stopped reading never blocks the proof (the pipe is
// non-blocking).
void report_to_parent(int fd)
{
	set_proof_progress([fd, last = std::chrono::steady_clock::time_point{}](const proof_result& r) mutable {
		const auto now = std::chrono::steady_clock::now();
		if (now - last < std::chrono::milliseconds(200))
			return;
		last = now;
		const std::string line = fmt::format("{}\t{}\n", r.obligation.substr(0, 200), r.paths);
		[[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
	});
}

// What a finished child handed back.
std::vector<proof_result> collect(const isolated_job& job, const os::child_end& e, double wall_seconds)
{
	using kind = os::child_end::kind;
	if (e.how == kind::raised)
		throw internal_error(
			fmt::format("{} {}: {}", job.strategy.empty() ? "-" : job.strategy, fmt::join(job.obligations, "+"), e.out));
	if (e.how == kind::bad_status && e.code == 0)
		return lost(job, "the prover process sent back no results", e.seconds);
	if (e.how != kind::returned)
		return lost(job, "the prover process " + os::describe(e, wall_seconds), e.seconds);
	if (!json::accept(e.out))
		return lost(job, "the prover process sent back no results", e.seconds);
	return results_from_json(e.out);
}

} // namespace

std::string results_to_json(const std::vector<proof_result>& rs)
{
	json list = json::array();
	for (const proof_result& r : rs) {
		json j{{"obligation", r.obligation},
		       {"strategy", r.strategy},
		       {"granule", static_cast<int>(r.gran)},
		       {"verdict", static_cast<int>(r.verdict)},
		       {"seconds", r.seconds},
		       {"run_seconds", r.run_seconds},
		       {"solve_seconds", r.solve_seconds},
		       {"paths", r.paths},
		       {"path_questions", r.path_questions},
		       {"time_stops", r.time_stops},
		       {"formulas", r.formulas},
		       {"detail", r.detail},
		       {"replay", r.replay},
		       {"ce_text", r.ce_text}};
		if (r.ce)
			j["ce"] = ce_to_json(*r.ce);
		list.push_back(std::move(j));
	}
	return list.dump();
}

std::vector<proof_result> results_from_json(const std::string& text)
{
	std::vector<proof_result> out;
	try {
		for (const json& j : json::parse(text)) {
			proof_result r;
			r.obligation = j.at("obligation").get<std::string>();
			r.strategy = j.at("strategy").get<std::string>();
			r.gran = static_cast<granule>(j.at("granule").get<int>());
			r.verdict = static_cast<proof_verdict>(j.at("verdict").get<int>());
			r.seconds = j.at("seconds").get<double>();
			r.run_seconds = j.at("run_seconds").get<double>();
			r.solve_seconds = j.at("solve_seconds").get<double>();
			r.paths = j.at("paths").get<std::size_t>();
			r.path_questions = j.at("path_questions").get<std::size_t>();
			r.time_stops = j.at("time_stops").get<std::size_t>();
			r.formulas = j.at("formulas").get<std::size_t>();
			r.detail = j.at("detail").get<std::string>();
			r.replay = j.at("replay").get<std::string>();
			r.ce_text = j.at("ce_text").get<std::string>();
			if (j.contains("ce"))
				r.ce = ce_from_json(j.at("ce"));
			out.push_back(std::move(r));
		}
	} catch (const json::exception& e) {
		throw internal_error(fmt::format("prover: malformed results from a prover process: {}", e.what()));
	}
	return out;
}

std::vector<proof_result> run_isolated(const std::vector<isolated_job>& jobs, unsigned parallel, double wall_seconds,
				       const std::function<void(const proof_result&)>& done,
				       const std::function<void(const isolated_status&)>& progress)
{
	std::vector<os::child_job> children;
	for (const isolated_job& job : jobs)
		children.push_back({[&job](int progress_fd) {
					    report_to_parent(progress_fd);
					    return results_to_json(job.run());
				    },
				    job.weight});
	std::vector<proof_result> out;
	auto ended = [&](std::size_t k, os::child_end e) {
		for (proof_result& r : collect(jobs[k], e, wall_seconds)) {
			if (done)
				done(r);
			out.push_back(std::move(r));
		}
	};
	auto tick = [&](std::size_t over, const std::vector<os::running_child>& now) {
		if (!progress)
			return;
		isolated_status st{over, jobs.size(), {}};
		for (const os::running_child& c : now) {
			const isolated_job& job = jobs[c.job];
			isolated_status::running_job r{job.strategy, job.obligations.empty() ? "" : job.obligations.front(),
						       job.gran, "", 0, c.seconds};
			if (const std::size_t tab = c.said.find('\t'); tab != std::string::npos) {
				r.obligation = c.said.substr(0, tab);
				r.paths = std::strtoull(c.said.c_str() + tab + 1, nullptr, 10);
			}
			st.running.push_back(std::move(r));
		}
		progress(st);
	};
	os::run_children(children, parallel, wall_seconds, ended, tick);
	return out;
}

} // namespace ptespec::proofs
