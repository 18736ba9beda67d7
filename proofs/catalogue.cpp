#include "proofs/catalogue.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <utility>

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
		throw usage_error("no granule: expected 4k, 16k, 64k or all");
	return out;
}

namespace {

// "3 of 60 ended; running: mainline exit/run-cont16 4k 1234 paths 12 s, ..."
std::string status_text(const isolated_status& st)
{
	std::string s = fmt::format("proofs: {} of {} ended", st.ended, st.total);
	for (std::size_t k = 0; k < st.running.size(); k++) {
		const isolated_status::running_job& r = st.running[k];
		s += fmt::format("{} {} {} {}: {} paths, {:.0f} s", k == 0 ? "; running" : ";",
				 r.strategy.empty() ? "-" : r.strategy, r.obligation.empty() ? r.first : r.obligation,
				 to_string(r.gran), r.paths, r.seconds);
	}
	return s;
}

// How long an obligation runs, relative to the others at its granule, for
// the scheduler's order only (heaviest first, so the longest does not start
// last and run alone): CONT_PTES times its names, and for the step/ calls
// whose proofs run longest, their measured share.  step/ for mainline at 4K
// (docs/performance.md): ptep_set_access_flags 162 s alone, the batched
// clears 95-117 s, ptep_get_lockless and ptep_get_and_clear_full 40-80 s,
// most of the rest 10-40 s.  A wrong hint costs wall time, never a verdict.
double cost_hint(const obligation& ob, granule g)
{
	static constexpr std::pair<std::string_view, double> heavy[] = {
		{"step/ptep_set_access_flags", 8},  {"step/get_and_clear_full_ptes", 5}, {"step/clear_full_ptes", 5},
		{"step/ptep_get_lockless", 4},	    {"step/ptep_get_and_clear_full", 2}, {"step/wrprotect_ptes", 2},
		{"step/modify_prot_start_ptes", 2}, {"step/clear_flush_young_ptes", 2},
	};
	double share = 0;
	for (const std::string& n : ob.names) {
		double w = 1;
		for (const auto& [name, h] : heavy)
			if (n == name || (n.starts_with(name) && n[name.size()] == '-'))	// step/X-cont16
				w = h;
		share += w;
	}
	return static_cast<double>(geometry::of(g).cont_ptes) * share;
}

} // namespace

std::vector<proof_result> prove_all(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
				    const prove_options& o, const std::function<void(const proof_result&)>& done,
				    const std::function<void(const std::string&)>& progress)
{
	std::vector<isolated_job> jobs;
	for (granule g : grans) {
		bool helpers = false;
		for (const std::string& n : helper_names())
			helpers = helpers || o.wants(n);
		// The helper algebra is quick and its lines come first (results
		// are heard in job order): started first, it holds nothing back.
		if (helpers)
			jobs.push_back({"", {"helpers"}, g, [g, o] { return prove_helpers(g, o); },
					std::numeric_limits<double>::max()});
		// An obligation's cost grows with the run (CONT_PTES 128 first) and
		// with the call (cost_hint).
		for (strategy* s : strategies)
			for (obligation& ob : s->symbolic() ? obligations_of(*s, g, o) : std::vector<obligation>{})
				jobs.push_back({s->info().name, ob.names, g, [s, ob] { return run_obligation(*s, ob); },
						cost_hint(ob, g)});
	}
	std::function<void(const isolated_status&)> heard;
	if (progress)
		heard = [&progress](const isolated_status& st) { progress(status_text(st)); };
	return run_isolated(jobs, o.schedule.jobs, o.schedule.wall_seconds, done, heard);
}

std::vector<property> covered_properties(const proof_result& r)
{
	const obligation_scope* sc = scope_of(r);
	return sc ? sc->properties : std::vector<property>{};
}

std::vector<call_kind> judged_calls(const strategy& s, property p)
{
	std::vector<call_kind> out;
	for (std::size_t k = 0; k < nr_call_kinds; k++) {
		const call_kind kind = static_cast<call_kind>(k);
		if (!s.implements(kind))
			continue;
		call c;
		c.kind = kind;
		c.flags = CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY;
		const call_semantics sem = semantics_of(c);
		const bool reads_only = kind == call_kind::ptep_get || kind == call_kind::ptep_get_lockless ||
					kind == call_kind::huge_ptep_get;
		bool judged = false;
		switch (p) {
		case property::batch_or: judged = sem.batch; break;
		case property::per_call:
		case property::precise: judged = sem.reports; break;
		case property::no_loss:
		case property::isolation:
		case property::well_formed:
		case property::permission:
		case property::mapping: judged = !reads_only; break;
		case property::lockless: judged = kind == call_kind::ptep_get_lockless; break;
		case property::progress:
			judged = kind == call_kind::ptep_set_access_flags || kind == call_kind::huge_ptep_set_access_flags;
			break;
		}
		if (judged)
			out.push_back(kind);
	}
	return out;
}

std::vector<call_kind> not_inductive_for(const std::vector<proof_result>& rs, const strategy& s, granule g,
					 bool hugetlb)
{
	std::vector<call_kind> out;
	for (std::size_t k = 0; k < nr_call_kinds; k++) {
		const call_kind kind = static_cast<call_kind>(k);
		// The hugetlb calls act on hugetlb VMAs' tables, which the callers
		// reach with hugetlb calls only, and the others on the others'.
		if (!s.implements(kind) || is_hugetlb_call(kind) != hugetlb)
			continue;
		const bool proved = std::any_of(rs.begin(), rs.end(), [&](const proof_result& r) {
			const obligation_scope* sc = scope_of(r);
			return r.strategy == s.info().name && r.gran == g && sc && sc->from_invariant &&
			       r.verdict == proof_verdict::proved &&
			       std::find(sc->calls.begin(), sc->calls.end(), kind) != sc->calls.end();
		});
		if (!proved)
			out.push_back(kind);
	}
	return out;
}

namespace {

struct coverage {
	bool covered = false, refuted = false, undecided = false, every_table = true, every_place = true;
	std::vector<call_kind> calls;	// judged calls the obligations ran
	bool hint = false;	// and the strategy's pte_batch_hint, which per-call judges
	bool hugetlb = false, contpte = false;	// obligations over hugetlb tables ran, over the others
	std::vector<std::string> tables;
};

coverage coverage_of(const std::vector<proof_result>& rs, const strategy& s, granule g, property p)
{
	coverage cv;
	const std::vector<call_kind> judged = judged_calls(s, p);
	const bool inductive = not_inductive_for(rs, s, g).empty();
	const bool huge_inductive = not_inductive_for(rs, s, g, true).empty();
	for (const proof_result& r : rs) {
		if (r.strategy != s.info().name || r.gran != g)
			continue;
		const obligation_scope* sc = scope_of(r);
		const bool refutes_p = r.verdict == proof_verdict::refuted && r.ce && r.ce->prop == p;
		if (!sc || std::find(sc->properties.begin(), sc->properties.end(), p) == sc->properties.end()) {
			// A strategy that reached outside the table on a feasible
			// path is refuted for isolation or well-formed by whichever
			// obligation ran it there; that proves nothing else of p.
			if (refutes_p)
				cv.covered = cv.refuted = true;
			continue;
		}
		cv.covered = true;
		if (refutes_p)
			cv.refuted = true;
		else if (r.verdict != proof_verdict::proved)
			cv.undecided = true;
		const bool of_hugetlb = !sc->calls.empty() && is_hugetlb_call(sc->calls.front());
		(of_hugetlb ? cv.hugetlb : cv.contpte) = true;
		cv.every_table =
			cv.every_table && (sc->every_table || (sc->from_invariant && (of_hugetlb ? huge_inductive : inductive)));
		cv.every_place = cv.every_place && sc->every_place;
		cv.hint = cv.hint || sc->batch_hint;
		for (call_kind k : sc->calls)
			if (std::find(judged.begin(), judged.end(), k) != judged.end() &&
			    std::find(cv.calls.begin(), cv.calls.end(), k) == cv.calls.end())
				cv.calls.push_back(k);
		const std::string t = fmt::format("{} ({})", r.obligation, sc->tables);
		cv.tables.push_back(t);
	}
	return cv;
}

// Whether p judges s's own pte_batch_hint (per-call does: a hint that
// vouches for what is not so).
bool hint_judged(const strategy& s, property p)
{
	return p == property::per_call && s.has_batch_hint();
}

} // namespace

std::string proof_word(const std::vector<proof_result>& rs, const strategy& s, granule g, property p)
{
	const coverage cv = coverage_of(rs, s, g, p);
	if (!cv.covered)
		return "";
	if (cv.refuted)
		return "refuted";
	if (cv.undecided)
		return "unknown";
	const bool all_calls = cv.calls.size() == judged_calls(s, p).size() && (cv.hint || !hint_judged(s, p));
	return all_calls && cv.every_table && cv.every_place ? "proved" : "partly proved";
}

coverage_text proof_coverage(const std::vector<proof_result>& rs, const strategy& s, granule g, property p)
{
	const coverage cv = coverage_of(rs, s, g, p);
	std::string ran, missing;
	for (call_kind k : cv.calls)
		ran += fmt::format("{}{}", ran.empty() ? "" : ", ", to_string(k));
	for (call_kind k : judged_calls(s, p))
		if (std::find(cv.calls.begin(), cv.calls.end(), k) == cv.calls.end())
			missing += fmt::format("{}{}", missing.empty() ? "" : ", ", to_string(k));
	if (hint_judged(s, p)) {
		std::string& into = cv.hint ? ran : missing;
		into += fmt::format("{}pte_batch_hint", into.empty() ? "" : ", ");
	}
	std::string tables;
	for (const std::string& t : cv.tables)
		tables += fmt::format("{}{}", tables.empty() ? "" : "; ", t);
	std::string open;
	if (!cv.every_table)
		for (bool hugetlb : {false, true})
			for (call_kind k : (hugetlb ? cv.hugetlb : cv.contpte) ? not_inductive_for(rs, s, g, hugetlb)
									       : std::vector<call_kind>{})
				open += fmt::format("{}{}", open.empty() ? "" : ", ", to_string(k));
	return {fmt::format("proved for {} by {}; not covered: {}{}{}", ran.empty() ? "no call" : ran, tables,
			    missing.empty() ? "no other call" : missing,
			    cv.every_table ? "" : ", and every other table the callers reach",
			    cv.every_place || !cv.every_table ? ""
							      : ", and the entries and ranges between those tried (a "
								"longer table, a batch over more runs)"),
		open.empty() ? "" : "the invariant of reachable tables is not proved inductive for " + open};
}

} // namespace ptespec::proofs
