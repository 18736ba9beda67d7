#include "proofs/replay.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/checker.h"
#include "model/errors.h"
#include "model/machine.h"
#include "model/pte.h"
#include "model/ruler.h"
#include "model/transcript.h"

namespace ptespec::proofs {

namespace {

// Fires exactly the model's events: at the planned gap of the planned call,
// on the page of the entry it lands in (see model/symbolic_machine.h for
// why that loses nothing).  An event the concrete hardware refuses is a
// disagreement between the two encodings, reported as such.
class exact_hardware : public hardware_agent {
public:
	explicit exact_hardware(const std::vector<ce_event>& events) : events_(events) {}
	void set_call(std::size_t c) { call_ = c; }
	void at_gap(hw_port& port) override
	{
		for (const ce_event& e : events_) {
			if (e.call != call_ || e.gap != port.gap())
				continue;
			if (port.fire(e.kind, e.entry, e.entry))
				fired_.push_back(e);
			else
				refused_.push_back(e);
		}
	}
	std::vector<ce_event> fired_, refused_;

private:
	const std::vector<ce_event>& events_;
	std::size_t call_ = 0;
};

std::string fault_text(const strategy_fault& f)
{
	if (f.flush)
		return fmt::format("{} (#{}..#{} of {} entries)", f.what(), f.index, f.index + f.nr - 1, f.table_size);
	return fmt::format("{} (#{} of {} entries)", f.what(), f.index, f.table_size);
}

} // namespace

replay_outcome replay_counterexample(strategy& s, const counterexample& ce)
{
	const geometry& geo = ce.geo;
	const std::vector<folio_extent>& folios = ce.folios;
	replay_outcome out;
	machine m(geo, ce.initial.size(), ce.hw);
	for (std::size_t k = 0; k < ce.initial.size(); k++)
		m.poke(k, ce.initial[k]);
	m.set_folios(folios);
	checker chk(geo, folios, ce.initial, ce.hw);
	exact_hardware hw(ce.events);
	m.set_observer(&chk);
	m.set_hardware(&hw);

	std::string& t = out.text;
	t += fmt::format("    initial    {}\n", rulers(m.table(), geo));
	// false when the call stopped at a primitive outside the table.
	auto run = [&](const call& c, std::size_t ordinal) {
		hw.set_call(ordinal);
		const std::size_t before = hw.fired_.size();
		bool finished = true;
		try {
			const call_result r = run_call(s, m, c);
			t += fmt::format("    {:<34} -> {}\n", describe(c), result_text(r));
		} catch (const strategy_fault& f) {
			// As the properties' harness does: the call ends there and
			// the checker judges the fault.
			m.fault_call(c, f);
			finished = false;
			t += fmt::format("    {:<34} -> fault: {}\n", describe(c), fault_text(f));
		}
		for (std::size_t k = before; k < hw.fired_.size(); k++) {
			const ce_event& e = hw.fired_[k];
			t += fmt::format("      hw {} to page #{} recorded in #{} (gap {})\n", to_string(e.kind), e.entry,
					 e.entry, e.gap);
		}
		t += fmt::format("      after    {}\n", rulers(m.table(), geo));
		return finished;
	};
	// A faulted call leaves the table half done: nothing runs after it.
	bool faulted = false;
	for (std::size_t k = 0; k < ce.calls.size() && !faulted; k++)
		faulted = !run(ce.calls[k], k);
	if (ce.calls_not_needed > 0)
		t += fmt::format("    (the obligation's {} later call{} not needed: the violation happens without them)\n",
				 ce.calls_not_needed, ce.calls_not_needed == 1 ? " is" : "s are");
	m.set_hardware(nullptr);
	for (std::size_t k = 0; k < ce.witness.size() && !faulted; k++) {
		t += "    witness (no hardware):\n";
		faulted = !run(ce.witness[k], ce.calls.size());
	}

	out.confirmed = chk.failed(ce.prop) && hw.refused_.empty();
	if (const violation* v = chk.first(ce.prop))
		t += fmt::format("    checker: {}: {}\n", to_string(ce.prop), v->message);
	if (!hw.refused_.empty())
		out.why = fmt::format("the concrete hardware refused {} planned event(s)", hw.refused_.size());
	else if (!out.confirmed) {
		out.why = fmt::format("the checker reports no {} violation", to_string(ce.prop));
		for (const violation& v : chk.violations())
			out.why += fmt::format("; it reports {}: {}", to_string(v.prop), v.message);
	}
	return out;
}

counterexample shrink_counterexample(strategy& s, counterexample ce)
{
	auto still = [&](const counterexample& c) { return replay_counterexample(s, c).confirmed; };
	if (!still(ce))
		return ce;
	// Calls: the shortest start of the sequence that still fails, with the
	// events of the calls it drops.
	for (std::size_t n = 1; n < ce.calls.size(); n++) {
		counterexample c = ce;
		c.calls.resize(n);
		std::erase_if(c.events, [n](const ce_event& e) { return e.call >= n; });
		c.calls_not_needed = ce.calls_not_needed + (ce.calls.size() - n);
		if (still(c)) {
			ce = std::move(c);
			break;
		}
	}
	// Events: drop chunks of halving size while the failure stays.
	for (std::size_t chunk = std::max<std::size_t>(ce.events.size() / 2, 1); chunk >= 1; chunk /= 2) {
		for (std::size_t at = 0; at < ce.events.size();) {
			counterexample c = ce;
			const std::size_t end = std::min(at + chunk, c.events.size());
			c.events.erase(c.events.begin() + static_cast<std::ptrdiff_t>(at),
				       c.events.begin() + static_cast<std::ptrdiff_t>(end));
			if (still(c))
				ce = std::move(c);
			else
				at = end;
		}
		if (chunk == 1)
			break;
	}
	// The initial flags: old and clean where the failure does not need them.
	for (std::size_t k = 0; k < ce.initial.size(); k++) {
		for (auto clear : {+[](std::uint64_t v) { return pte_mkold(v); },
				   +[](std::uint64_t v) { return pte_mkclean(v); }}) {
			counterexample c = ce;
			c.initial[k] = clear(c.initial[k]);
			if (c.initial[k] != ce.initial[k] && still(c))
				ce = std::move(c);
		}
	}
	return ce;
}

} // namespace ptespec::proofs
