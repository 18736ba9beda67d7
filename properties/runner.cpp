#include "properties/runner.h"

#include <rapidcheck.h>
#include <rapidcheck/state.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include <fmt/format.h>

#include "model/ruler.h"
#include "model/transcript.h"
#include "properties/commands.h"
#include "properties/generators.h"
#include "properties/harness.h"

namespace ptespec {

std::string_view to_string(verdict v)
{
	switch (v) {
	case verdict::holds: return "holds";
	case verdict::fails: return "fails";
	case verdict::not_exercised: return "not exercised";
	case verdict::not_applicable: return "n/a";
	}
	return "?";
}

std::string verdict_word(const property_result& r)
{
	if (r.v != verdict::fails)
		return std::string(to_string(r.v));
	return r.ce.breach ? "CALLER" : "FAILS";
}

tally tally_of(const std::vector<property_result>& results)
{
	tally n;
	for (const property_result& r : results)
		switch (r.v) {
		case verdict::holds: n.passed++; break;
		case verdict::fails: n.failed++; break;
		case verdict::not_exercised: n.undecided++; break;
		case verdict::not_applicable: n.not_applicable++; break;
		}
	return n;
}

std::string tally_line(const tally& n)
{
	std::string s = fmt::format("{} passed, {} failed, {} undecided", n.passed, n.failed, n.undecided);
	if (n.not_applicable)
		s += fmt::format(" ({} n/a)", n.not_applicable);
	return s;
}

bool property_applicable(const strategy& s, property p)
{
	auto has = [&](call_kind k) { return s.implements(k); };
	if (!has(call_kind::set_ptes) || !has(call_kind::ptep_get))
		return false;
	switch (p) {
	case property::batch_or:
		return has(call_kind::get_and_clear_full_ptes) || has(call_kind::modify_prot_start_ptes);
	case property::lockless: return has(call_kind::ptep_get_lockless);
	case property::progress: return has(call_kind::ptep_set_access_flags);
	default:
		return has(call_kind::ptep_get_and_clear_full) || has(call_kind::get_and_clear_full_ptes) ||
		       has(call_kind::clear_full_ptes);
	}
}

namespace {

// A history cut into printable calls, in the order they began; a hardware
// event outside every call is a line of its own, where it fired.  Each
// call is filed under the caller action (command) whose steps it began in.
std::vector<ce_call> calls_of(const history& h, const std::vector<std::size_t>& command_starts)
{
	std::vector<std::pair<std::size_t, ce_call>> at;	// (first step, call)
	auto command_of = [&](std::size_t step) {
		std::size_t cmd = 0;
		while (cmd + 1 < command_starts.size() && command_starts[cmd + 1] <= step)
			cmd++;
		return cmd;
	};
	walk_calls(
		h,
		[&](const call_span& c) {
			ce_call out{command_of(c.first), describe(*c.c), "", {}, {}};
			for (const hw_event* e : c.hw)
				out.hw.push_back(hw_event_text(*e));
			// Only a call that returned has a result and a table after it.
			if (c.how == call_span::ending::returned) {
				out.result = result_text(*c.r);
				for (const run_change& r : changed_runs(c.before, c.after, h.geo))
					out.runs.emplace_back(fmt::format("run {} {}", r.run, r.before), r.after);
			}
			at.emplace_back(c.first, std::move(out));
		},
		[&](const hw_event& e, std::size_t step) {
			at.emplace_back(step, ce_call{command_of(step), "(between calls)", "", {hw_event_text(e)}, {}});
		});
	std::stable_sort(at.begin(), at.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
	std::vector<ce_call> out;
	for (auto& [step, c] : at)
		out.push_back(std::move(c));
	return out;
}

// RapidCheck announces its own (environment) configuration on first use; our
// seed is the one that counts, so read its configuration once in silence.
void quiet_rapidcheck_configuration()
{
	static const bool done = [] {
		std::streambuf* saved = std::cerr.rdbuf(nullptr);
		(void)rc::detail::configuration();
		std::cerr.rdbuf(saved);
		return true;
	}();
	(void)done;
}

// The caller model a case starts from in world w, as the options shape it.
world_model first_model(const world_layout& w, const run_options& o)
{
	world_model m = world_model::empty(w, o.adversarial);
	m.vary_attributes = o.vary_attributes;
	m.alias_nonpresent = o.alias_nonpresent;
	m.interleave_lockless = o.interleave_lockless;
	m.fault_around = o.fault_around;
	m.batch_young = o.batch_young;
	m.mprotect = o.mprotect;
	m.hugetlb = o.hugetlb;
	return m;
}

// Why a strategy cannot be judged on p at all, as the verdict it gets.
std::optional<property_result> unjudgeable(const strategy& s, property p, const run_options& o)
{
	property_result res;
	res.strategy = s.info().name;
	res.prop = p;
	if (o.hugetlb && (!s.implements(call_kind::set_huge_pte_at) || !s.implements(call_kind::huge_ptep_get))) {
		res.v = verdict::not_exercised;
		res.why_not_exercised = "the strategy has no set_huge_pte_at or no huge_ptep_get: no hugepage can be "
					"mapped and read";
		return res;
	}
	if (!o.hugetlb && (!s.implements(call_kind::set_ptes) || !s.implements(call_kind::ptep_get))) {
		res.v = verdict::not_exercised;
		res.why_not_exercised = "the strategy has no set_ptes or no ptep_get: nothing can be mapped and read";
		return res;
	}
	// The hugetlb callers make no lockless read (GUP-fast of a hugetlb
	// page is not modelled yet): none of the calls lockless judges.
	if (!property_applicable(s, p) || (o.hugetlb && p == property::lockless)) {
		res.v = verdict::not_applicable;
		return res;
	}
	return std::nullopt;
}

// What the cases of one run left behind: the calls and judgements they
// counted, and the shrunk failure if one failed.
struct case_run {
	failure_slot slot;
	std::uint64_t calls = 0, exercised = 0;
};

// What a run does around each case: `skip` says a case need not run at
// all; `after` sees the harness of a case that ran to its end, or null
// when a caller broke a rule in a run judging no one property.
struct case_hooks {
	std::function<bool()> skip;
	std::function<void(const harness*)> after;
};

// RapidCheck draws and shrinks the cases: each is a command sequence run on
// a fresh harness in a world of its own shift, judged for `judged` (every
// property is judged; none fails the case when judged is empty).
rc::detail::TestResult run_cases(strategy& s, std::optional<property> judged, const run_options& o,
				 const std::string& id, failure_slot* slot, const case_hooks& hooks)
{
	// One layout per shift, kept for the whole run: a command drawn in one
	// case may be drawn again while a later one shrinks, from the model it
	// kept (the core layouts of a granule differ only in their pfns, so a
	// command fits each of them; a hugetlb command drawn for a pte table
	// does not fit a pmd table, and says so in its preconditions).
	std::map<std::tuple<std::size_t, bool, bool>, world_layout> layouts;	// by shift, BBML2, pmd table
	set_failure_slot(slot);
	auto prop = [&] {
		if (hooks.skip && hooks.skip())
			return;
		begin_case();
		// Drawn first, so a case shrinks towards the aligned world (and,
		// where drawn, towards the hardware without BBML2).
		const std::size_t shift = o.shift_pfns && !o.hugetlb ? *gen::pfn_shift(geometry::of(o.gran)) : 0;
		RC_CLASSIFY(shift != 0, "folios' pfns off CONT alignment");
		// The hugetlb callers' table: a pte table of CONT_PTE hugepages
		// or a pmd table of CONT_PMD ones, drawn per case.
		const bool pmd = o.hugetlb && *rc::gen::arbitrary<bool>();
		RC_CLASSIFY(pmd, "a pmd table of CONT_PMD hugepages");
		hardware_options hw = o.hw;
		if (o.draw_bbml2) {
			hw.bbml2_noabort = *rc::gen::arbitrary<bool>();
			RC_CLASSIFY(hw.bbml2_noabort, "BBML2 drawn for the case");
		}
		const std::tuple key{shift, hw.bbml2_noabort, pmd};
		auto at = layouts.find(key);
		if (at == layouts.end())
			at = layouts.emplace(key, o.hugetlb ? world_layout::make_hugetlb(o.gran, hw, pmd)
							    : world_layout::make(o.gran, shift, hw))
				     .first;
		const world_layout& w = at->second;
		harness h(s, w, judged);
		if (o.caller)
			h.set_caller(*o.caller);
		h.set_caller_rules(o.caller_rules);
		h.mach().set_coverage(o.coverage);
		h.set_word_coverage(o.words);
		world_model start = first_model(w, o);
		if (o.swarm) {
			start.swarm = *gen::swarm();
			RC_CLASSIFY(std::any_of(start.swarm.begin(), start.swarm.end(), [](auto k) { return k != 1; }),
				    "swarm: some caller actions left out or tripled");
		}
		try {
			rc::state::check(start, h, [](const world_model& m) { return any_command(m); });
		} catch (const property_failed&) {
			// Only without a failure slot does a failure reach here.
			hooks.after(nullptr);
			return;
		}
		hooks.after(&h);
	};
	rc::detail::TestParams params;
	params.seed = o.seed;
	params.maxSuccess = o.cases;
	params.maxSize = o.max_size;
	rc::detail::TestMetadata meta;
	meta.id = id;
	meta.description = id;
	rc::detail::TestListenerAdapter quiet;
	rc::detail::TestResult result = rc::detail::checkTestable(prop, meta, params, quiet);
	set_failure_slot(nullptr);
	return result;
}

// A run whose cases all passed: holds, or not exercised when no call could
// have broken the property; with the edges the cases met.
void judge_passed(property_result& res, const rc::detail::SuccessResult& ok)
{
	res.v = verdict::holds;
	res.cases = ok.numSuccess;
	// A case's tags come one per command; count each edge once per
	// case that met it.
	std::map<std::string, int> per_tag;
	for (const auto& [tags, count] : ok.distribution) {
		const std::set<std::string> once(tags.begin(), tags.end());
		for (const auto& t : once)
			per_tag[t] += count;
		if (once.empty())
			per_tag["(none of the tagged edges)"] += count;
	}
	res.distribution.assign(per_tag.begin(), per_tag.end());
	if (res.exercised == 0) {
		res.v = verdict::not_exercised;
		res.why_not_exercised = fmt::format("{} cases, {} calls, none that could break it", res.cases, res.calls);
	}
}

// The flags that run o's sweep again: the core sweep is the first of the
// defaults, so it needs none.
std::string sweep_flag(const run_options& o)
{
	switch (o.sweep) {
	case run_options::sweeps::as_given:
		return std::string(o.mprotect ? " --mprotect" : "") + (o.swarm ? " --swarm" : "");
	case run_options::sweeps::core: return "";
	case run_options::sweeps::kernel: return " --sweep kernel";
	case run_options::sweeps::hugetlb: return " --sweep hugetlb";
	case run_options::sweeps::both:
	case run_options::sweeps::all: break;
	}
	throw internal_error("a run of several sweeps has no one sweep to reproduce");
}

// Replays the shrunk sequence on a fresh machine in the case's world,
// recording every step, and keeps it as the counterexample: it must fail
// the same property again.
sampled_counterexample replay_failure(strategy& s, property p, const run_options& o, const failure_slot& slot,
			      const std::string& id)
{
	const world_layout& w = slot.layout;
	history hist;
	harness h(s, w, p, &hist);
	if (o.caller)
		h.set_caller(*o.caller);
	h.set_caller_rules(o.caller_rules);
	std::vector<std::size_t> starts;
	world_model m = first_model(w, o);
	violation v;
	std::optional<mm::caller_breach> breach;
	bool again = false;
	for (const auto& c : slot.commands) {
		starts.push_back(hist.steps.size());
		if (replay_commands({c}, m, h, &v, &breach)) {
			again = true;
			break;
		}
		c->apply(m);
	}
	if (!again || v.prop != p || breach.has_value() != slot.breach.has_value())
		throw internal_error("counterexample for " + id + " did not fail again on replay");
	sampled_counterexample ce;
	for (const auto& c : slot.commands)
		ce.commands.push_back(c->describe());
	ce.commands.resize(starts.size());
	ce.calls = calls_of(hist, starts);
	ce.initial = rulers(hist.initial, w.geo);
	ce.layout = w.describe();
	if (o.draw_bbml2)
		ce.layout += w.hw.bbml2_noabort ? "; BBML2 hardware, drawn for this case" : "; no BBML2, drawn for this case";
	ce.v = v;
	ce.breach = breach;
	ce.hist = hist;
	ce.hint = h.failed_hint();
	const bool other_caller = o.caller && o.caller != &mm::core_mm();
	// A caller from a plugin is loaded as a strategy from one is, unless the
	// strategy's plugin brings it too.
	const std::string& caller_origin = other_caller ? o.caller->info().origin : s.info().origin;
	const std::string load_caller =
		caller_origin == "builtin" || caller_origin == "in-tree" || caller_origin == s.info().origin
			? ""
			: " --plugin " + caller_origin;
	ce.reproduce = fmt::format("ptespec{}{} test --strategy {} --property {} --granule {}{}{} --seed {} --cases {}{}{}",
				   loading_flag(s.info()), load_caller, s.info().name, to_string(p), to_string(o.gran),
				   hardware_flag(o.hw), other_caller ? " --caller " + o.caller->info().name : "",
				   o.seed, o.cases, o.adversarial ? " --adversarial" : "",
				   sweep_flag(o));
	return ce;
}

// Two sweeps' results as one, with the cases, calls and judgements of
// both: the later sweep's failure, named `later`; else the earlier's verdict with the
// edges both met, exercised when either was.
property_result merged(const property_result& core, const property_result& kernel, std::string_view later)
{
	const bool failed = kernel.v == verdict::fails;
	property_result out = failed ? kernel : core;
	out.cases = core.cases + kernel.cases;
	out.calls = core.calls + kernel.calls;
	out.exercised = core.exercised + kernel.exercised;
	if (failed) {
		out.ce.sweep = std::string(later);
		return out;
	}
	std::map<std::string, int> tags(core.distribution.begin(), core.distribution.end());
	for (const auto& [tag, n] : kernel.distribution)
		tags[tag] += n;
	out.distribution.assign(tags.begin(), tags.end());
	if (out.v == verdict::not_exercised && kernel.v == verdict::holds) {
		out.v = verdict::holds;
		out.why_not_exercised.clear();
	}
	return out;
}

// One sweep's run.
property_result run_sweep(strategy& s, property p, const run_options& o);

} // namespace

std::string_view to_string(run_options::sweeps s)
{
	switch (s) {
	case run_options::sweeps::as_given: return "as given";
	case run_options::sweeps::core: return "core";
	case run_options::sweeps::kernel: return "kernel";
	case run_options::sweeps::both: return "both";
	case run_options::sweeps::hugetlb: return "hugetlb";
	case run_options::sweeps::all: return "all";
	}
	return "?";
}

run_options sweep_options(const run_options& o, run_options::sweeps s)
{
	run_options r = o;
	r.sweep = s;
	switch (s) {
	case run_options::sweeps::as_given: break;
	case run_options::sweeps::core:
		r.mprotect = r.swarm = r.draw_bbml2 = false;
		break;
	case run_options::sweeps::kernel:
		r.mprotect = r.swarm = true;
		r.draw_bbml2 = o.hw.is_default();
		break;
	case run_options::sweeps::hugetlb:
		r.mprotect = r.swarm = false;
		r.hugetlb = true;
		r.draw_bbml2 = o.hw.is_default();
		break;
	case run_options::sweeps::both: throw internal_error("sweep_options: both is two sweeps");
	case run_options::sweeps::all: throw internal_error("sweep_options: all is three sweeps");
	}
	return r;
}

std::string sweeps_text(const run_options& o)
{
	const std::string core = "core-mm's everyday callers";
	const std::string kernel = fmt::format("every caller (mprotect, NUMA hinting, guard pages, MADV_COLD, mremap, "
					       "migration too), swarm testing{}",
					       o.hw.is_default() ? ", BBML2 drawn per case" : "");
	switch (o.sweep) {
	case run_options::sweeps::as_given: return "";
	case run_options::sweeps::core: return "one sweep: " + core;
	case run_options::sweeps::kernel: return "one sweep: " + kernel;
	case run_options::sweeps::both: return "two sweeps: " + core + "; then " + kernel;
	case run_options::sweeps::all:
		return fmt::format("three sweeps: {}; then {}; then the hugetlb callers over CONT_PTE and CONT_PMD "
				   "hugepages, a quarter of the cases (for a strategy with hugetlb calls)",
				   core, kernel);
	case run_options::sweeps::hugetlb:
		return fmt::format("one sweep: the hugetlb callers over CONT_PTE and CONT_PMD hugepages (fault, access, "
				   "unmap, fork, mprotect, migration, mremap; a pte or a pmd table drawn per case){}",
				   o.hw.is_default() ? ", BBML2 drawn per case" : "");
	}
	return "";
}

property_result run_property(strategy& s, property p, const run_options& o)
{
	// One property is a group of one: its sweeps run as run_properties
	// runs them, each a run of its own.
	return run_properties(s, {p}, o).front();
}

namespace {

// The properties of ps that held in every case of one sweep judged
// together: each case runs once and is judged for all of them.  Case k
// here is case k of each property's own run -- the same seed and case
// count, and nothing a case draws or does depends on the property judged
// (a failure of the judged one only ends the case early) -- so one that
// held here holds in its own run, with the same cases, calls and edges.
// The others are left empty, for their own run to find and shrink the
// failure.
std::vector<std::optional<property_result>> held_together(strategy& s, const std::vector<property>& ps,
							  const run_options& o)
{
	quiet_rapidcheck_configuration();
	std::vector<std::optional<property_result>> out(ps.size());
	std::vector<bool> open(ps.size(), true);
	std::vector<std::uint64_t> exercised(ps.size(), 0);
	std::size_t left = ps.size();
	std::uint64_t calls = 0;
	const case_hooks hooks{[&] { return left == 0; },
			       [&](const harness* h) {
				       // A caller's broken rule (no harness) fails every
				       // property still open in this case.
				       for (std::size_t k = 0; k < ps.size(); k++) {
					       if (!open[k])
						       continue;
					       if (!h || h->judge().first(ps[k])) {
						       open[k] = false;
						       left--;
					       } else {
						       exercised[k] += h->judge().exercised(ps[k]);
					       }
				       }
				       if (h)
					       calls += h->calls();
			       }};
	const rc::detail::TestResult result = run_cases(s, std::nullopt, o, s.info().name + "/together", nullptr, hooks);
	rc::detail::SuccessResult ok;
	if (!result.match(ok))
		return out;
	for (std::size_t k = 0; k < ps.size(); k++) {
		if (!open[k])
			continue;
		property_result res;
		res.strategy = s.info().name;
		res.prop = ps[k];
		res.calls = calls;
		res.exercised = exercised[k];
		judge_passed(res, ok);
		out[k] = std::move(res);
	}
	return out;
}

// One sweep's runs of several properties: those that held judged together,
// each of the others run on its own.
std::vector<property_result> sweep_together(strategy& s, const std::vector<property>& ps, const run_options& o)
{
	std::vector<property_result> out(ps.size());
	std::vector<property> judged;
	std::vector<std::size_t> at;
	for (std::size_t k = 0; k < ps.size(); k++) {
		if (std::optional<property_result> none = unjudgeable(s, ps[k], o)) {
			out[k] = std::move(*none);
			continue;
		}
		judged.push_back(ps[k]);
		at.push_back(k);
	}
	std::vector<std::optional<property_result>> held(judged.size());
	if (judged.size() > 1)
		held = held_together(s, judged, o);
	for (std::size_t i = 0; i < judged.size(); i++)
		out[at[i]] = held[i] ? std::move(*held[i]) : run_sweep(s, judged[i], o);
	return out;
}

} // namespace

namespace {

// A later sweep (options `later`, named `label`) over the properties of out
// that neither failed nor are n/a -- n/a is the strategy's, the same in
// every sweep -- merged into out.
void then_sweep(strategy& s, const std::vector<property>& ps, std::vector<property_result>& out,
		const run_options& later, std::string_view label)
{
	std::vector<property> again;
	std::vector<std::size_t> at;
	for (std::size_t k = 0; k < ps.size(); k++)
		if (out[k].v != verdict::fails && out[k].v != verdict::not_applicable) {
			again.push_back(ps[k]);
			at.push_back(k);
		}
	const std::vector<property_result> rs = sweep_together(s, again, later);
	for (std::size_t i = 0; i < again.size(); i++)
		out[at[i]] = merged(out[at[i]], rs[i], label);
}

} // namespace

std::vector<property_result> run_properties(strategy& s, const std::vector<property>& ps, const run_options& o)
{
	if (o.sweep != run_options::sweeps::both && o.sweep != run_options::sweeps::all)
		return sweep_together(s, ps, sweep_options(o, o.sweep));
	std::vector<property_result> out = sweep_together(s, ps, sweep_options(o, run_options::sweeps::core));
	for (property_result& r : out)
		if (r.v == verdict::fails)
			r.ce.sweep = "core";
	then_sweep(s, ps, out, sweep_options(o, run_options::sweeps::kernel), "kernel");
	if (o.sweep == run_options::sweeps::all && s.implements(call_kind::set_huge_pte_at) &&
	    s.implements(call_kind::huge_ptep_get)) {
		run_options h = sweep_options(o, run_options::sweeps::hugetlb);
		h.cases = hugetlb_cases(o.cases);
		then_sweep(s, ps, out, h, "hugetlb");
	}
	return out;
}

namespace {

property_result run_sweep(strategy& s, property p, const run_options& o)
{
	quiet_rapidcheck_configuration();
	if (std::optional<property_result> none = unjudgeable(s, p, o))
		return *none;
	property_result res;
	res.strategy = s.info().name;
	res.prop = p;
	const std::string id = res.strategy + "/" + std::string(to_string(p));
	case_run run;
	const rc::detail::TestResult result = run_cases(s, p, o, id, &run.slot, {{}, [&](const harness* h) {
								     run.calls += h->calls();
								     run.exercised += h->judge().exercised(p);
							     }});
	res.calls = run.calls;
	res.exercised = run.exercised;

	rc::detail::SuccessResult ok;
	rc::detail::FailureResult bad;
	if (result.match(ok)) {
		judge_passed(res, ok);
		return res;
	}
	if (!result.match(bad) || !run.slot.set) {
		rc::detail::GaveUpResult gave;
		rc::detail::Error err;
		std::string why = result.match(gave) ? gave.description
				  : result.match(err) ? err.description
							  : "no counterexample";
		throw internal_error("property run " + id + " ended without a verdict: " + why);
	}
	res.v = verdict::fails;
	res.cases = bad.numSuccess + 1;
	res.ce = replay_failure(s, p, o, run.slot, id);
	return res;
}

// The entry of a "ptep_get(#k)" call; none for any other call.
std::optional<std::size_t> read_index(const ce_call& c)
{
	constexpr std::string_view head = "ptep_get(#";
	if (!c.call.starts_with(head) || !c.call.ends_with(")"))
		return std::nullopt;
	std::size_t k = 0;
	const char* first = c.call.data() + head.size();
	const char* end = c.call.data() + c.call.size() - 1;
	const auto [at, ec] = std::from_chars(first, end, k);
	if (ec != std::errc{} || at != end)
		return std::nullopt;
	return k;
}

// How many calls from `from` on are reads of consecutive entries in one
// command that all returned the same value and saw nothing happen: a
// caller walking what is none prints as one line, not sixteen.
std::size_t quiet_reads_from(const std::vector<ce_call>& calls, std::size_t from)
{
	const ce_call& c = calls[from];
	const std::optional<std::size_t> k0 = read_index(c);
	if (!k0 || !c.hw.empty() || !c.runs.empty())
		return 0;
	std::size_t n = 1;
	for (; from + n < calls.size(); n++) {
		const ce_call& d = calls[from + n];
		if (d.command != c.command || read_index(d) != *k0 + n || d.result != c.result || !d.hw.empty() ||
		    !d.runs.empty())
			break;
	}
	return n;
}

} // namespace

std::string format_counterexample(const property_result& r)
{
	std::string out;
	const sampled_counterexample& ce = r.ce;
	if (ce.breach)
		out += fmt::format("counterexample: caller {} breaks the caller rule {} ({}); the call never reached {}, "
				   "which is not blamed ({} was being judged)\n",
				   ce.breach->caller, mm::to_string(ce.breach->b.rule), mm::sentence(ce.breach->b.rule),
				   r.strategy, to_string(r.prop));
	else
		out += fmt::format("counterexample: {} fails {} ({})\n", r.strategy, to_string(r.prop), sentence(r.prop));
	if (!ce.sweep.empty())
		out += fmt::format("  sweep: {}\n", ce.sweep == "kernel"    ? "kernel (every caller, swarm testing)"
						     : ce.sweep == "hugetlb" ? "hugetlb (the hugetlb callers over hugepages)"
									     : "core (core-mm's everyday callers)");
	out += fmt::format("  world: {}\n", ce.layout);
	std::size_t cmd = static_cast<std::size_t>(-1);
	for (std::size_t k = 0; k < ce.calls.size(); k++) {
		const ce_call& c = ce.calls[k];
		if (c.command != cmd) {
			cmd = c.command;
			out += fmt::format("  [{}] {}\n", cmd + 1, cmd < ce.commands.size() ? ce.commands[cmd] : "");
		}
		if (const std::size_t n = quiet_reads_from(ce.calls, k); n >= 3) {
			const ce_call& last = ce.calls[k + n - 1];
			out += fmt::format("      ptep_get(#{}..#{}) = {}, each\n", read_index(c).value(),
					   read_index(last).value(), c.result);
			k += n - 1;
			continue;
		}
		out += fmt::format("      {}{}{}\n", c.call, c.result.empty() ? "" : " = ", c.result);
		for (const auto& hw : c.hw)
			out += fmt::format("        {}\n", hw);
		for (const auto& [a, z] : c.runs)
			out += fmt::format("        {} -> {}\n", a, z);
	}
	if (ce.breach)
		out += wrapped_text(fmt::format("caller rule broken after step {}, #{}: {}", ce.v.step, ce.v.page,
						ce.v.message),
				    2);
	else
		out += wrapped_text(fmt::format("violation at step {}, #{}: {}", ce.v.step, ce.v.page, ce.v.message), 2);
	out += fmt::format("  reproduce: {}\n", ce.reproduce);
	return out;
}

} // namespace ptespec
