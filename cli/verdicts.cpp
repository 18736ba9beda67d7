#include "cli/verdicts.h"

#include <fmt/format.h>

#include "model/checker.h"
#include "proofs/obligations.h"
#include "properties/runner.h"
#include "model/errors.h"
#include "model/machine.h"
#include "model/observer.h"
#include "model/ruler.h"
#include "model/transcript.h"

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
	const std::string tword = c.test.ce.breach ? "caller" : std::string(to_string(c.test.v));
	c.word = tword + (pword.empty() ? "" : "+" + pword);
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

namespace {

// A sampled failure re-judged by the proofs from the table its failing call
// began from: a proof that holds there contradicts the checker, and that
// is ptespec's own bug -- both are printed and the command exits 3.
std::string agreement_of(strategy& s, granule g, const property_result& tr, const proofs::prove_options& o)
{
	const proofs::agreement a = tr.ce.hint ? proofs::judge_hint_agreement(s, tr.ce.hist.geo, tr.ce.hist.folios,
									       *tr.ce.hint, o.hw)
					       : proofs::judge_agreement(s, tr.ce.hist, tr.prop, o);
	switch (a.v) {
	case proofs::agreement::verdict::agrees: return "agrees: " + a.why;
	case proofs::agreement::verdict::undecided: return "undecided: " + a.why;
	case proofs::agreement::verdict::outside: return "outside: " + a.why;
	case proofs::agreement::verdict::disagrees: break;
	}
	throw internal_error(fmt::format("the proofs and the checker disagree on {} {} at {}: {}\n{}",
					 s.info().name, to_string(tr.prop), to_string(g), a.why,
					 format_counterexample(tr)));
}

// Whether check proves s: a kernel tree only for the obligations
// --obligation names -- its C code branches where a template selects (a
// run's flags ORed by `if (pte_dirty(pte))`), so most default obligations
// end at their path budget, undecided, after a minute each.
bool proves(const strategy& s, const proofs::prove_options& o)
{
	if (s.info().origin.starts_with(kernel_tree_origin) && o.only.empty())
		return false;
	return s.symbolic();
}

} // namespace

verdict_table compute_verdicts(const std::vector<strategy*>& strategies, const std::vector<granule>& grans,
			       const proofs::prove_options& o, int cases, std::uint64_t seed,
			       const std::function<void(const std::string&)>& progress, const hardware_options& hw,
			       const mm::caller& via, bool mprotect)
{
	verdict_table t;
	const bool prove = !hw.no_hafdbs && &via == &mm::core_mm();
	proofs::prove_options po = o;
	po.hw = hw;
	std::vector<strategy*> proved;
	for (strategy* s : strategies)
		if (prove && proves(*s, o))
			proved.push_back(s);
	if (prove)
		t.proofs = proofs::prove_all(proved, grans, po, {}, progress);
	const std::size_t total = grans.size() * strategies.size() * all_properties.size();
	for (granule g : grans)
		for (strategy* s : strategies)
			for (property p : all_properties) {
				if (progress)
					progress(fmt::format("test [{}/{}] {} {} {}", t.cells.size() + 1, total, to_string(g),
							     s->info().name, to_string(p)));
				run_options ro;
				ro.gran = g;
				ro.hw = hw;
				ro.seed = seed;
				ro.cases = cases_for(g, p, cases);
				ro.caller = &via;
				ro.mprotect = mprotect;
				const bool provable = prove && proves(*s, o);
				cell c = judge_cell(run_property(*s, p, ro), g,
						    provable ? proofs::proof_word(t.proofs, *s, g, p) : "");
				c.sampled_only = !provable;
				if (provable && c.test.v == verdict::fails && !c.test.ce.breach)
					c.agreement = agreement_of(*s, g, c.test, po);
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
		{"caller", "the caller broke a rule the arch code relies on before its call reached the strategy "
			   "(counterexample below): failed, but not the strategy's failure"},
		{"sampled only", "no proof was attempted -- a kernel tree is proved only for the obligations "
				 "--obligation names (its symbolic build branches per entry on a run's flags, so most "
				 "default obligations would end undecided), a strategy whose symbolic build failed not at "
				 "all, and the proofs model neither hardware without HAFDBS nor callers other than core-mm: "
				 "the cell is the sampled verdict alone"},
	};
	std::string out = "legend:\n";
	for (const auto& [w, meaning] : words)
		if (used.count(w))
			out += fmt::format("  {:<14} {}\n", w, meaning);
	return out;
}

void add_words(std::set<std::string>& used, const cell& c)
{
	used.insert(c.test.ce.breach ? "caller" : std::string(to_string(c.test.v)));
	if (!c.proof.empty())
		used.insert(c.proof == "partly proved" ? "partly" : c.proof);
	if (c.sampled_only)
		used.insert("sampled only");
}

// --- JSON ---

namespace {

// Fires a refutation's events where its model placed them (the call, the
// gap, the entry), as proofs/replay.cpp does: the JSON shows the history
// that replay judged.
class planned_events : public hardware_agent {
public:
	explicit planned_events(const std::vector<proofs::ce_event>& events) : events_(events) {}
	void set_call(std::size_t c) { call_ = c; }
	void at_gap(hw_port& port) override
	{
		for (const proofs::ce_event& e : events_)
			if (e.call == call_ && e.gap == port.gap())
				port.fire(e.kind, e.entry, e.entry);
	}

private:
	const std::vector<proofs::ce_event>& events_;
	std::size_t call_ = 0;
};

// The refutation replayed on the concrete machine, recorded; null when it
// has no model to replay (the helper algebra's words are in "text").
nlohmann::json replayed_json(const proofs::proof_result& r)
{
	if (!r.ce || r.strategy.empty())
		return nullptr;
	const proofs::counterexample& ce = *r.ce;
	strategy& s = registry::global().get(r.strategy);
	machine m(ce.geo, ce.initial.size());
	for (std::size_t k = 0; k < ce.initial.size(); k++)
		m.poke(k, ce.initial[k]);
	m.set_folios(ce.folios);
	history h{ce.geo, ce.folios, ce.initial, {}};
	recorder rec(h);
	checker chk(ce.geo, ce.folios, ce.initial);
	observer_list obs;
	obs.add(&chk);
	obs.add(&rec);
	planned_events hw(ce.events);
	m.set_observer(&obs);
	m.set_hardware(&hw);
	// As the replay: a faulted call ends the history.
	auto run = [&](const call& c, std::size_t ordinal) {
		hw.set_call(ordinal);
		try {
			run_call(s, m, c);
			return true;
		} catch (const strategy_fault& f) {
			m.fault_call(c, f);
			return false;
		}
	};
	bool ok = true;
	for (std::size_t k = 0; k < ce.calls.size() && ok; k++)
		ok = run(ce.calls[k], k);
	nlohmann::json hint = nullptr;
	if (ce.hint) {
		const std::size_t n = s.pte_batch_hint(ce.geo, ce.hint->entry, ce.hint->pte);
		chk.on_batch_hint(ce.hint->entry, ce.hint->pte, n, m.table());
		hint = {{"entry", ce.hint->entry}, {"pte", fmt::format("{:#018x}", ce.hint->pte)}, {"answer", n}};
	}
	const std::size_t scenario_calls = history_json(h).at("calls").size();
	m.set_hardware(nullptr);
	for (std::size_t k = 0; k < ce.witness.size() && ok; k++)
		ok = run(ce.witness[k], ce.calls.size());
	nlohmann::json j = history_json(h);
	for (std::size_t k = 0; k < j["calls"].size(); k++)
		j["calls"][k]["witness"] = k >= scenario_calls;
	nlohmann::json events = nlohmann::json::array();
	for (const proofs::ce_event& e : ce.events)
		events.push_back({{"call", e.call}, {"gap", e.gap}, {"entry", e.entry}, {"kind", to_string(e.kind)}});
	j["events"] = std::move(events);
	j["hint"] = std::move(hint);
	const violation* v = chk.first(ce.prop);
	j["message"] = v ? nlohmann::json(v->message) : nlohmann::json(nullptr);
	return j;
}

} // namespace

namespace {

// The property broken, or the caller and its rule when a caller broke one.
nlohmann::json violation_json(const counterexample& ce)
{
	nlohmann::json v{{"property", to_string(ce.v.prop)}, {"step", ce.v.step}, {"page", ce.v.page},
			 {"message", ce.v.message}};
	if (ce.breach) {
		v["caller"] = ce.breach->caller;
		v["caller_rule"] = mm::to_string(ce.breach->b.rule);
	}
	return v;
}

} // namespace

nlohmann::json sampled_counterexample_json(const property_result& r)
{
	nlohmann::json calls = nlohmann::json::array();
	for (const ce_call& c : r.ce.calls) {
		nlohmann::json runs = nlohmann::json::array();
		for (const auto& [a, z] : c.runs)
			runs.push_back({{"before", a}, {"after", z}});
		calls.push_back({{"command", c.command}, {"call", c.call}, {"result", c.result}, {"hw", c.hw},
				 {"runs", runs}});
	}
	return {{"commands", r.ce.commands},
		{"world", r.ce.layout},
		{"initial", r.ce.initial},
		{"calls", calls},
		{"violation", violation_json(r.ce)},
		{"reproduce", r.ce.reproduce}};
}

nlohmann::json history_json(const history& h)
{
	// One record per call, in the order the calls ended (a call run
	// inside another's gap ends first); each hardware event belongs to the
	// innermost call open when it fired.
	nlohmann::json calls = nlohmann::json::array();
	walk_calls(h, [&](const call_span& c) {
		if (c.how == call_span::ending::unfinished)
			return;
		nlohmann::json hw = nlohmann::json::array();
		for (const hw_event* e : c.hw)
			hw.push_back({{"kind", to_string(e->kind)}, {"page", e->page}, {"entry", e->landing}});
		nlohmann::json j{{"call", describe(*c.c)},
				 {"result", c.r ? result_text(*c.r) : ""},
				 {"before", rulers(c.before, h.geo)},
				 {"after", rulers(c.after, h.geo)},
				 {"hw", std::move(hw)}};
		if (c.fault)
			j["fault"] = fault_text(*c.fault);
		calls.push_back(std::move(j));
	});
	return {{"initial", rulers(h.initial, h.geo)}, {"calls", calls}};
}

nlohmann::json proof_json(const proofs::proof_result& r)
{
	nlohmann::json covers;
	if (const proofs::obligation_scope* sc = proofs::scope_of(r)) {
		nlohmann::json props = nlohmann::json::array(), calls = nlohmann::json::array();
		for (property q : sc->properties)
			props.push_back(std::string(to_string(q)));
		for (call_kind k : sc->calls)
			calls.push_back(std::string(to_string(k)));
		covers = {{"properties", props}, {"calls", calls}, {"tables", sc->tables}};
	} else {
		covers = {{"properties", nlohmann::json::array()}, {"calls", nlohmann::json::array()},
			  {"tables", "every 64-bit word (the helper algebra)"}};
	}
	nlohmann::json ce = nullptr;
	if (r.verdict == proofs::proof_verdict::refuted) {
		ce = {{"property", r.ce ? nlohmann::json(to_string(r.ce->prop)) : nlohmann::json(nullptr)},
		      {"text", r.ce_text},
		      {"replayed", replayed_json(r)}};
	}
	return {{"strategy", r.strategy},
		{"obligation", r.obligation},
		{"granule", to_string(r.gran)},
		{"verdict", to_string(r.verdict)},
		{"detail", r.detail},
		{"seconds", r.seconds},
		{"run_seconds", r.run_seconds},
		{"solve_seconds", r.solve_seconds},
		{"paths", r.paths},
		{"path_questions", r.path_questions},
		{"time_stops", r.time_stops},
		{"covers", covers},
		{"replay", r.replay.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.replay)},
		{"counterexample", ce}};
}

} // namespace ptespec::cli
