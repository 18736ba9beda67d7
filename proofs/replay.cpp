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

// The writer of a race, as the replay watches it: its table after each
// primitive and at its end (what concurrent_read's snapshots are), and
// the reader's end heard by the checker after `end` of those primitives.
class race_watch : public observer {
public:
	race_watch(checker* chk, const call& reader, const call_result& r, std::size_t end)
		: chk_(chk), reader_(reader), r_(r), end_(end)
	{
	}
	std::vector<table_t> snapshots;
	void on_call_begin(const call& c, const table_t& t) override
	{
		snapshots = {t};
		if (chk_) {
			chk_->on_call_begin(c, t);
			end_reader(t);
		}
	}
	void on_primitive(const primitive_step& p, const table_t& t) override
	{
		snapshots.push_back(t);
		if (chk_) {
			chk_->on_primitive(p, t);
			end_reader(t);
		}
	}
	void on_hw_event(const hw_event& e, const table_t& t) override
	{
		if (chk_)
			chk_->on_hw_event(e, t);
	}
	void on_call_end(const call& c, const call_result& r, const table_t& t) override
	{
		snapshots.push_back(t);
		if (chk_) {
			chk_->on_call_end(c, r, t);
			end_reader(t, true);
		}
	}

private:
	void end_reader(const table_t& t, bool writer_ended = false)
	{
		if (ended_ || (snapshots.size() <= end_ && !writer_ended))
			return;
		ended_ = true;
		chk_->on_call_end(reader_, r_, t);
	}
	checker* chk_;
	call reader_;
	call_result r_;
	std::size_t end_;
	bool ended_ = false;
};

// Before each read of the reader, its machine's table becomes the
// writer's at that read's point.
class race_reads : public hardware_agent {
public:
	race_reads(machine& m, const std::vector<table_t>& snapshots, const concurrent_read::points& at)
		: m_(m), snapshots_(snapshots), at_(at)
	{
	}
	void at_gap(hw_port& port) override
	{
		if (port.next_index() == hw_port::npos)
			return;
		const std::size_t point = std::min(n_ < at_.split ? at_.early : at_.late, snapshots_.size() - 1);
		for (std::size_t k = 0; k < snapshots_[point].size(); k++)
			m_.poke(k, snapshots_[point][k]);
		points.push_back({port.next_index(), point});
		n_++;
	}
	std::vector<std::pair<std::size_t, std::size_t>> points;	// entry, point

private:
	machine& m_;
	const std::vector<table_t>& snapshots_;
	concurrent_read::points at_;
	std::size_t n_ = 0;
};

// A lockless read beside a writer, replayed without threads: the writer
// runs alone first, its tables kept; the reader then runs on a machine of
// its own whose table is, before each read, the writer's at that read's
// point; last the writer runs again, the checker watching, and hears the
// reader begin before the writer's first primitive and end after `end` of
// them (or after the writer, when end is past its last).
replay_outcome replay_race_calls(strategy& s, const counterexample& ce);

// A call that faults or spins in the replay, where the proof's path did
// neither, is a disagreement between the two machines: a mismatch, said.
replay_outcome replay_race(strategy& s, const counterexample& ce)
{
	try {
		return replay_race_calls(s, ce);
	} catch (const strategy_fault& f) {
		return {false, fmt::format("the replay stopped at a fault: {}", fault_text(f)), {}};
	} catch (const strategy_livelock& e) {
		return {false, fmt::format("the replay's read never returned: {}", e.what()), {}};
	}
}

replay_outcome replay_race_calls(strategy& s, const counterexample& ce)
{
	const geometry& geo = ce.geo;
	const concurrent_read::points& at = *ce.race;
	const call& writer = ce.calls.at(0);
	const call& reader = ce.calls.at(1);
	replay_outcome out;
	std::string& t = out.text;
	auto fresh = [&](machine& m) {
		for (std::size_t k = 0; k < ce.initial.size(); k++)
			m.poke(k, ce.initial[k]);
		m.set_folios(ce.folios);
	};
	t += fmt::format("    initial    {}\n", rulers(ce.initial, geo));

	const std::vector<table_t> snapshots = writer_tables(s, ce);

	machine rm(geo, ce.initial.size(), ce.hw);
	fresh(rm);
	race_reads reads(rm, snapshots, at);
	rm.set_hardware(&reads);
	const call_result r = run_call(s, rm, reader);

	machine judged(geo, ce.initial.size(), ce.hw);
	fresh(judged);
	checker chk(geo, ce.folios, ce.initial, ce.hw);
	exact_hardware hw(ce.events);
	race_watch watch(&chk, reader, r, at.end);
	judged.set_hardware(&hw);
	judged.set_observer(&watch);
	chk.on_call_begin(reader, judged.table());
	const call_result wr = run_call(s, judged, writer);

	t += fmt::format("    {} begins; beside it, under the lock (writer point k: its table after k of its "
			 "primitives):\n",
			 describe(reader));
	t += fmt::format("    {:<34} -> {}\n", describe(writer), result_text(wr));
	for (const ce_event& e : hw.fired_)
		t += fmt::format("      hw {} to page #{} recorded in #{} (gap {})\n", to_string(e.kind), e.entry,
				 e.entry, e.gap);
	// The writer's tables, a line per change; the reads, a line per point.
	const std::size_t last = snapshots.size() - 1;
	auto point_name = [last](std::size_t k) { return k == last ? std::string("end") : std::to_string(k); };
	for (std::size_t k = 0; k <= last;) {
		std::size_t to = k;
		while (to < last && snapshots[to + 1] == snapshots[k])
			to++;
		const std::string when = to == k ? point_name(k) : point_name(k) + "-" + point_name(to);
		t += fmt::format("      after {:>7} {}\n", when, rulers(snapshots[k], geo));
		k = to + 1;
	}
	for (std::size_t n = 0; n < reads.points.size();) {
		std::size_t to = n;
		while (to + 1 < reads.points.size() && reads.points[to + 1].second == reads.points[n].second)
			to++;
		std::string which;
		for (std::size_t k = n; k <= to; k++)
			which += fmt::format("{}#{}", k == n ? "" : " ", reads.points[k].first);
		t += fmt::format("      read{} {} at writer point {}\n", to == n ? "" : "s", which,
				 point_name(reads.points[n].second));
		n = to + 1;
	}
	t += fmt::format("    {:<34} -> {} (ends at writer point {})\n", describe(reader), result_text(r),
			 point_name(std::min(at.end, last)));

	out.confirmed = chk.failed(ce.prop) && hw.refused_.empty();
	if (const violation* v = chk.first(ce.prop))
		t += fmt::format("    checker: {}: {}\n", to_string(ce.prop), v->message);
	if (!hw.refused_.empty())
		out.why = fmt::format("the concrete hardware refused {} planned event(s)", hw.refused_.size());
	else if (!out.confirmed)
		out.why = fmt::format("the checker reports no {} violation", to_string(ce.prop));
	return out;
}

} // namespace

std::vector<table_t> writer_tables(strategy& s, const counterexample& ce)
{
	machine alone(ce.geo, ce.initial.size(), ce.hw);
	for (std::size_t k = 0; k < ce.initial.size(); k++)
		alone.poke(k, ce.initial[k]);
	alone.set_folios(ce.folios);
	exact_hardware hw(ce.events);
	race_watch tables(nullptr, ce.calls.at(1), {}, 0);
	alone.set_hardware(&hw);
	alone.set_observer(&tables);
	run_call(s, alone, ce.calls.at(0));
	return tables.snapshots;
}

replay_outcome replay_counterexample(strategy& s, const counterexample& ce)
{
	if (ce.race)
		return replay_race(s, ce);
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
	// A hint question: the concrete strategy's answer, judged by the
	// checker as core-mm's folio_pte_batch reports it.
	if (ce.hint) {
		const std::size_t n = s.pte_batch_hint(geo, ce.hint->entry, ce.hint->pte);
		t += fmt::format("    pte_batch_hint(#{}, {:#018x}) -> {}{}\n", ce.hint->entry, ce.hint->pte, n,
				 n == ce.hint->answer ? "" : fmt::format(" (the proof's path: {})", ce.hint->answer));
		chk.on_batch_hint(ce.hint->entry, ce.hint->pte, n, m.table());
	}
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
	// events of the calls it drops (a race needs both of its calls).
	for (std::size_t n = 1; n < ce.calls.size() && !ce.race; n++) {
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
