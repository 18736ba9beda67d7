#include "properties/runner.h"

#include <rapidcheck.h>
#include <rapidcheck/state.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "model/pte.h"
#include "model/ruler.h"
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
	case property::batch_or: return has(call_kind::get_and_clear_full_ptes);
	case property::lockless: return has(call_kind::ptep_get_lockless);
	case property::progress: return has(call_kind::ptep_set_access_flags);
	default:
		return has(call_kind::ptep_get_and_clear_full) || has(call_kind::get_and_clear_full_ptes) ||
		       has(call_kind::clear_full_ptes);
	}
}

namespace {

std::string flags_of(std::uint64_t v)
{
	if (pte_none(v))
		return "none";
	if (!pte_valid(v))
		return "non-present";
	std::string s = pte_young(v) ? "young" : "old";
	s += pte_dirty(v) ? "+dirty" : "+clean";
	return s;
}

std::string show_result(const call_result& r)
{
	if (r.pte)
		return fmt::format("{:#x} ({})", *r.pte, flags_of(*r.pte));
	if (r.young)
		return *r.young ? "young" : "old";
	if (r.changed)
		return *r.changed ? "changed" : "unchanged";
	return "";
}

// Walks a recorded history and cuts it into printable calls.
std::vector<ce_call> calls_of(const history& h, const std::vector<std::size_t>& command_starts)
{
	std::vector<ce_call> out;
	table_t t = h.initial;
	std::vector<ce_call*> open;
	std::vector<table_t> before;
	std::size_t cmd = 0;
	for (std::size_t i = 0; i < h.steps.size(); i++) {
		while (cmd + 1 < command_starts.size() && command_starts[cmd + 1] <= i)
			cmd++;
		const step& s = h.steps[i];
		if (auto* b = std::get_if<call_begin_step>(&s)) {
			out.push_back({cmd, describe(b->c), "", {}, {}});
			open.push_back(&out.back());
			before.push_back(t);
			// out may reallocate; re-point the open calls.
			open.clear();
			for (std::size_t k = out.size() - before.size(); k < out.size(); k++)
				open.push_back(&out[k]);
		} else if (auto* e = std::get_if<call_end_step>(&s)) {
			if (open.empty())
				continue;
			ce_call& c = *open.back();
			c.result = show_result(e->r);
			for (std::size_t r = 0; r < t.size(); r += h.geo.cont_ptes) {
				const std::string a = ruler(before.back(), h.geo, r), z = ruler(t, h.geo, r);
				if (a != z)
					c.runs.emplace_back(fmt::format("run {} {}", r / h.geo.cont_ptes, a), z);
			}
			open.pop_back();
			before.pop_back();
		} else if (auto* p = std::get_if<primitive_step>(&s)) {
			if (p->kind == prim_kind::write || p->kind == prim_kind::exchange ||
			    p->kind == prim_kind::atomic_update)
				t[p->index] = p->new_value;
		} else if (auto* hw = std::get_if<hw_event>(&s)) {
			t[hw->landing] = hw->new_value;
			const std::string line = fmt::format("hw {} to page #{} recorded in #{}", to_string(hw->kind),
							     hw->page, hw->landing);
			if (open.empty())
				out.push_back({cmd, "(between calls)", "", {line}, {}});
			else
				open.back()->hw.push_back(line);
		}
	}
	return out;
}

} // namespace

namespace {

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

} // namespace

property_result run_property(strategy& s, property p, const run_options& o)
{
	quiet_rapidcheck_configuration();
	property_result res;
	res.strategy = s.info().name;
	res.prop = p;
	if (!s.implements(call_kind::set_ptes) || !s.implements(call_kind::ptep_get)) {
		res.v = verdict::not_exercised;
		res.why_not_exercised = "the strategy has no set_ptes or no ptep_get: nothing can be mapped and read";
		return res;
	}
	if (!property_applicable(s, p)) {
		res.v = verdict::not_applicable;
		return res;
	}
	failure_slot slot;
	std::uint64_t calls = 0, exercised = 0;
	// One layout per shift, kept for the whole run: a command drawn in one
	// case may be drawn again while a later one shrinks, from the model it
	// kept (the layouts of a granule differ only in their pfns, so a
	// command fits each of them).
	std::map<std::size_t, world_layout> layouts;
	set_failure_slot(&slot);
	auto prop = [&] {
		begin_case();
		// Drawn first, so a case shrinks towards the aligned world.
		const std::size_t shift = o.shift_pfns ? *gen::pfn_shift(geometry::of(o.gran)) : 0;
		RC_CLASSIFY(shift != 0, "folios' pfns off CONT alignment");
		auto at = layouts.find(shift);
		if (at == layouts.end())
			at = layouts.emplace(shift, world_layout::make(o.gran, shift)).first;
		const world_layout& w = at->second;
		harness h(s, w, p);
		h.mach().set_coverage(o.coverage);
		h.set_word_coverage(o.words);
		world_model m0 = world_model::empty(w, o.adversarial);
		m0.vary_attributes = o.vary_attributes;
		m0.alias_nonpresent = o.alias_nonpresent;
		m0.interleave_lockless = o.interleave_lockless;
		m0.fault_around = o.fault_around;
		rc::state::check(m0, h, [](const world_model& m) { return any_command(m); });
		calls += h.calls();
		exercised += h.judge().exercised(p);
	};
	rc::detail::TestParams params;
	params.seed = o.seed;
	params.maxSuccess = o.cases;
	params.maxSize = o.max_size;
	rc::detail::TestMetadata meta;
	meta.id = res.strategy + "/" + std::string(to_string(p));
	meta.description = meta.id;
	rc::detail::TestListenerAdapter quiet;
	const rc::detail::TestResult tr = rc::detail::checkTestable(prop, meta, params, quiet);
	set_failure_slot(nullptr);
	res.calls = calls;
	res.exercised = exercised;

	rc::detail::SuccessResult ok;
	rc::detail::FailureResult bad;
	if (tr.match(ok)) {
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
		if (exercised == 0) {
			res.v = verdict::not_exercised;
			res.why_not_exercised = fmt::format("{} cases, {} calls, none that could break it", res.cases, calls);
		}
		return res;
	}
	if (!tr.match(bad) || !slot.set) {
		rc::detail::GaveUpResult gave;
		rc::detail::Error err;
		std::string why = tr.match(gave) ? gave.description : tr.match(err) ? err.description : "no counterexample";
		throw internal_error("property run " + meta.id + " ended without a verdict: " + why);
	}
	res.v = verdict::fails;
	res.cases = bad.numSuccess + 1;

	// Replay the shrunk sequence on a fresh machine in the case's world,
	// recording every step.
	const world_layout& w = slot.layout;
	history hist;
	harness h(s, w, p, &hist);
	std::vector<std::size_t> starts;
	world_model m = world_model::empty(w, o.adversarial);
	m.vary_attributes = o.vary_attributes;
	m.alias_nonpresent = o.alias_nonpresent;
	m.interleave_lockless = o.interleave_lockless;
	m.fault_around = o.fault_around;
	violation v;
	bool again = false;
	for (const auto& c : slot.commands) {
		starts.push_back(hist.steps.size());
		if (replay_commands({c}, m, h, &v)) {
			again = true;
			break;
		}
		c->apply(m);
	}
	if (!again || v.prop != p)
		throw internal_error("counterexample for " + meta.id + " did not fail again on replay");
	for (const auto& c : slot.commands)
		res.ce.commands.push_back(c->describe());
	res.ce.commands.resize(starts.size());
	res.ce.calls = calls_of(hist, starts);
	res.ce.initial = rulers(hist.initial, w.geo);
	res.ce.layout = w.describe();
	res.ce.v = v;
	res.ce.reproduce = fmt::format("ptespec test --strategy {} --property {} --granule {} --seed {} --cases {}{}",
				       res.strategy, to_string(p), to_string(o.gran), o.seed, o.cases,
				       o.adversarial ? " --adversarial" : "");
	return res;
}

std::string format_counterexample(const property_result& r)
{
	std::string out;
	const counterexample& ce = r.ce;
	out += fmt::format("counterexample: {} fails {} ({})\n", r.strategy, to_string(r.prop), sentence(r.prop));
	out += fmt::format("  world: {}\n", ce.layout);
	std::size_t cmd = static_cast<std::size_t>(-1);
	for (const ce_call& c : ce.calls) {
		if (c.command != cmd) {
			cmd = c.command;
			out += fmt::format("  [{}] {}\n", cmd + 1, cmd < ce.commands.size() ? ce.commands[cmd] : "");
		}
		out += fmt::format("      {}{}{}\n", c.call, c.result.empty() ? "" : " = ", c.result);
		for (const auto& hw : c.hw)
			out += fmt::format("        {}\n", hw);
		for (const auto& [a, z] : c.runs)
			out += fmt::format("        {} -> {}\n", a, z);
	}
	out += fmt::format("  violation at step {}, #{}: {}\n", ce.v.step, ce.v.page, ce.v.message);
	out += fmt::format("  reproduce: {}\n", ce.reproduce);
	return out;
}

} // namespace ptespec
