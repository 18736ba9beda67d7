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
		{"unknown", "undecided: a covering obligation ran out of time or paths, or was refuted on another "
			    "property first (below)"},
		{"caller", "the caller broke a rule the arch code relies on before its call reached the strategy "
			   "(counterexample below): failed, but not the strategy's failure"},
		{"(sampled)", "no proof was attempted: the cell is its sampled verdict alone -- a kernel tree "
				 "is proved only for the obligations --obligation names, and the proofs model neither "
				 "hardware without HAFDBS nor callers other than core-mm"},
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
		used.insert("(sampled)");
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
nlohmann::json violation_json(const sampled_counterexample& ce)
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
	nlohmann::json out = {{"commands", r.ce.commands},
		{"world", r.ce.layout},
		{"initial", r.ce.initial},
		{"calls", calls},
		{"violation", violation_json(r.ce)},
		{"reproduce", r.ce.reproduce}};
	if (!r.ce.sweep.empty())
		out["sweep"] = r.ce.sweep;
	return out;
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
