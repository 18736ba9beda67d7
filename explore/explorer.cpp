#include "explore/explorer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "model/checker.h"
#include "model/errors.h"
#include "model/history.h"
#include "model/pte.h"
#include "model/ruler.h"
#include "model/transcript.h"
#include "properties/harness.h"

namespace ptespec::explore {

namespace {

// What one scheduling point was followed by: a primitive on entries
// [first, first + nr), or the end of its call.
struct point_info {
	bool in_call = false;
	bool call_end = false;
	std::size_t first = 0, nr = 0;
};

// The explorer's hardware agent, and the observer that traces the run:
// fires the schedule's events at their points and records, per point, what
// followed it and the table before it.
class tracer final : public hardware_agent, public observer {
public:
	tracer(const table_t& table, const std::vector<placed_event>& events, bool keep_candidates)
		: table_(table), ev_(events), keep_(keep_candidates), touches_(table.size(), 0)
	{
	}

	void at_gap(hw_port& port) override
	{
		const std::size_t pt = points.size();
		points.push_back({depth_ > 0, false, 0, 0});
		snap.insert(snap.end(), table_.begin(), table_.end());
		if (keep_)
			for (std::size_t p = 0; p < table_.size(); p++)
				for (hw_kind k : {hw_kind::access, hw_kind::write}) {
					port.candidates(p, k, cand_);
					candidates.push_back(cand_);
				}
		while (next_ < ev_.size() && ev_[next_].point == pt) {
			const placed_event& e = ev_[next_++];
			port.candidates(e.page, e.kind, cand_);
			const auto it = std::find(cand_.begin(), cand_.end(), e.entry);
			if (it == cand_.end() || !port.fire(e.kind, e.page, e.entry)) {
				infeasible = true;
				continue;
			}
			// The harness's planned agent names the same moment as
			// "before the nth primitive of the call on the entry".
			hw_plan_event planned;
			planned.call = calls_;
			planned.entry = e.entry;
			planned.nth = touches_[e.entry];
			planned.kind = e.kind;
			planned.page = e.page;
			fired.push_back(planned);
		}
		const std::size_t next = port.next_index();
		if (next != hw_port::npos && next < touches_.size())
			touches_[next]++;
	}
	void on_call_begin(const call&, const table_t&) override
	{
		if (depth_++ == 0) {
			calls_++;
			std::fill(touches_.begin(), touches_.end(), 0);
		}
	}
	void on_primitive(const primitive_step& p, const table_t&) override
	{
		if (!points.empty()) {
			points.back().first = p.index;
			points.back().nr = p.nr;
		}
	}
	void on_call_end(const call&, const call_result&, const table_t&) override
	{
		if (!points.empty() && points.back().nr == 0)
			points.back().call_end = true;
		depth_--;
	}

	std::vector<point_info> points;
	std::vector<std::uint64_t> snap;	// points x entries
	std::vector<std::vector<std::size_t>> candidates;	// points x pages x kinds (unreduced only)
	std::vector<hw_plan_event> fired;	// the same events, as the harness's planned agent takes them
	bool infeasible = false;

private:
	const table_t& table_;	// the harness's, as the strategy leaves it
	const std::vector<placed_event>& ev_;
	bool keep_;
	std::size_t next_ = 0;
	int depth_ = 0;
	std::size_t calls_ = 0;
	std::vector<std::size_t> touches_;	// per entry, primitives on it so far in this call
	std::vector<std::size_t> cand_;
};

std::uint64_t with_flags(std::uint64_t pte, std::uint8_t code)
{
	if (!pte_valid(pte))
		return pte;
	if (code & 1)
		pte = pte_mkyoung(pte);
	if (code & 2)
		pte = pte_mkdirty(pte);
	return pte;
}

// The scenario's table before the caller runs: mapped by the strategy's own
// set_ptes (so a strategy that never folds starts unfolded), then given the
// initial flags -- a state hardware and map-time flags can reach.
void set_up(harness& h, scenario scen, const std::vector<std::uint8_t>& init)
{
	map_scenario(h, scen);
	for (std::size_t k = 0; k < h.table().size() && k < init.size(); k++)
		h.preset(k, with_flags(h.table()[k], init[k]));
}

const mm::caller& caller_of(const explore_options& o) { return o.caller ? *o.caller : mm::core_mm(); }

struct outcome {
	std::vector<violation> violations;
	std::vector<std::uint64_t> initial;
};

// Runs the scenario on a bare harness, watched by the tracer (which also
// plays the hardware) and a checker of the run's own, and by a recorder
// into `rec` when given.
outcome run_schedule(const world_layout& w, scenario scen, const std::vector<std::uint8_t>& init, tracer& tr,
		     harness& h, history* rec)
{
	set_up(h, scen, init);
	outcome out;
	out.initial = h.table();
	checker chk(w.geo, w.folios, out.initial, w.hw);
	observer_list obs;
	obs.add(&tr);
	obs.add(&chk);
	std::unique_ptr<recorder> r;
	if (rec) {
		rec->geo = w.geo;
		rec->hw = w.hw;
		rec->folios = w.folios;
		rec->initial = out.initial;
		r = std::make_unique<recorder>(*rec);
		obs.add(r.get());
	}
	h.watch(obs, &tr);
	run_caller(h, scen);
	h.unwatch();
	out.violations = chk.violations();
	return out;
}

// A schedule's events in the order the search adds them.
bool later(const placed_event& a, const placed_event& b)
{
	auto key = [](const placed_event& e) {
		return std::tuple(e.point, e.entry, e.kind == hw_kind::write, e.page);
	};
	return key(b) > key(a);
}

// One line per call: the call, the table's rulers before and after it,
// the hardware events during it and what it returned; the call that
// showed the violation is marked.
std::vector<std::string> history_lines(const history& h, const violation& v)
{
	std::vector<std::string> out;
	bool marked = false;
	out.push_back(fmt::format("{:<34} {}", "initial", rulers(h.initial, h.geo)));
	walk_calls(h, [&](const call_span& c) {
		if (c.how != call_span::ending::returned)
			return;
		std::string hw;
		for (const hw_event* e : c.hw)
			hw += " [" + hw_event_text(*e) + "]";
		std::string line =
			fmt::format("{:<34} {} -> {}{}", describe(*c.c), rulers(c.before, h.geo), rulers(c.after, h.geo), hw);
		const std::string res = result_text(*c.r);
		if (!res.empty())
			line += " = " + res;
		// The checker numbers steps from 1, judging at the step it
		// names; the call ending at or after it is the culprit.
		if (!marked && v.step >= 1 && c.last + 1 >= v.step) {
			line += fmt::format("   <-- {}", to_string(v.prop));
			marked = true;
		}
		out.push_back(line);
	});
	return out;
}

} // namespace

void check_options(const explore_options& o)
{
	if (o.hw_events < 0 || o.hw_events > 6)
		throw usage_error(fmt::format("hardware events {}: expected 0 to 6 (the search grows as the power K)",
					      o.hw_events));
	const std::size_t c = o.geo.cont_ptes;
	if (c < 2 || c > 128 || (c & (c - 1)) != 0)
		throw usage_error(fmt::format("CONT_PTES {}: expected a power of two from 2 to 128", c));
	if (o.scen == scenario::munmap)
		throw usage_error("scenario munmap: the cost model's; expected exit, exit-per-entry, dontneed-start, "
				  "dontneed-end, dontneed-inner, fork or madv-free");
	const std::size_t n = scenario_runs(o.scen) * c;
	if (o.initial == initial_set::all && n > 8)
		throw usage_error(fmt::format("all initial states with {} entries ({}: {} run{} of CONT_PTES {}): 4^{} states; "
					      "expected at most 8 entries (or the sparse states)",
					      n, to_string(o.scen), n / c, n / c == 1 ? "" : "s", c, n));
}

std::vector<std::vector<std::uint8_t>> initial_states(const explore_options& o)
{
	const std::size_t n = scenario_runs(o.scen) * o.geo.cont_ptes;
	std::vector<std::vector<std::uint8_t>> out;
	if (o.initial == initial_set::all) {
		std::size_t total = 1;
		for (std::size_t k = 0; k < n; k++)
			total *= 4;
		for (std::size_t code = 0; code < total; code++) {
			std::vector<std::uint8_t> s(n);
			for (std::size_t k = 0, c = code; k < n; k++, c /= 4)
				s[k] = static_cast<std::uint8_t>(c % 4);
			out.push_back(std::move(s));
		}
		return out;
	}
	// Fewest flagged entries first, so a violation is reported on the
	// smallest initial state that shows it.
	const std::size_t f_max = std::min<std::size_t>(o.initial_flagged, n);
	std::vector<std::size_t> pos;
	auto place = [&](auto&& self, std::size_t from, std::size_t left) -> void {
		if (left == 0) {
			std::size_t combos = 1;
			for (std::size_t k = 0; k < pos.size(); k++)
				combos *= 3;
			for (std::size_t c = 0; c < combos; c++) {
				std::vector<std::uint8_t> s(n, 0);
				std::size_t x = c;
				for (std::size_t p : pos) {
					s[p] = static_cast<std::uint8_t>(1 + x % 3);
					x /= 3;
				}
				out.push_back(std::move(s));
			}
			return;
		}
		for (std::size_t p = from; p + left <= n; p++) {
			pos.push_back(p);
			self(self, p + 1, left - 1);
			pos.pop_back();
		}
	};
	for (std::size_t f = 0; f <= f_max; f++)
		place(place, 0, f);
	if (f_max < n)
		for (std::uint8_t c = 1; c <= 3; c++)
			out.emplace_back(n, c);
	return out;
}

namespace {

// What the search of one initial state found.
struct state_result {
	std::uint64_t explored = 0, pruned = 0, infeasible = 0;
	bool complete = true;
	std::vector<property> violated;
	std::optional<std::vector<placed_event>> first;	// the first violating schedule
};

struct search_context {
	strategy& s;
	const explore_options& o;
	const world_layout& w;
	std::atomic<bool>& out_of_time;
	std::atomic<std::size_t>& first_bad_state;	// no state after it need be searched
	std::atomic<std::uint64_t>& explored;
	std::chrono::steady_clock::time_point t0;
};

void add_violated(std::vector<property>& to, const std::vector<violation>& vs)
{
	for (const violation& v : vs)
		if (std::find(to.begin(), to.end(), v.prop) == to.end())
			to.push_back(v.prop);
}

// Every event that can follow `events` in a run that traced as `tr`, in the
// search's order, each handed to `try_one`, until `stop`.  The placements
// the reductions skip as equivalent are counted in `pruned`.
template <class F>
void for_each_placement(const tracer& tr, const std::vector<placed_event>& events, const explore_options& o,
			std::size_t n, const bool& stop, std::uint64_t& pruned, F&& try_one)
{
	const std::size_t from = events.empty() ? 0 : events.back().point;
	const auto& pts = tr.points;
	for (std::size_t j = from; j < pts.size() && !stop; j++) {
		// An event outside every call is judged by no later call in
		// these scenarios (the only such point is zap's final flush).
		if (!pts[j].in_call)
			continue;
		for (std::size_t e = 0; e < n && !stop; e++) {
			const std::uint64_t v = tr.snap[j * n + e];
			for (hw_kind k : {hw_kind::access, hw_kind::write}) {
				// Strictly after the last event: events at one point
				// commute, so one order of them is enough, and a
				// second identical update changes no bit and joins
				// the first in the checker's ledger.
				if (!o.reduce) {
					for (std::size_t page = 0; page < n && !stop; page++) {
						const auto& cand = tr.candidates[(j * n + page) * 2 +
										 (k == hw_kind::write)];
						if (std::find(cand.begin(), cand.end(), e) == cand.end())
							continue;
						placed_event pe{j, e, k, page};
						if (!events.empty() && !later(events.back(), pe))
							continue;
						try_one(pe);
					}
					continue;
				}
				const bool feasible = pte_valid(v) && (k == hw_kind::access || pte_write(v));
				if (!feasible)
					continue;
				const std::size_t pages = pte_cont(v) ? o.geo.cont_ptes : 1;
				// Partial order: within a slot of e (the points
				// between two steps that touch e, or a call
				// boundary) only its last point is tried; the
				// other points give the same trace up to
				// reordering of independent steps.
				const point_info& pi = pts[j];
				const bool slot_end = pi.call_end || (pi.nr > 0 && e >= pi.first && e < pi.first + pi.nr);
				placed_event pe{j, e, k, e};
				if (!events.empty() && !later(events.back(), pe))
					continue;
				if (!slot_end) {
					pruned += pages;
					continue;
				}
				// Page symmetry: every page of a CONT run lands
				// here alike; the entry's own page stands for all.
				pruned += pages - 1;
				try_one(pe);
			}
		}
	}
}

state_result search_state(search_context& ctx, std::size_t index, const std::vector<std::uint8_t>& init)
{
	const explore_options& o = ctx.o;
	const std::size_t n = ctx.w.nr_entries;
	state_result res;
	bool stop = false;
	std::vector<placed_event> events;
	auto visit = [&](auto&& self) -> void {
		if (stop)
			return;
		harness h(ctx.s, ctx.w, std::nullopt, nullptr, true);
		h.set_caller(caller_of(o));
		tracer tr(h.table(), events, !o.reduce);
		const outcome out = run_schedule(ctx.w, o.scen, init, tr, h, nullptr);
		if (tr.infeasible) {
			res.infeasible++;
			return;
		}
		res.explored++;
		if ((ctx.explored.fetch_add(1) & 1023) == 0) {
			const double secs =
				std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.t0).count();
			if (o.time_limit > 0 && secs > o.time_limit)
				ctx.out_of_time = true;
		}
		if (ctx.out_of_time || (!o.all_violations && ctx.first_bad_state < index)) {
			res.complete = false;
			stop = true;
			return;
		}
		if (!out.violations.empty()) {
			add_violated(res.violated, out.violations);
			if (!res.first)
				res.first = events;
			if (!o.all_violations) {
				stop = true;
				return;
			}
		}
		if (events.size() >= static_cast<std::size_t>(o.hw_events))
			return;
		for_each_placement(tr, events, o, n, stop, res.pruned, [&](const placed_event& pe) {
			events.push_back(pe);
			self(self);
			events.pop_back();
		});
	};
	visit(visit);
	if (res.first && !o.all_violations) {
		std::size_t cur = ctx.first_bad_state;
		while (index < cur && !ctx.first_bad_state.compare_exchange_weak(cur, index))
			;
	}
	return res;
}

// Runs the violating schedule again, recording, and has a fresh checker
// judge the history offline; then once more with the harness's planned
// agent instead of the explorer's.
found_violation confirm(strategy& s, const explore_options& o, const world_layout& w,
			const std::vector<std::uint8_t>& init, const std::vector<placed_event>& events)
{
	found_violation f;
	f.events = events;
	harness h(s, w, std::nullopt, nullptr, true);
	h.set_caller(caller_of(o));
	tracer tr(h.table(), events, false);
	const outcome out = run_schedule(w, o.scen, init, tr, h, &f.h);
	if (out.violations.empty())
		throw internal_error("explore: a violating schedule ran clean the second time");
	f.v = out.violations.front();
	f.initial = out.initial;
	checker offline(f.h.geo, f.h.folios, f.h.initial, f.h.hw);
	replay(f.h, offline);
	f.replay_confirms = offline.failed(f.v.prop);
	harness h2(s, w, std::nullopt, nullptr, true);
	h2.set_caller(caller_of(o));
	set_up(h2, o.scen, init);
	checker chk(w.geo, w.folios, h2.table(), w.hw);
	h2.watch(chk, nullptr);
	h2.begin_command(tr.fired);
	run_caller(h2, o.scen);
	h2.end_command();
	h2.unwatch();
	f.rerun_confirms = chk.failed(f.v.prop);
	f.lines = history_lines(f.h, f.v);
	return f;
}

} // namespace

// Initial states are independent searches: they run on every core, and the
// reported violation is the one of the lowest-numbered state (the same on
// any number of threads).
//
// The counts are those of the states up to and including that one, and
// that is why they do not depend on the threads' timing: every state below
// it is searched to its end (a state is cut only by a violation in a lower
// one), and the state itself by one thread, depth first in a fixed order,
// up to its first violating schedule.  States above it may have been
// started, or not, before the violation was known; what they ran is left
// out.  With all_violations every state is searched to its end.
explore_result explore(strategy& s, const explore_options& o)
{
	check_options(o);
	explore_result res;
	res.strategy = s.info().name;
	res.options = o;
	const world_layout w = scenario_layout(o.geo, scenario_runs(o.scen), o.hw);
	res.entries = w.nr_entries;
	res.covered = scenario_range(o.scen, o.geo, w.nr_entries);
	res.breach = caller_preflight(s, w, o.scen, caller_of(o));
	if (res.breach)
		return res;
	const auto states = initial_states(o);
	res.initial_states = states.size();
	std::atomic<bool> out_of_time{false};
	std::atomic<std::size_t> first_bad{states.size()};
	std::atomic<std::uint64_t> explored{0};
	std::atomic<std::size_t> next{0}, done{0};
	search_context ctx{s, o, w, out_of_time, first_bad, explored, std::chrono::steady_clock::now()};
	std::vector<state_result> results(states.size());
	std::mutex progress_lock;
	auto worker = [&] {
		for (std::size_t i = next++; i < states.size(); i = next++) {
			if (out_of_time || (!o.all_violations && first_bad < i)) {
				results[i].complete = false;
				continue;
			}
			results[i] = search_state(ctx, i, states[i]);
			done++;
			if (o.progress) {
				std::lock_guard<std::mutex> g(progress_lock);
				o.progress(explored, done, states.size());
			}
		}
	};
	const unsigned nr_threads = std::max(1u, std::min(o.threads ? o.threads : std::thread::hardware_concurrency(), 64u));
	std::vector<std::thread> pool;
	for (unsigned t = 1; t < nr_threads; t++)
		pool.emplace_back(worker);
	worker();
	for (auto& t : pool)
		t.join();

	std::optional<std::size_t> bad;
	for (std::size_t i = 0; i < states.size() && !bad; i++)
		if (results[i].first)
			bad = i;
	// States above the first violating one are left out whatever they
	// ran: they are cut at a moment set by the other threads.  Not
	// searching them does not make the search incomplete, it stops at the
	// first violation by design; only the time limit does.
	const std::size_t counted = bad && !o.all_violations ? *bad + 1 : states.size();
	for (std::size_t i = 0; i < counted; i++) {
		const state_result& r = results[i];
		res.explored += r.explored;
		res.pruned += r.pruned;
		res.infeasible += r.infeasible;
		for (property p : r.violated)
			if (std::find(res.violated.begin(), res.violated.end(), p) == res.violated.end())
				res.violated.push_back(p);
		if (!r.complete)
			res.complete = false;
	}
	if (bad)
		res.first = confirm(s, o, w, states[*bad], *results[*bad].first);
	res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.t0).count();
	return res;
}

bool sweep_result::complete() const
{
	if (!not_run.empty())
		return false;
	for (const explore_result& r : runs)
		if (!r.complete)
			return false;
	return true;
}

std::size_t sweep_result::failed() const
{
	std::size_t n = 0;
	for (const explore_result& r : runs)
		n += r.first.has_value() || r.breach.has_value();
	return n;
}

std::optional<scenario> sweep_result::stopped_in() const
{
	for (const explore_result& r : runs)
		if (!r.complete)
			return r.options.scen;
	if (!not_run.empty())
		return not_run.front();
	return std::nullopt;
}

std::uint64_t sweep_result::explored() const
{
	std::uint64_t n = 0;
	for (const explore_result& r : runs)
		n += r.explored;
	return n;
}

sweep_result explore_all(strategy& s, const explore_options& o, const std::vector<scenario>& which)
{
	// Every scenario's options are checked before any is searched, so bad
	// usage costs no search.
	auto options_for = [&](scenario sc) {
		explore_options one = o;
		one.scen = sc;
		if (o.scaled_runs)
			one.geo.cont_ptes = explored_cont_ptes(sc, o.geo);
		return one;
	};
	for (scenario sc : which)
		check_options(options_for(sc));
	const auto t0 = std::chrono::steady_clock::now();
	sweep_result res;
	res.strategy = s.info().name;
	res.options = o;
	for (scenario sc : which) {
		explore_options one = options_for(sc);
		if (o.time_limit > 0) {
			const double left =
				o.time_limit - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
			if (left <= 0 || (!res.runs.empty() && !res.runs.back().complete)) {
				res.not_run.push_back(sc);
				continue;
			}
			one.time_limit = left;
		}
		if (o.scenario_begins)
			o.scenario_begins(sc);
		res.runs.push_back(explore(s, one));
		if (o.scenario_ends)
			o.scenario_ends(res.runs.back());
	}
	res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return res;
}

} // namespace ptespec::explore
