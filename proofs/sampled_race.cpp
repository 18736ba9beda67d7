#include "proofs/sampled_race.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/checker.h"
#include "model/observer.h"
#include "proofs/replay.h"

namespace ptespec::proofs {

namespace {

// The step index at which each callback of a replay comes (one per step),
// and the first lockless read whose end the checker finds breaking it.
struct first_torn_read : observer {
	checker chk;
	std::size_t step = 0;
	std::optional<std::size_t> end;	// the index of that read's end step
	explicit first_torn_read(const history& h) : chk(h.geo, h.folios, h.initial, h.hw) {}
	void on_call_begin(const call& c, const table_t& t) override
	{
		chk.on_call_begin(c, t);
		step++;
	}
	void on_primitive(const primitive_step& p, const table_t& t) override
	{
		chk.on_primitive(p, t);
		step++;
	}
	void on_hw_event(const hw_event& e, const table_t& t) override
	{
		chk.on_hw_event(e, t);
		step++;
	}
	void on_fault(const fault_step& f, const table_t& t) override
	{
		chk.on_fault(f, t);
		step++;
	}
	void on_call_end(const call& c, const call_result& r, const table_t& t) override
	{
		const bool before = chk.failed(property::lockless);
		chk.on_call_end(c, r, t);
		if (!end && !before && c.kind == call_kind::ptep_get_lockless && chk.failed(property::lockless))
			end = step;
		step++;
	}
};

bool touches_entry(const primitive_step& p, std::size_t j)
{
	const bool entry = p.kind == prim_kind::read || p.kind == prim_kind::write || p.kind == prim_kind::exchange ||
			   p.kind == prim_kind::atomic_update;
	return entry && p.index <= j && j < p.index + p.nr;
}

// Points (split, early, late) at which every read n of the reader -- entry
// at[n] read as got[n] -- sees what it saw in the writer's tables: read n
// sees tables[early] when n < split, tables[late] otherwise, split at most
// split_within, early <= late <= end.
std::optional<concurrent_read::points> fit(const std::vector<table_t>& tables,
					   const std::vector<std::pair<std::size_t, std::uint64_t>>& reads,
					   std::size_t split_within, std::size_t end)
{
	const std::size_t points = tables.size();
	// fits[n][k]: read n sees its value at point k.
	std::vector<std::vector<bool>> fits(reads.size(), std::vector<bool>(points));
	for (std::size_t n = 0; n < reads.size(); n++)
		for (std::size_t k = 0; k < points; k++)
			fits[n][k] = tables[k].at(reads[n].first) == reads[n].second;
	// after[s][k]: every read from s on sees its value at point k.
	std::vector<std::vector<bool>> after(reads.size() + 1, std::vector<bool>(points, true));
	for (std::size_t n = reads.size(); n-- > 0;)
		for (std::size_t k = 0; k < points; k++)
			after[n][k] = after[n + 1][k] && fits[n][k];
	std::vector<bool> before(points, true);	// every read before the split sees k
	const std::size_t last_split = std::min(split_within, reads.size());
	for (std::size_t split = 0; split <= last_split; split++) {
		if (split > 0)
			for (std::size_t k = 0; k < points; k++)
				before[k] = before[k] && fits[split - 1][k];
		for (std::size_t early = 0; early < points; early++) {
			if (!before[early])
				continue;
			for (std::size_t late = early; late < points && late <= end; late++)
				if (after[split][late])
					return concurrent_read::points{split, early, late, end};
			break;	// a later early leaves fewer lates
		}
	}
	return std::nullopt;
}

// The steps of h's race around the read that ends at step read_end: the
// read's begin and end, and its writer's (the call begun inside the read's
// window).
struct race_window {
	const call* reader = nullptr;
	const call* writer = nullptr;
	std::size_t read_begin = 0, read_end = 0, writer_begin = 0, writer_end = 0;
};

std::variant<race_window, std::string> window_of(const history& h, std::size_t read_end)
{
	const std::vector<step>& steps = h.steps;
	race_window win;
	win.read_end = read_end;
	const call& reader = std::get<call_end_step>(steps[read_end]).c;
	win.reader = &reader;
	// The read's begin: the last begin of that call before its end.
	std::size_t read_begin = read_end;
	while (read_begin-- > 0) {
		const auto* b = std::get_if<call_begin_step>(&steps[read_begin]);
		if (b && b->c.kind == reader.kind && b->c.index == reader.index)
			break;
	}
	if (read_begin >= read_end)
		return fmt::format("the history ends {} without beginning it", describe(reader));
	win.read_begin = read_begin;
	// The writer: the call begun inside the read's window.
	std::optional<std::size_t> writer_begin;
	for (std::size_t n = read_begin + 1; n < read_end && !writer_begin; n++)
		if (std::holds_alternative<call_begin_step>(steps[n]))
			writer_begin = n;
	if (!writer_begin)
		return fmt::format("no locked call ran beside {}", describe(reader));
	const call& writer = std::get<call_begin_step>(steps[*writer_begin]).c;
	win.writer = &writer;
	win.writer_begin = *writer_begin;
	for (std::size_t n = read_begin + 1; n < *writer_begin; n++)
		if (std::holds_alternative<hw_event>(steps[n]))
			return fmt::format("a hardware event fired in {}'s window before {} began: the read began from "
					   "another table than its writer",
					   describe(reader), describe(writer));
	std::optional<std::size_t> writer_end;
	for (std::size_t n = *writer_begin + 1; n < steps.size() && !writer_end; n++) {
		if (const auto* e = std::get_if<call_end_step>(&steps[n]); e && e->c.kind == writer.kind &&
									  e->c.index == writer.index)
			writer_end = n;
		else if (const auto* f = std::get_if<fault_step>(&steps[n]); f && f->c.kind == writer.kind)
			return fmt::format("{} beside {} stopped at a fault", describe(writer), describe(reader));
	}
	if (!writer_end)
		return fmt::format("{} beside {} never returned", describe(writer), describe(reader));
	win.writer_end = *writer_end;
	return win;
}

// The writer's primitives, the reader's reads, and the events of the
// window, each at the writer's primitive count when it came; and the
// writer's primitives done when the read ended.
struct race_steps {
	std::vector<const primitive_step*> written;
	std::vector<std::pair<std::size_t, std::uint64_t>> reads;
	std::vector<std::pair<std::size_t, const hw_event*>> events;
	std::size_t end_point = 0;
};

race_steps steps_of(const history& h, const race_window& win)
{
	const std::vector<step>& steps = h.steps;
	race_steps out;
	const std::size_t last = std::max(win.writer_end, win.read_end);
	for (std::size_t n = win.writer_begin + 1; n < last; n++) {
		if (const auto* p = std::get_if<primitive_step>(&steps[n])) {
			if (p->beside && n < win.writer_end)
				out.written.push_back(p);
			else if (!p->beside && n < win.read_end)
				out.reads.emplace_back(p->index, p->new_value);
		} else if (const auto* e = std::get_if<hw_event>(&steps[n])) {
			out.events.emplace_back(out.written.size(), e);
		}
		if (n == win.read_end)
			out.end_point = out.written.size();
	}
	// Reads before the writer began saw its first table.
	std::vector<std::pair<std::size_t, std::uint64_t>> early_reads;
	for (std::size_t n = win.read_begin + 1; n < win.writer_begin; n++)
		if (const auto* p = std::get_if<primitive_step>(&steps[n]))
			early_reads.emplace_back(p->index, p->new_value);
	out.reads.insert(out.reads.begin(), early_reads.begin(), early_reads.end());
	// The read ended after the writer: its window runs to the writer's end.
	if (win.writer_end < win.read_end)
		out.end_point = out.written.size() + 1;
	return out;
}

// The race's counterexample, without its points: the table both began
// from (no event came between their begins), the two calls, and each event
// before the writer's next primitive on its entry, or at its end (the
// writer's gaps count its primitives).
counterexample race_counterexample(const history& h, const race_window& win, const race_steps& st)
{
	table_t initial = h.initial;
	for (std::size_t n = 0; n <= win.read_begin; n++)
		apply_step(initial, h.steps[n]);
	counterexample ce;
	ce.geo = h.geo;
	ce.hw = h.hw;
	ce.folios = h.folios;
	ce.initial = initial;
	ce.calls = {*win.writer, *win.reader};
	ce.prop = property::lockless;
	for (const auto& [done, e] : st.events) {
		std::size_t gap = st.written.size();
		for (std::size_t k = done; k < st.written.size(); k++)
			if (touches_entry(*st.written[k], e->landing)) {
				gap = k;
				break;
			}
		ce.events.push_back({0, gap, e->landing, e->kind});
	}
	return ce;
}

} // namespace

std::variant<sampled_race, std::string> race_of(strategy& s, const history& h, std::size_t split_within)
{
	first_torn_read torn(h);
	replay(h, torn);
	if (!torn.end)
		return std::string("replayed, no lockless read of the history ends breaking lockless");
	const std::variant<race_window, std::string> found = window_of(h, *torn.end);
	if (const std::string* why = std::get_if<std::string>(&found))
		return *why;
	const race_window& win = std::get<race_window>(found);
	const race_steps st = steps_of(h, win);
	counterexample ce = race_counterexample(h, win, st);
	const call& reader = *win.reader;
	const call& writer = *win.writer;
	const std::vector<table_t> tables = writer_tables(s, ce);
	if (tables.size() != st.written.size() + 2)
		return fmt::format("{} run alone with the window's events made {} primitives, not the {} of the history",
				   describe(writer), tables.size() - 2, st.written.size());
	const std::optional<concurrent_read::points> at = fit(tables, st.reads, split_within, st.end_point);
	if (!at)
		return fmt::format("the {} reads of {} fit no two moments of {}'s run (each hardware event in the "
				   "writer's slot for it)",
				   st.reads.size(), describe(reader), describe(writer));
	ce.race = *at;
	const replay_outcome out = replay_counterexample(s, ce);
	if (!out.confirmed)
		return fmt::format("with the hardware events in the writer's slots and the reads at writer points {}/{} "
				   "(split {}), the replay shows no lockless failure: {}",
				   at->early, at->late, at->split, out.why);
	return sampled_race{std::move(ce), st.reads.size(), st.written.size()};
}

} // namespace ptespec::proofs
