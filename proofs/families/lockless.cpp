// lockless/<writer>-cont<N>: from every table of two runs that satisfies
// the invariant of reachable tables, a lockless read R =
// ptep_get_lockless(i) runs beside one locked call W of the writer's kind
// on an entry j of i's run (lockless_places), under the caller's rules for
// W (a value it passes: every value the rule allows).  R begins before W's
// first primitive; W runs with any number of hardware events in its gaps;
// R's reads see W's table as it was after some of W's primitives -- the
// reads before a split at one point, the rest at a later one, the split
// within R's first two passes over the run (a read torn across any one
// stretch of W's stores, and a retry after it) -- and R ends at a point
// after both.  A read path that spins on W's table at a late point before
// W's end (W left the run half done, and only a third moment of W would
// let R return) is outside this and dropped, counted in the detail; one
// that spins on W's table at its end is R's own livelock: undecided.
// Then R satisfies
//   lockless:  its value, if present, maps what entry i mapped at some
//              moment from R's begin to its end, and a value that is not
//              present is one entry i held then; a present value carries
//              every flag pending for page i at R's begin (the ledger read
//              off the table) that is still pending at R's end (all of
//              them while W has not returned)
// as the checker's judge_lockless.  What is not covered: reads that see
// three or more moments of W, hardware events R alone would see first (an
// event lands at W's slots: before W's next primitive on its entry, or at
// W's end), a read beginning after W has begun, a read of another entry
// than the run's first, other writers.  Every case is probed first
// (case_batch::probe: one path of R each, its model asked of the claim),
// then searched in full; only the full search proves.

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "model/pte.h"
#include "proofs/claims.h"
#include "proofs/families/families.h"
#include "proofs/invariant.h"
#include "proofs/ledger.h"
#include "proofs/world.h"

namespace ptespec::proofs {

namespace {

// lockless, of one read beside one writer (prove_lockless's comment): the
// value maps what entry i mapped at some moment of the read's window, and
// carries every flag pending for page i when the read began and still
// pending when it ended.
z3::expr lockless_claim(const sym_step& writer, const sym_step& reader, const sym_world& w)
{
	const concurrent_read& race = *w.race;
	const std::size_t i = reader.c.index;
	const z3::expr& got = *reader.result.pte;
	z3::context& ctx = got.ctx();
	const auto& sn = race.snapshots;
	z3::expr seen = ctx.bool_val(false);
	for (std::size_t k = 0; k < sn.size(); k++) {
		const z3::expr& v = sn[k][i];
		// The window starts at 0: of equal values the first one is
		// inside it whenever a later one is.
		if (k > 0 && z3::eq(v, sn[k - 1][i]))
			continue;
		const z3::expr same = z3::ite(pte_present(v), pte_present(got) && pte_same_mapping(v, got), v == got);
		seen = seen || (z3::ule(ctx.bv_val(k, race.end.get_sort().bv_size()), race.end) && same);
	}
	// Pending when the read began: what the table shows (the invariant's
	// ledger).  Still pending at its end: all of it while the writer has
	// not returned (the ledger changes at a call's end), else what the
	// writer's end left pending.
	const ledger_state begin = read_off(writer.before, w.geo);
	std::vector<claim> unused;
	const ledger_state after = call_claims(writer, w, begin, false, unused);
	const z3::expr ended = z3::uge(race.end, *race.last);
	const sym_flags owed{begin.pending[i].y && (!ended || after.pending[i].y),
			     begin.pending[i].d && (!ended || after.pending[i].d)};
	return seen && z3::implies(pte_present(got), subset(owed, own_flags(got)));
}

// The reader entries of a lockless/ obligation and, for each, the entries
// of its run the writer calls on: the run's edges and a middle, the
// reader's own entry among them.  The read of the run's first entry only:
// a read of its last, beside a writer that clears the run's first entry,
// has read paths that spin on a table the writer left half done, each
// re-reading the run twice with a split point in its terms before it is
// dropped, and the case did not end in 600 s.
std::vector<std::pair<std::size_t, std::size_t>> lockless_places(std::size_t c, bool quick)
{
	std::vector<std::pair<std::size_t, std::size_t>> out;
	const std::vector<std::size_t> readers = {0};
	const std::vector<std::size_t> writers = quick ? std::vector<std::size_t>{0, c - 1}
						       : std::vector<std::size_t>{0, 1, c / 2, c - 1};
	for (std::size_t i : readers)
		for (std::size_t j : writers)
			out.emplace_back(i, j);
	return out;
}

} // namespace

std::size_t lockless_split_within(const geometry& geo) { return 2 * (geo.cont_ptes + 1); }

bool add_race(case_batch& batch, const sym_world& w, const call& wc, std::size_t i)
{
	scenario sc;
	sc.calls = {wc, call{call_kind::ptep_get_lockless, i, 1, false, 0, 0}};
	std::optional<sym_step> wrote;
	sc.observe = [&w, &wrote](const sym_step& st, std::vector<claim>& claims) {
		if (st.ordinal == 0) {
			wrote = st;
			return;
		}
		claims.push_back({property::lockless, lockless_claim(*wrote, st, w), {}});
	};
	return batch.add(w, sc);
}

namespace {

using places = std::vector<std::pair<std::size_t, std::size_t>>;

// The options of a lockless/ run: its cases' path budget, and the solver
// and probes its reads need.
prove_options lockless_options(const prove_options& given, std::size_t cases)
{
	prove_options o = given;
	// A case costs some 20 s of paths at 4K (mainline's: 37 paths).
	o.search.run_seconds = std::max(o.search.run_seconds, 45.0 * static_cast<double>(cases));
	// The reads' terms choose among the writer's tables by the read points:
	// the incremental solver sits on such questions for seconds where
	// bit-blasting answers in a fraction of one (one case of mainline's:
	// 55 s with 2 s first asked of the incremental solver, 18 s with 20 ms;
	// a final question goes on to bit-blasting as soon).
	o.solver.quick_solve_ms = std::min(o.solver.quick_solve_ms, 20u);
	o.solver.claims_first_ms = std::min(o.solver.claims_first_ms, 20u);
	// A reader that branches on each entry it reads (skipping cleared
	// ones) has paths whose every decision asks the solver a hard question
	// about the writer's tables: the full search of one read did not end
	// in 180 s.  One path's counterexample, though, is one question.
	if (!o.probes.count)
		o.probes.count = 16;
	return o;
}

// The case of ptep_get_lockless(i) beside the writer on entry j, from every
// invariant table, added to `batch`: whether to go on (case_batch::add),
// and the read paths dropped for spinning.
std::pair<bool, std::size_t> add_case(case_batch& batch, const obligation_run& run, call_kind writer, std::size_t i,
				      std::size_t j)
{
	z3::context& ctx = shared_context();
	const geometry geo = geometry::of(run.g);
	sym_world w = invariant_table(ctx, run.g, 2, folio_layout(geo.cont_ptes));
	const call wc{writer, j, 1, false, 0, 0};
	if (passes_value(writer))
		w.arguments.push_back(ctx.bv_const("value", 64));
	w.assumptions.push_back(caller_rules(wc, w.initial, w.folios, geo, w.argument(0)));
	w.race = std::make_shared<concurrent_read>(ctx, lockless_split_within(geo));
	w.stores_judged = false;	// the writer's own claims are step/'s
	const bool more = add_race(batch, w, wc, i);
	return std::make_pair(more, w.race->spun);
}

// Every case's probes, before any full search: a case whose full search
// spends the budget would leave the later cases' probes unsent.  Into r
// when they refute; r's time stops counted either way.
struct probe_pass {
	std::size_t asked = 0;
	double seconds = 0;
	bool refuted = false;
};

probe_pass probe_first(obligation_run& run, call_kind writer, const places& at, const prove_options& o,
		       proof_result& r)
{
	proof_result pr = r;
	prove_options po = o;
	po.probes.only = true;
	case_batch probing(shared_context(), run.s, po, pr, 0);
	for (const auto& [i, j] : at)
		if (!add_case(probing, run, writer, i, j).first)
			break;
	probing.check();
	const probe_pass out{probing.probes_asked(), probing.probe_seconds(), pr.verdict == proof_verdict::refuted};
	r.time_stops = pr.time_stops;
	if (out.refuted)
		r = std::move(pr);
	return out;
}

} // namespace

void prove_lockless(obligation_run& run, call_kind writer)
{
	stopwatch clock;
	const std::size_t c = geometry::of(run.g).cont_ptes;
	proof_result& r = run.results.front();
	// With a range set: the writer on its first entry, the read of entry 0.
	const places at = run.o.range_nr > 0 ? places{{0, run.o.range_first}} : lockless_places(c, run.o.quick);
	prove_options o = lockless_options(run.o, at.size());
	probe_pass probed;
	if (*o.probes.count > 0) {
		probed = probe_first(run, writer, at, o, r);
		if (probed.refuted) {
			r.detail += fmt::format("{} probe path{} asked ({:.0f} s); {} reads beside {}: refuted before any "
						"full search",
						probed.asked, probed.asked == 1 ? "" : "s", probed.seconds, at.size(),
						to_string(writer));
			r.seconds = clock.seconds();
			return;
		}
	}
	o.probes.count = 0;
	case_batch batch(shared_context(), run.s, o, r, 0);
	std::size_t spun = 0;
	for (const auto& [i, j] : at) {
		const auto [more, spins] = add_case(batch, run, writer, i, j);
		spun += spins;
		if (!more)
			break;
	}
	batch.check();
	if (probed.asked > 0)
		r.detail += fmt::format("{} probe path{} asked first ({:.0f} s), none refuting; ", probed.asked,
					probed.asked == 1 ? "" : "s", probed.seconds);
	if (spun > 0)
		r.detail += fmt::format("{} read path{} that spun on a table the writer left half done, which only a third "
					"moment of the writer would end, left out; ",
					spun, spun == 1 ? "" : "s");
	r.detail += fmt::format("{} reads beside {} ({}) from two runs satisfying the invariant, each read torn across "
				"at most one stretch of the writer, any number of hw events in the writer's gaps",
				at.size(), to_string(writer),
				run.o.range_nr > 0 ? fmt::format("entry 0 read, the writer at {}", run.o.range_first)
				: run.o.quick	   ? std::string("quick: entry 0 read, the writer at 0 and c-1")
						   : std::string("entry 0 read, the writer at 0, 1, a middle and c-1"));
	r.seconds = clock.seconds();
}

// The lockless/ families: a lockless read beside one locked call of each
// writer kind that changes the entries of a mapped run under a racing
// GUP-fast (try_to_unmap's clear, fork's wrprotect, a fault's set_ptes
// that may fold the run).
std::vector<obligation_family> lockless_families()
{
	std::vector<obligation_family> table;
	using enum call_kind;
	for (call_kind k : {ptep_get_and_clear, wrprotect_ptes, set_ptes}) {
		obligation_scope sc;
		sc.properties = {property::lockless};
		sc.calls = {ptep_get_lockless};
		sc.tables = fmt::format(
			"every table of two runs satisfying the invariant of reachable tables, a lockless read of a run's "
			"first entry beside one {} of an edge or middle entry of its run{}, the read beginning first and "
			"its reads seeing the writer's table at two points of its run, switching within its first two "
			"passes; hardware events at the writer's slots",
			to_string(k), passes_value(k) ? " with every value the caller's rule lets it pass" : "");
		sc.from_invariant = true;
		table.push_back({.prefix = fmt::format("lockless/{}-", to_string(k)),
				 .needs = {ptep_get_lockless, k},
				 .opt_in = true,
				 .prove = [k](obligation_run& run) { prove_lockless(run, k); },
				 .scope = sc});
	}
	return table;
}

} // namespace ptespec::proofs
