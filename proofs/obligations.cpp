#include "proofs/obligations.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "mm/callers.h"
#include "model/checker.h"
#include "model/observer.h"
#include "model/pte.h"
#include "proofs/invariant.h"
#include "proofs/ledger.h"
#include "proofs/replay.h"
#include "proofs/sampled_race.h"
#include "proofs/world.h"

namespace ptespec::proofs {

namespace {

// Concrete positions inside a run of c entries the one-call obligations
// try: the edges and the middle (a strategy decides by alignment, so these
// are the distinct cases of the code under test; stated in each result's
// detail).
std::vector<std::size_t> offsets(std::size_t c, bool quick)
{
	if (quick)
		return {0, 1, c - 1};
	return {0, 1, 2, c / 2, c - 2, c - 1};
}

// The ranges [i, e) of batch-or over a table of two runs of c entries:
// every start and every length up to o.every_range_upto entries per run;
// above that, the starts and ends that decide what a strategy does: each
// on, next to and inside a run edge, one entry or two, inside one run or
// across both (every (start, length) at CONT_PTES 128 -- 32,896 of them --
// is out of reach at the solver time a case costs there).
std::vector<std::pair<std::size_t, std::size_t>> batch_ranges(std::size_t c, const prove_options& o)
{
	std::vector<std::pair<std::size_t, std::size_t>> out;
	const std::size_t n = 2 * c;
	if (o.range_nr > 0) {
		if (o.range_first + o.range_nr > n)
			throw internal_error(fmt::format("batch-or: range {}+{} outside two runs of {}", o.range_first,
							 o.range_nr, c));
		return {{o.range_first, o.range_first + o.range_nr}};
	}
	if (o.quick) {
		for (std::size_t i : {std::size_t{0}, std::size_t{1}, c - 1, c, c + 1})
			for (std::size_t e : {i + 1, c, c + 1, n - 1, n})
				if (e > i && e <= n)
					out.emplace_back(i, e);
		return out;
	}
	if (c <= o.every_range_upto) {
		for (std::size_t i = 0; i < n; i++)
			for (std::size_t e = i + 1; e <= n; e++)
				out.emplace_back(i, e);
		return out;
	}
	for (std::size_t i : {std::size_t{0}, std::size_t{1}, c / 2, c - 1, c, c + 1, n - 1})
		for (std::size_t e : {i + 1, i + 2, c - 1, c, c + 1, n - 1, n})
			if (e > i && e <= n && std::find(out.begin(), out.end(), std::pair{i, e}) == out.end())
				out.emplace_back(i, e);
	return out;
}

std::string ranges_note(std::size_t c, const prove_options& o)
{
	if (o.range_nr > 0)
		return fmt::format("the one range [{}, {})", o.range_first, o.range_first + o.range_nr);
	if (o.quick)
		return "quick: starts 0,1,c-1,c,c+1 x ends i+1,c,c+1,2c-1,2c";
	if (c <= o.every_range_upto)
		return "every start and length";
	return "starts 0,1,c/2,c-1,c,c+1,2c-1 x ends i+1,i+2,c-1,c,c+1,2c-1,2c: each run edge, inside, across";
}

z3::expr eq(const sym_flags& a, const sym_flags& b) { return a.y == b.y && a.d == b.d; }

// World w for an obligation none of whose claims is well-formed at a store
// (batch-or, the one-call and exit ones): its stores are not judged.
sym_world unjudged_stores(sym_world w)
{
	w.stores_judged = false;
	return w;
}

} // namespace

// batch-or/cont<N>: for every table of two folded runs of one folio (any
// attributes, any young/dirty/rdonly per entry), every start i and length
// nr inside it, and every hardware interleaving (any number of events in
// every gap), get_and_clear_full_ptes(i, nr, full) = r satisfies
//   (1) for all p in [i, i+nr): the entry is invalid afterwards and the
//       call took a valid value v_p out of it, and
//       young(r) = OR_p young(v_p),  dirty(r) = OR_p dirty(v_p)   (batch-or)
//   (2) for all p outside [i, i+nr): the entry still maps what it mapped
//       (pte_same_mapping)                                         (isolation)
void prove_batch_or(obligation_run& run, bool full)
{
	stopwatch clock;
	strategy& s = run.s;
	const granule g = run.g;
	const prove_options& o = run.o;
	const std::size_t c = geometry::of(g).cont_ptes;
	proof_result& r = run.results.front();
	// Short ranges first: a strategy whose long batches branch per entry
	// may exhaust the path budget there, and a broken one is usually
	// broken on short ranges already.
	std::vector<std::pair<std::size_t, std::size_t>> ranges = batch_ranges(c, o);
	std::stable_sort(ranges.begin(), ranges.end(),
			 [](const auto& a, const auto& b) { return a.second - a.first < b.second - b.first; });
	z3::context& ctx = shared_context();
	const sym_world w = unjudged_stores(folded_runs(ctx, g, 2));
	case_batch batch(ctx, s, o, r, o.batch_entries);
	std::size_t last_nr = 0;
	for (const auto& [i, e] : ranges) {
		// A question per length: a failure on short ranges is found before
		// the long ones run.
		if (e - i != last_nr && batch.check() == proof_verdict::refuted)
			break;
		last_nr = e - i;
		scenario sc;
		sc.calls = {call{call_kind::get_and_clear_full_ptes, i, e - i, full, 0, 0}};
		sc.observe = [&](const sym_step& st, std::vector<claim>& claims) {
			const auto& q = st.before;
			const auto& t = st.after;
			z3::expr took = ctx.bool_val(true);
			sym_flags acc = no_flags(ctx);
			z3::expr same = ctx.bool_val(true);
			for (std::size_t p = 0; p < t.size(); p++) {
				const z3::expr was = pte_present(q[p]);
				if (p >= i && p < e) {
					took = took && z3::implies(was, !pte_present(t[p]) && pte_present(st.taken[p]));
					const sym_flags f = own_flags(st.taken[p]);
					acc = acc | sym_flags{was && f.y, was && f.d};
					continue;
				}
				same = same && z3::ite(was, pte_present(t[p]) && pte_same_mapping(q[p], t[p]), q[p] == t[p]);
			}
			claims.push_back({property::batch_or, took && eq(reported_flags(st.result, q[i]), acc), {}});
			claims.push_back({property::isolation, same, {}});
		};
		if (!batch.add(w, sc))
			break;
	}
	r.verdict = batch.check();
	r.detail += fmt::format("{} (i, nr) ranges over 2 runs ({}), full={}, any number of hw events per gap",
			       ranges.size(), ranges_note(c, o), full ? 1 : 0);
	r.seconds = clock.seconds();
}

// per-call/one-call and no-loss/one-call: from every run of one folio in
// the middle of a full teardown -- entries [0, m) already cleared, the rest
// valid CONT with any flags -- whose ledger is what the reference read
// shows (every pending flag visible: the invariant), one call C in
// {ptep_get(m), ptep_get_and_clear_full(m, 1),
// get_and_clear_full_ptes(m, CONT_PTES - m, 1)} with any hardware events in
// every gap satisfies
//   per-call:  report(C) includes every flag pending for m at its begin,
//              and afterwards every flag pending for a still-mapped page is
//              visible to the reference read of that page (the invariant
//              again, so the next call starts from a state of this kind:
//              the induction step over sequences of these calls)
//   no-loss:   every live event is handed off by C's report, or still
//              visible through a page it is pending for.
//
// Both obligations are stated over the same cases, so a run may ask for
// both at once: each case's paths run once and one question asks both
// claim sets (case_batch's goals); the results then share their run and
// their seconds, which each reports as its own.
void prove_one_call(obligation_run& run)
{
	stopwatch clock;
	strategy& s = run.s;
	const granule g = run.g;
	const prove_options& o = run.o;
	const geometry geo = geometry::of(g);
	const std::size_t c = geo.cont_ptes;
	std::vector<property> props;
	for (const obligation_family* f : run.families)
		props.push_back(f->scope.properties.front());
	auto wants = [&](property p) { return std::find(props.begin(), props.end(), p) != props.end(); };
	std::vector<proof_result>& rs = run.results;
	std::vector<case_batch::goal> goals;
	for (std::size_t k = 0; k < props.size(); k++) {
		if (props[k] != property::per_call && props[k] != property::no_loss)
			throw internal_error(fmt::format("one-call: no obligation for {}", to_string(props[k])));
		goals.push_back({{props[k]}, &rs[k]});
	}
	std::size_t cases = 0;
	const std::vector<std::size_t> mids = offsets(c, o.quick);
	z3::context& ctx = shared_context();
	case_batch batch(ctx, s, o, goals, 0);
	bool stop = false;
	for (call_kind k : {call_kind::ptep_get, call_kind::ptep_get_and_clear_full, call_kind::get_and_clear_full_ptes}) {
		if (!s.implements(k))
			continue;
		for (std::size_t mid : mids) {
			if (stop)
				break;
			cases++;
			const sym_world w = unjudged_stores(folded_runs(ctx, g, 1, mid));
			const call cl{k, mid, k == call_kind::get_and_clear_full_ptes ? c - mid : 1, true, 0, 0};
			scenario sc;
			sc.calls = {cl};
			sc.observe = [&](const sym_step& st, std::vector<claim>& claims) {
				const auto& q = st.before;
				const auto& t = st.after;
				const std::vector<sym_flags> pending = ref_flags(q, geo);
				const call_ledger led = settle_call(cl, geo, q, t, pending, reported_flags(st.result, q[mid]),
								    st.events);
				if (wants(property::no_loss))
					claims.push_back({property::no_loss, led.no_loss, {}});
				if (!wants(property::per_call))
					return;
				claims.push_back({property::per_call, led.per_call, {}});
				const std::vector<sym_flags> visible = ref_flags(t, geo);
				for (std::size_t page = 0; page < c; page++) {
					const z3::expr inv = z3::implies(pte_present(t[page]),
									 subset(led.pending_after[page], visible[page]));
					claims.push_back({property::per_call, inv, {call{call_kind::ptep_get, page}}});
				}
			};
			stop = !batch.add(w, sc);
		}
	}
	batch.check();
	const double seconds = clock.seconds();
	for (proof_result& r : rs) {
		r.detail += fmt::format("{} cases: 3 calls x teardown position m in {}, any number of hw events per gap",
				       cases, o.quick ? "{0,1,c-1}" : "{0,1,2,c/2,c-2,c-1}");
		if (rs.size() > 1)
			r.detail += "; paths run once for per-call/one-call and no-loss/one-call, time shared";
		r.seconds = seconds;
	}
}

// exit/run-cont<N> (exit/batch-cont<N>): a whole folded run of one folio,
// any flags, torn down as exit() does -- per entry k, low to high,
// ptep_get(k) then ptep_get_and_clear_full(k, 1) (batched: ptep_get(0) then
// get_and_clear_full_ptes(0, CONT_PTES, 1)) -- with any hardware events in
// every gap (so at least two per gap):
//   no-loss:  OR of the clears' reports >= OR(initial flags, every event)
//   per-call: every call reports every flag pending for its page when it
//             began (the checker's ledger, ledger.h)
void prove_exit(obligation_run& run, bool batched)
{
	stopwatch clock;
	strategy& s = run.s;
	const granule g = run.g;
	const prove_options& o = run.o;
	const geometry geo = geometry::of(g);
	const std::size_t c = geo.cont_ptes;
	proof_result& r = run.results.front();
	// The calls are core-mm's (mm/callers.h) over a folded run of one
	// folio, whatever the flags: every entry valid and CONT, so the walk
	// is the same for every initial state the proof covers.
	const std::vector<folio_extent> folio = {{0x40000, c}};
	table_t shape(c);
	for (std::size_t k = 0; k < c; k++)
		shape[k] = pte_mkcont(pfn_pte(folio[0].first_pfn + k, PTE_VALID | PTE_TYPE | PTE_USER | PTE_AF, geo));
	mm::zap_options zo;
	zo.full = true;
	zo.batched = batched;
	const std::vector<call> calls = mm::planned_zap({geo, folio}, shape, 0, c, zo,
							[&](call_kind k) { return s.implements(k); });
	z3::context& ctx = shared_context();
	const sym_world w = unjudged_stores(folded_runs(ctx, g, 1));
	std::vector<sym_flags> pending = ref_flags(w.initial, geo);
	sym_flags present = no_flags(ctx);
	for (std::size_t page = 0; page < c; page++)
		present = present | own_flags(w.initial[page]);
	sym_flags covered = no_flags(ctx);
	scenario sc;
	sc.calls = calls;
	sc.observe = [&](const sym_step& st, std::vector<claim>& claims) {
		const sym_flags rf = reported_flags(st.result, st.before[st.c.index]);
		const call_ledger led = settle_call(st.c, geo, st.before, st.after, pending, rf, st.events);
		claims.push_back({property::per_call, led.per_call, {}});
		pending = led.pending_after;
		if (semantics_of(st.c).hands_off)
			covered = covered | rf;
		for (const sym_event& e : st.events)
			present = present | sym_flags{e.fired, e.fired && e.write};
		// no-loss first: it names the graver failure when both fail.
		if (st.ordinal + 1 == calls.size())
			claims.insert(claims.begin(), claim{property::no_loss, subset(present, covered), {}});
	};
	case_batch batch(ctx, s, o, r, 0);
	batch.add(w, sc);
	r.verdict = batch.check();
	r.detail += fmt::format("{} calls over one folded run, any number of hw events per gap", calls.size());
	r.seconds = clock.seconds();
}

namespace {

// The single entries a step/ obligation calls on in a table of two runs of
// c: each run edge and its neighbours, and a middle (quick: the edges of
// the first run and the start of the second).
std::vector<std::size_t> step_entries(std::size_t c, bool quick)
{
	if (quick)
		return {0, c - 1, c};
	std::vector<std::size_t> out = {0, 1, c / 2, c - 1, c, c + 1, 2 * c - 1};
	std::sort(out.begin(), out.end());
	out.erase(std::unique(out.begin(), out.end()), out.end());
	return out;
}

// The teardown clears, which take `full`.
bool takes_full(call_kind k)
{
	return k == call_kind::ptep_get_and_clear_full || k == call_kind::get_and_clear_full_ptes ||
	       k == call_kind::clear_full_ptes;
}

// The flags the calls of kind k are made with: MADV_FREE's
// clear_young_dirty_ptes clears both flags; a fault's ptep_set_access_flags
// is a read fault (0) or a write fault (1).
std::vector<unsigned> flag_sets(call_kind k)
{
	if (k == call_kind::clear_young_dirty_ptes)
		return {CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY};
	if (k == call_kind::ptep_set_access_flags)
		return {0u, 1u};
	return {0u};
}

// The calls of a step/ obligation for kind k: one per entry or range, and
// per full for the calls that take it.
std::vector<call> step_calls(call_kind k, std::size_t c, const prove_options& o)
{
	std::vector<call> out;
	// The entries or ranges: with o.range_nr set, that one (a one-entry
	// call takes its first entry).
	std::vector<std::pair<std::size_t, std::size_t>> spans;
	if (takes_nr(k))
		spans = batch_ranges(c, o);
	else if (o.range_nr > 0)
		spans = {{o.range_first, o.range_first + 1}};
	else
		for (std::size_t i : step_entries(c, o.quick))
			spans.emplace_back(i, i + 1);
	// MADV_FREE clears a whole folio (caller_rules): only the ranges as
	// long as some folio of the worlds' layout can be one.
	if (k == call_kind::clear_young_dirty_ptes) {
		const std::vector<folio_extent> folios = folio_layout(c);
		std::erase_if(spans, [&](const std::pair<std::size_t, std::size_t>& r) {
			return std::none_of(folios.begin(), folios.end(),
					    [&](const folio_extent& f) { return f.nr_pages == r.second - r.first; });
		});
	}
	for (bool full : takes_full(k) ? std::vector<bool>{true, false} : std::vector<bool>{false})
		for (unsigned flags : flag_sets(k))
			for (const auto& [i, e] : spans)
				out.push_back(call{k, i, e - i, full, 0, flags});
	return out;
}

// Whether valid word v grants write only through DBM, as arm64 builds
// every user protection (the invariant's (dbm)).
z3::expr writable_by_dbm(const z3::expr& v) { return pte_write(v) || pte_rdonly(v); }

// What core-mm guarantees about the entries it passes to call c, over the
// symbolic table t, and about the value v it passes (set_ptes, the mprotect
// commit, ptep_set_access_flags): the rules a strategy may rely on.
//   a clear of one entry, a one-entry young test: the entry is present;
//   a batch clear, fork's wrprotect, mprotect's start, reclaim's and
//     MADV_FREE's young/dirty clears: present entries mapping consecutive
//     pages of one folio with the same attributes (folio_pte_batch's rule,
//     flags aside); fork's, entries that grant write (PTE_WRITE);
//     MADV_FREE's, all of its folio (a folio it maps in part is split
//     first, or left alone);
//   clear_non_present_ptes: non-present entries, none of them none;
//   set_ptes: none entries (a fault maps over none; reclaim and migration
//     put a swap entry where they cleared one), and a value that maps the
//     range's pages -- valid, without CONT (a protection has none), write
//     only through DBM, its nr pages inside one folio when nr > 1 (one
//     page may be a page of no folio: a special mapping) -- or, for one
//     entry, a swap entry or marker;
//   modify_prot_commit_ptes: the entries its start cleared (none), and the
//     start's value under the new protection: present -- valid and
//     writable only through DBM, or PROT_NONE without PTE_WRITE (pte_modify
//     takes it from the protection, which has none) -- its nr pages inside one
//     folio; CONT as the start's gathered value had it (pte_modify keeps
//     it), so free;
//   ptep_set_access_flags: a valid entry, and the value a fault made of
//     what it read there (ptep_get: the run's OR for a CONT entry) and
//     found unchanged under the table lock -- the same page and
//     attributes, CONT as read, young; a read fault (flags 0) keeps the
//     entry's write permission and is dirty only if the read was; a write
//     fault (flags 1) asks for write and dirty (pte_mkdirty, and
//     pte_mkwrite when do_wp_page reuses the page): DBM set, RDONLY clear,
//     software dirty set; no fault takes write away;
//   a read, a fold or an unfold test: nothing.
z3::expr caller_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
		      const geometry& geo, const std::optional<z3::expr>& value)
{
	z3::context& ctx = t.front().ctx();
	z3::expr rules = ctx.bool_val(true);
	auto range_none = [&] {
		z3::expr none = ctx.bool_val(true);
		for (std::size_t j = 0; j < c.nr; j++)
			none = none && t[c.index + j] == ctx.bv_val(0, 64);
		return none;
	};
	auto needs_value = [&]() -> const z3::expr& {
		if (!value)
			throw internal_error(fmt::format("step/: {} needs a symbolic value", describe(c)));
		return *value;
	};
	switch (c.kind) {
	case call_kind::set_ptes: {
		const z3::expr& v = needs_value();
		z3::expr maps = pte_valid(v) && !pte_cont(v) && writable_by_dbm(v);
		if (c.nr > 1)
			maps = maps && folio_covers(folios, pte_pfn(v, geo), c.nr);
		z3::expr value_rule = maps;
		if (c.nr == 1)
			value_rule = value_rule || (!pte_present(v) && v != ctx.bv_val(0, 64));
		return range_none() && value_rule;
	}
	case call_kind::modify_prot_commit_ptes: {
		const z3::expr& v = needs_value();
		return range_none() && pte_present(v) && z3::implies(pte_valid(v), writable_by_dbm(v)) &&
		       z3::implies(pte_present_invalid(v), !pte_write(v)) && folio_covers(folios, pte_pfn(v, geo), c.nr);
	}
	case call_kind::ptep_set_access_flags: {
		const z3::expr& v = needs_value();
		const z3::expr& e = t[c.index];
		rules = pte_valid(e) && pte_valid(v) && pte_young(v) && writable_by_dbm(v) &&
			pte_same_mapping(pte_clear_bits(v, PTE_WRITE), pte_clear_bits(e, PTE_WRITE)) &&
			pte_cont(v) == pte_cont(e) && z3::implies(pte_write(e), pte_write(v));
		if (c.flags)
			return rules && pte_hw_dirty(v) && pte_sw_dirty(v);
		const sym_flags read = ref_flags(t, geo)[c.index];
		return rules && pte_write(v) == pte_write(e) && z3::implies(pte_dirty(v), read.d);
	}
	case call_kind::ptep_get_and_clear:
	case call_kind::ptep_get_and_clear_full:
	case call_kind::ptep_test_and_clear_young:
	case call_kind::ptep_clear_flush_young:
		return pte_present(t[c.index]);
	case call_kind::get_and_clear_full_ptes:
	case call_kind::clear_full_ptes:
	case call_kind::wrprotect_ptes:
	case call_kind::modify_prot_start_ptes:
	case call_kind::test_and_clear_young_ptes:
	case call_kind::clear_flush_young_ptes:
	case call_kind::clear_young_dirty_ptes:
		rules = folio_covers(folios, pte_pfn(t[c.index], geo), c.nr);
		for (std::size_t j = 0; j < c.nr; j++)
			rules = rules && pte_present(t[c.index + j]) &&
				pte_same_mapping(t[c.index + j], pte_advance_pfn(t[c.index], j, geo));
		// Fork wrprotects only what grants write (a COW mapping's
		// writable entries: never PROT_NONE's).
		if (c.kind == call_kind::wrprotect_ptes)
			for (std::size_t j = 0; j < c.nr; j++)
				rules = rules && pte_write(t[c.index + j]);
		// MADV_FREE clears a large folio only when the range maps all of
		// it (a folio it maps in part is split, or left alone).
		if (c.kind == call_kind::clear_young_dirty_ptes) {
			z3::expr whole = ctx.bool_val(false);
			for (const folio_extent& f : folios)
				if (f.nr_pages == c.nr)
					whole = whole || pte_pfn(t[c.index], geo) == ctx.bv_val(f.first_pfn, 64);
			rules = rules && whole;
		}
		return rules;
	case call_kind::clear_non_present_ptes:
		for (std::size_t j = 0; j < c.nr; j++)
			rules = rules && !pte_present(t[c.index + j]) && t[c.index + j] != ctx.bv_val(0, 64);
		return rules;
	default:
		return rules;
	}
}

// Whether valid words a and b map pages of one folio, as the checker keys
// folios: a pfn in no declared folio is a folio of its own.
z3::expr same_folio(const std::vector<folio_extent>& folios, const geometry& geo, const z3::expr& a, const z3::expr& b)
{
	z3::context& ctx = a.ctx();
	const z3::expr pa = pte_pfn(a, geo), pb = pte_pfn(b, geo);
	z3::expr same = ctx.bool_val(false), in_any = ctx.bool_val(false);
	for (const folio_extent& f : folios) {
		same = same || (in_folio(f, pa) && in_folio(f, pb));
		in_any = in_any || in_folio(f, pa);
	}
	return same || (!in_any && pa == pb);
}

// The checker's ledger at a call boundary, per page: the flags a report
// must include (pending) and those it may include besides (optional).
struct ledger_state {
	std::vector<sym_flags> pending, optional;
};

// The ledger the invariant reads off table t: every flag the reference read
// shows is pending, nothing optional.
ledger_state read_off(const std::vector<z3::expr>& t, const geometry& geo)
{
	return {ref_flags(t, geo), std::vector<sym_flags>(t.size(), no_flags(t.front().ctx()))};
}

// precise for a call that returns an entry: the value maps what the entry
// mapped (a non-present one reads back exactly), and each flag it reports
// of a present entry was pending on a page of that entry's folio, or came
// from an event of this call in that folio.
z3::expr precise_report(const sym_step& st, const sym_world& w, const ledger_state& at_begin)
{
	const auto& q = st.before;
	const z3::expr& first = q[st.c.index];
	const z3::expr& got = *st.result.pte;
	sym_flags allowed = no_flags(first.ctx());
	for (std::size_t p = 0; p < q.size(); p++) {
		const z3::expr here = pte_present(q[p]) && same_folio(w.folios, w.geo, first, q[p]);
		const sym_flags may = at_begin.pending[p] | at_begin.optional[p];
		allowed = allowed | sym_flags{here && may.y, here && may.d};
	}
	for (const sym_event& e : st.events) {
		const z3::expr here = e.fired && same_folio(w.folios, w.geo, first, q[e.entry]);
		allowed = allowed | sym_flags{here, here && e.write};
	}
	const z3::expr value = z3::ite(pte_present(first), pte_same_mapping(got, first), got == first);
	return value && z3::implies(pte_present(first), subset(own_flags(got), allowed));
}

// The permissions a word grants (model/permission.h): read by being valid;
// write by DBM or a clear RDONLY; user; user and privileged execution by a
// clear UXN, PXN.
struct sym_perms {
	z3::expr read, write, user, uexec, pexec;
};

sym_perms perms_of(const z3::expr& e)
{
	const z3::expr v = pte_valid(e);
	return {v, v && (pte_write(e) || !pte_rdonly(e)), v && pte_any(e, PTE_USER), v && !pte_any(e, PTE_UXN),
		v && !pte_any(e, PTE_PXN)};
}

// permission at a call's end: entry `after` grants nothing `asked` does not.
z3::expr grants_within(const z3::expr& after, const sym_perms& asked)
{
	const sym_perms a = perms_of(after);
	return z3::implies(a.read, asked.read) && z3::implies(a.write, asked.write) &&
	       z3::implies(a.user, asked.user) && z3::implies(a.uexec, asked.uexec) &&
	       z3::implies(a.pexec, asked.pexec);
}

// What call c asks entry p to grant at its end, as the checker's asks_after
// has it: what it granted before, but a mapping call installs its value's
// (pte_advance_pfn changes no permission), wrprotect_ptes takes write away
// in its range, and ptep_set_access_flags may add write when its value
// grants it.
sym_perms asked_of(const call& c, std::size_t p, const z3::expr& before, const std::optional<z3::expr>& value)
{
	const bool inside = p >= c.index && p < range_end(c);
	sym_perms was = perms_of(before);
	if (!inside)
		return was;
	if (semantics_of(c).maps && value)
		return perms_of(*value);
	if (c.kind == call_kind::wrprotect_ptes)
		was.write = before.ctx().bool_val(false);
	if (c.kind == call_kind::ptep_set_access_flags && value)
		was.write = was.write || (was.read && perms_of(*value).write);
	return was;
}

// progress for ptep_set_access_flags(i, v, dirty): at its end entry i
// grants the access to a walker that reads it alone and manages no
// access/dirty state itself -- valid, AF set when v is young, and RDONLY
// clear (DBM alone is no grant to such a walker) when a write fault asks
// for a write (dirty, v writable and dirty): the checker's judge_progress.
z3::expr grants_the_access(const z3::expr& after, const z3::expr& v, bool write_fault)
{
	z3::expr ok = pte_valid(after) && z3::implies(pte_young(v), pte_young(after));
	if (write_fault)
		ok = ok && z3::implies(pte_write(v) && pte_dirty(v), pte_hw_dirty(after));
	return ok;
}

// (reportable) at a call's end: every flag a mapped page shows is one a
// report of it may carry.  Asked twice.  As precise, of the page's folio --
// what the checker judges a read of the page right after the call by: a
// flag some present page of the folio may report (pages with no folio
// counted as one folio, which asks less than the checker, so a refutation
// is always one it confirms).  And, as a part of the invariant, of the page
// itself: the next call's ledger is read off the table page by page, which
// speaks for the checker's only where each page's flags are its own to
// report.  A clean that consumes a flag and leaves it showing breaks both.
// The page's own claim implies its folio's; of_folio = false leaves the
// folio's out (it costs a proof of mainline more than half again; prove_step
// asks it only of a strategy that breaks the page's own).
void claim_reportable(const std::vector<z3::expr>& t, const sym_world& w, const call_ledger& led,
		      const std::vector<sym_flags>& visible, bool of_folio, std::vector<claim>& claims)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t n = t.size();
	std::vector<sym_flags> may(n, no_flags(ctx));
	for (std::size_t p = 0; p < n; p++) {
		may[p] = led.pending_after[p] | led.optional_after[p];
		claims.push_back({property::precise, z3::implies(pte_present(t[p]), subset(visible[p], may[p])), {}, true});
	}
	if (!of_folio)
		return;
	// What the present pages of each folio may report, and those of no folio.
	std::vector<z3::expr> pfn, in_any;
	std::vector<std::vector<z3::expr>> in(w.folios.size());
	for (std::size_t p = 0; p < n; p++) {
		pfn.push_back(pte_pfn(t[p], w.geo));
		z3::expr any = ctx.bool_val(false);
		for (std::size_t f = 0; f < w.folios.size(); f++) {
			in[f].push_back(in_folio(w.folios[f], pfn[p]));
			any = any || in[f][p];
		}
		in_any.push_back(any);
	}
	auto folio_may = [&](const std::function<z3::expr(std::size_t)>& member) {
		sym_flags f = no_flags(ctx);
		for (std::size_t q = 0; q < n; q++) {
			const z3::expr here = pte_present(t[q]) && member(q);
			f = f | sym_flags{here && may[q].y, here && may[q].d};
		}
		return f;
	};
	std::vector<sym_flags> by_folio;
	for (std::size_t f = 0; f < w.folios.size(); f++)
		by_folio.push_back(folio_may([&](std::size_t q) { return in[f][q]; }));
	const sym_flags of_none = folio_may([&](std::size_t q) { return !in_any[q]; });
	for (std::size_t p = 0; p < n; p++) {
		sym_flags allowed{!in_any[p] && of_none.y, !in_any[p] && of_none.d};
		for (std::size_t f = 0; f < w.folios.size(); f++)
			allowed = allowed | sym_flags{in[f][p] && by_folio[f].y, in[f][p] && by_folio[f].d};
		claims.push_back({property::precise, z3::implies(pte_present(t[p]), subset(visible[p], allowed)),
				  {call{call_kind::ptep_get, p}}});
	}
}

// What one call of a step/ or seq/ obligation must satisfy (prove_step's
// comment), given the ledger at its begin; `invariant` adds the parts of
// the invariant no property judges (step/ only: they are what makes its
// tables every reachable one).  Returns the ledger at the call's end.
ledger_state call_claims(const sym_step& st, const sym_world& w, const ledger_state& at_begin, bool invariant,
			 std::vector<claim>& claims, bool reportable_of_folio = true)
{
	const geometry& geo = w.geo;
	const call& c = st.c;
	const call_semantics sem = semantics_of(c);
	const auto& q = st.before;
	const auto& t = st.after;
	z3::context& ctx = q.front().ctx();
	const std::size_t end = range_end(c);
	auto inside = [&](std::size_t p) { return p >= c.index && p < end; };

	z3::expr same = ctx.bool_val(true);
	for (std::size_t p = 0; p < t.size(); p++)
		if (!inside(p))
			same = same &&
			       z3::ite(pte_present(q[p]), pte_present(t[p]) && pte_same_mapping(q[p], t[p]), q[p] == t[p]);
	claims.push_back({property::isolation, same, {}});
	if (st.stores_well_formed)
		claims.push_back({property::well_formed, *st.stores_well_formed, {}});
	const std::optional<z3::expr> value = w.argument(st.ordinal);
	z3::expr granted = ctx.bool_val(true);
	for (std::size_t p = 0; p < t.size(); p++)
		granted = granted && grants_within(t[p], asked_of(c, p, q[p], value));
	claims.push_back({property::permission, granted, {}});
	if (c.kind == call_kind::ptep_set_access_flags && value)
		claims.push_back({property::progress, grants_the_access(t[c.index], *value, c.flags != 0), {}});

	const sym_flags rf = reported_flags(st.result, q[c.index]);
	const call_ledger led = settle_call(
		c, geo, q, t, at_begin.pending, rf, st.events,
		[&w](const z3::expr& a, const z3::expr& b) { return same_folio(w.folios, w.geo, a, b); }, value,
		&at_begin.optional);
	claims.push_back({property::no_loss, led.no_loss, {}});
	if (sem.reports)
		claims.push_back({property::per_call, led.per_call, {}});
	if (sem.reports && st.result.pte)
		claims.push_back({property::precise, precise_report(st, w, at_begin), {}});
	if (sem.batch) {
		z3::expr took = ctx.bool_val(true);
		sym_flags acc = no_flags(ctx);
		for (std::size_t p = c.index; p < end; p++) {
			took = took && !pte_present(t[p]) && pte_present(st.taken[p]);
			acc = acc | own_flags(st.taken[p]);
		}
		claims.push_back({property::batch_or, took && eq(rf, acc), {}});
	}

	// The invariant after the call: each run well formed and in one folio,
	// and every pending flag of a mapped page visible to its reference read
	// (a read of the page is the witness that shows a flag gone).
	for (std::size_t first = 0; first < t.size(); first += geo.cont_ptes) {
		claims.push_back({property::well_formed, run_well_formed(t, geo, first), {}});
		if (invariant) {
			claims.push_back({property::well_formed, run_whole(t, geo, first), {}, true});
			claims.push_back({property::well_formed, run_writable_by_dbm(t, geo, first), {}, true});
			claims.push_back({property::well_formed, run_prot_none_block(t, geo, first, w.folios), {}, true});
		}
		// (folio) is the invariant's: a run over two folios is no
		// failure until a flag of one shows on the other's pages, which
		// (reportable) asks.
		if (invariant)
			claims.push_back({property::precise, run_in_one_folio(t, geo, first, w.folios), {}, true});
	}
	const std::vector<sym_flags> visible = ref_flags(t, geo);
	for (std::size_t p = 0; p < t.size(); p++)
		claims.push_back({property::per_call,
				  z3::implies(pte_present(t[p]), subset(led.pending_after[p], visible[p])),
				  {call{call_kind::ptep_get, p}}});
	if (invariant)
		claim_reportable(t, w, led, visible, reportable_of_folio, claims);
	return {led.pending_after, led.optional_after};
}

} // namespace

// step/<call>-cont<N>: from every table of two runs that satisfies the
// invariant of reachable tables (proofs/invariant.h: runs well formed, every
// pending flag visible), for each entry or range of the call's set
// (step_calls: the run edges and a middle; for a batch, the ranges of
// batch-or), under the caller's rules for the call (caller_rules) -- for a
// call that passes a value, every value its rule allows, as one free word --
// with any number of hardware events in every gap, one call C of the kind
// satisfies
//   (shape)     every run is well formed at C's end           (well-formed)
//   break-before-make: every store of C that changes an entry's CONT
//               between valid values does so after an invalidation that
//               dropped the old translation from every CPU's TLB (or,
//               under BBML2, the two translate alike), the TLB holding at
//               C's begin what the table maps (symbolic_machine.h)
//                                                             (well-formed)
//   (ledger)    every flag pending for a mapped page after C -- those the
//               value of C brings included -- is visible to the reference
//               read of the page                              (per-call)
//   (reportable) every flag the reference read of a mapped page shows
//               after C may be reported of it: pending or optional for
//               some page of its folio                        (precise)
//               and for the page itself          (the invariant only)
//   isolation:  entries outside C's range keep their mapping
//   permission: at C's end no entry grants a permission C did not ask of it
//               (asked_of: what it granted before; a mapping call's value's;
//               no write in wrprotect_ptes' range; write added by
//               set_access_flags only when its value grants it) -- at the
//               end only: a grant in the middle of C is the sampled checker's
//   per-call:   C's report includes every flag pending for its range
//   precise:    C's report maps what its entry mapped, and reports a flag
//               only if it was pending in that entry's folio or arrived
//               there during C
//   no-loss:    every live event is reported by C or still visible, and so
//               is every flag C's value brings
//   batch-or:   a batch clear took valid values out of its whole range and
//               returned exactly their OR
//   progress:   after ptep_set_access_flags the entry grants the access to a
//               walker that reads it alone (grants_the_access)
// (shape), (ledger) and (reportable) are the invariant again, so it is
// inductive over C; the empty table satisfies it.  The ledger at C's begin
// is read off the table (read_off): every flag shown is pending, nothing
// optional.  That is the strongest ledger for per-call and no-loss (a
// report must include more), and with (reportable) the checker's ledger
// lets each page report at least what it shows, so precise asked of a
// report against it asks no less than the checker does.  (folio), a run
// with CONT mapping pages of one folio, is claimed as the invariant's: a
// run over two folios shows one folio's flags on the other's pages, which
// (reportable) refutes once there is such a flag (a read of the page
// reports it), and which leaves the obligation unknown otherwise.
void prove_step(obligation_run& run, call_kind kind)
{
	stopwatch clock;
	strategy& s = run.s;
	const geometry geo = geometry::of(run.g);
	const std::size_t c = geo.cont_ptes;
	proof_result& r = run.results.front();
	// (whole) is asked on its own: its failure is no property's, only the
	// news that this invariant does not describe the strategy's tables.
	proof_result whole;
	z3::context& ctx = shared_context();
	const std::vector<call> calls = step_calls(kind, c, run.o);
	prove_options o = run.o;
	o.run_seconds = std::max(o.run_seconds, o.step_case_seconds * static_cast<double>(calls.size()));
	// One pass over the calls, asking `goals`; (reportable) of the folio
	// only when `of_folio`.
	auto pass = [&](std::vector<case_batch::goal> goals, bool of_folio) {
		case_batch batch(ctx, s, o, std::move(goals), 0);
		for (const call& cl : calls) {
			sym_world w = invariant_table(ctx, run.g, 2, folio_layout(c));
			// A call that passes a value passes a free word, under the
			// caller's rule for it: every value core-mm may pass at once.
			if (passes_value(kind))
				w.arguments.push_back(ctx.bv_const("value", 64));
			w.assumptions.push_back(caller_rules(cl, w.initial, w.folios, geo, w.argument(0)));
			scenario sc;
			sc.calls = {cl};
			sc.observe = [&w, of_folio](const sym_step& st, std::vector<claim>& claims) {
				call_claims(st, w, read_off(st.before, w.geo), true, claims, of_folio);
			};
			if (!batch.add(w, sc))
				break;
		}
		batch.check();
	};
	pass({{{}, &r}, {{}, &whole, true}}, false);
	// A page left showing a flag it may not report: the same calls again,
	// asking whether a read of it right after is imprecise -- a refutation
	// the checker can confirm, where the invariant's part alone leaves the
	// obligation unknown.
	const bool stale = whole.verdict == proof_verdict::refuted && whole.ce && whole.ce->prop == property::precise;
	if (stale && r.verdict == proof_verdict::proved) {
		proof_result folio;
		pass({{{property::precise}, &folio}}, true);
		r.paths += folio.paths;
		if (folio.verdict == proof_verdict::refuted) {
			r.verdict = proof_verdict::refuted;
			r.ce = std::move(folio.ce);
		}
	}
	r.detail += fmt::format("{} calls ({}) from two runs satisfying the invariant, any number of hw events per gap",
			       calls.size(),
			       takes_nr(kind)	? ranges_note(c, run.o)
			       : run.o.quick	? "quick: entries 0, c-1, c"
						: "each run edge, its neighbours and a middle");
	if (whole.verdict == proof_verdict::refuted && r.verdict == proof_verdict::proved) {
		r.verdict = proof_verdict::unknown;
		const std::string call =
			whole.ce && !whole.ce->calls.empty() ? describe(whole.ce->calls.back()) : std::string(to_string(kind));
		if (whole.ce && whole.ce->prop == property::precise)
			r.detail += fmt::format("; not inductive: {} leaves a run folded over two folios, or a page "
						"showing a flag that only another page of its folio may report (the next "
						"call's ledger, read off the table page by page, would let the page report "
						"it)",
						call);
		else
			r.detail += fmt::format("; not inductive: {} leaves a table outside the invariant -- a folded run "
						"with a cleared entry (mid-teardown), an entry writable without DBM or "
						"PROT_NONE entries with CONT off one aligned block of one folio; "
						"obligations from such tables are not built yet",
						call);
	}
	r.seconds = clock.seconds();
}

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

// A read's split falls among its first two passes over the run.
std::size_t lockless_split_within(const geometry& geo) { return 2 * (geo.cont_ptes + 1); }

// The race of ptep_get_lockless(i) beside wc from w (whose `race` is set),
// its lockless claim asked at the read's end; false as case_batch::add.
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

} // namespace

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
void prove_lockless(obligation_run& run, call_kind writer)
{
	stopwatch clock;
	strategy& s = run.s;
	const geometry geo = geometry::of(run.g);
	const std::size_t c = geo.cont_ptes;
	proof_result& r = run.results.front();
	z3::context& ctx = shared_context();
	// With a range set: the writer on its first entry, the read of entry 0.
	const auto places = run.o.range_nr > 0 ? std::vector<std::pair<std::size_t, std::size_t>>{{0, run.o.range_first}}
						     : lockless_places(c, run.o.quick);
	prove_options o = run.o;
	// A case costs some 20 s of paths at 4K (mainline's: 37 paths).
	o.run_seconds = std::max(o.run_seconds, 45.0 * static_cast<double>(places.size()));
	// The reads' terms choose among the writer's tables by the read points:
	// the incremental solver sits on such questions for seconds where
	// bit-blasting answers in a fraction of one (one case of mainline's:
	// 55 s with 2 s first asked of the incremental solver, 18 s with 20 ms).
	o.quick_solve_ms = std::min(o.quick_solve_ms, 20u);
	// A reader that branches on each entry it reads (skipping cleared
	// ones) has paths whose every decision asks the solver a hard question
	// about the writer's tables: the full search of one read did not end
	// in 180 s.  One path's counterexample, though, is one question.
	if (!o.probes)
		o.probes = 16;
	auto add_case = [&](case_batch& batch, std::size_t i, std::size_t j) {
		sym_world w = invariant_table(ctx, run.g, 2, folio_layout(c));
		const call wc{writer, j, 1, false, 0, 0};
		if (passes_value(writer))
			w.arguments.push_back(ctx.bv_const("value", 64));
		w.assumptions.push_back(caller_rules(wc, w.initial, w.folios, geo, w.argument(0)));
		w.race = std::make_shared<concurrent_read>(ctx, lockless_split_within(geo));
		w.stores_judged = false;	// the writer's own claims are step/'s
		const bool more = add_race(batch, w, wc, i);
		return std::make_pair(more, w.race->spun);
	};
	// Every case's probes first: a case whose full search spends the
	// budget would leave the later cases' probes unsent.
	std::size_t probed = 0;
	double probe_time = 0;
	if (*o.probes > 0) {
		proof_result pr = r;
		prove_options po = o;
		po.probe_only = true;
		case_batch probing(ctx, s, po, pr, 0);
		for (const auto& [i, j] : places)
			if (!add_case(probing, i, j).first)
				break;
		probing.check();
		probed = probing.probes_asked();
		probe_time = probing.probe_seconds();
		r.time_stops = pr.time_stops;
		if (pr.verdict == proof_verdict::refuted) {
			r = std::move(pr);
			r.detail += fmt::format("{} probe path{} asked ({:.0f} s); {} reads beside {}: refuted before any "
						"full search",
						probed, probed == 1 ? "" : "s", probe_time, places.size(), to_string(writer));
			r.seconds = clock.seconds();
			return;
		}
	}
	o.probes = 0;
	case_batch batch(ctx, s, o, r, 0);
	std::size_t spun = 0;
	for (const auto& [i, j] : places) {
		const auto [more, spins] = add_case(batch, i, j);
		spun += spins;
		if (!more)
			break;
	}
	batch.check();
	if (probed > 0)
		r.detail += fmt::format("{} probe path{} asked first ({:.0f} s), none refuting; ", probed,
					probed == 1 ? "" : "s", probe_time);
	if (spun > 0)
		r.detail += fmt::format("{} read path{} that spun on a table the writer left half done, which only a third "
					"moment of the writer would end, left out; ",
					spun, spun == 1 ? "" : "s");
	r.detail += fmt::format("{} reads beside {} ({}) from two runs satisfying the invariant, each read torn across "
				"at most one stretch of the writer, any number of hw events in the writer's gaps",
				places.size(), to_string(writer),
				run.o.range_nr > 0 ? fmt::format("entry 0 read, the writer at {}", run.o.range_first)
				: run.o.quick	   ? std::string("quick: entry 0 read, the writer at 0 and c-1")
						   : std::string("entry 0 read, the writer at 0, 1, a middle and c-1"));
	r.seconds = clock.seconds();
}

namespace {

// The calls a seq/ sequence is made of, in a table of two runs of c: each
// kind once, on the first run -- a batch over the whole run, a one-entry
// call on its second entry (so the calls of a sequence meet: a clear of
// an entry the mapping folded, a fault on it, a fold after it) -- plus
// set_ptes of that one entry (a page, or a swap entry or marker:
// clear_non_present_ptes needs one), clear_non_present_ptes of it, and
// both faults of ptep_set_access_flags.  Mapping calls first: from the
// empty table nothing else has anything to do.
std::vector<call> seq_menu(std::size_t c)
{
	using enum call_kind;
	std::vector<call> out;
	for (call_kind k : {set_ptes, modify_prot_commit_ptes, ptep_get, ptep_get_lockless, ptep_get_and_clear,
			    ptep_get_and_clear_full, get_and_clear_full_ptes, clear_full_ptes, ptep_test_and_clear_young,
			    ptep_clear_flush_young, test_and_clear_young_ptes, clear_flush_young_ptes,
			    clear_young_dirty_ptes, wrprotect_ptes, modify_prot_start_ptes, contpte_try_fold,
			    contpte_try_unfold, clear_non_present_ptes, ptep_set_access_flags}) {
		std::vector<std::pair<std::size_t, std::size_t>> places;	// (first entry, nr)
		if (k == set_ptes)
			places = {{0, c}, {1, 1}};
		else if (takes_nr(k) && k != clear_non_present_ptes)
			places = {{0, c}};
		else
			places = {{1, 1}};
		// Each flag set; a teardown clear with full = 1.
		for (unsigned flags : flag_sets(k))
			for (const auto& [i, nr] : places)
				out.push_back(call{k, i, nr, takes_full(k), 0, flags});
	}
	return out;
}

// Every sequence of k calls of `menu`, in order (the first call varying
// slowest).
std::vector<std::vector<call>> sequences_of(const std::vector<call>& menu, std::size_t k)
{
	std::vector<std::vector<call>> out{{}};
	for (std::size_t n = 0; n < k; n++) {
		std::vector<std::vector<call>> longer;
		for (const std::vector<call>& seq : out)
			for (const call& c : menu) {
				longer.push_back(seq);
				longer.back().push_back(c);
			}
		out = std::move(longer);
	}
	return out;
}

} // namespace

// seq/<start>-k<K>/<property>-cont<N>: every sequence of K calls of seq_menu's (each
// call kind the strategy implements, on the first of two runs), from the
// empty table (`from_empty`) or from every table of two runs satisfying
// the invariant of reachable tables, each call under the caller's rules
// for it over the table the calls before it left (a sequence that no path
// can continue under them ends there, unreachable) -- a value a call
// passes a free word under its rule -- with any number of hardware events
// in every gap: each call satisfies what a step/ call does (prove_step's
// comment: isolation, permission, progress, no-loss, per-call, precise,
// batch-or, every run well formed, every pending flag visible), but with
// the checker's pending flags followed call by call through the ledger
// (settle_call) instead of read off the table by the invariant.  From the
// empty table nothing is assumed at all, so this cross-checks the
// invariant and the one-call obligations: a sequence the step/ obligations
// cover cannot fail here unless one of them is wrong.
void prove_seq(obligation_run& run, std::size_t k, bool from_empty)
{
	stopwatch clock;
	strategy& s = run.s;
	const geometry geo = geometry::of(run.g);
	const std::size_t c = geo.cont_ptes;
	// A goal per family of the run, each the one property its scope names.
	std::vector<case_batch::goal> goals;
	for (std::size_t n = 0; n < run.families.size(); n++)
		goals.push_back({{run.families[n]->scope.properties.front()}, &run.results[n]});
	z3::context& ctx = shared_context();
	std::vector<call> menu;
	const auto& only = run.o.seq_kinds;
	for (const call& cl : seq_menu(c))
		if (s.implements(cl.kind) && (only.empty() || std::find(only.begin(), only.end(), cl.kind) != only.end()))
			menu.push_back(cl);
	const std::vector<std::vector<call>> seqs = sequences_of(menu, k);
	prove_options o = run.o;
	o.run_seconds = std::max(o.run_seconds, o.step_case_seconds * static_cast<double>(seqs.size()));
	case_batch batch(ctx, s, o, goals, 0);
	std::size_t ran = 0;
	for (const std::vector<call>& seq : seqs) {
		sym_world w;
		if (from_empty) {
			w.geo = geo;
			w.folios = folio_layout(c);
			w.initial.assign(2 * c, ctx.bv_val(0, 64));
		} else {
			w = invariant_table(ctx, run.g, 2, folio_layout(c));
		}
		for (std::size_t n = 0; n < seq.size(); n++)
			w.arguments.push_back(passes_value(seq[n].kind)
						      ? std::optional<z3::expr>(ctx.bv_const(fmt::format("value.{}", n).c_str(), 64))
						      : std::nullopt);
		// The ledger: nothing in the empty table; under the invariant,
		// what the table shows, all of it pending.
		ledger_state ledger = read_off(w.initial, geo);
		scenario sc;
		sc.calls = seq;
		sc.requires_ = [&](std::size_t n, const std::vector<z3::expr>& table) -> std::optional<z3::expr> {
			return caller_rules(seq[n], table, w.folios, geo, w.argument(n));
		};
		sc.observe = [&](const sym_step& st, std::vector<claim>& claims) {
			ledger = call_claims(st, w, ledger, false, claims);
		};
		ran++;
		if (!batch.add(w, sc))
			break;
	}
	batch.check();
	const double seconds = clock.seconds();
	for (proof_result& r : run.results) {
		r.detail += fmt::format(
			"{} of {} sequences of {} calls (a menu of {}, on the first of two runs) from {}, {} of them ended "
			"unreachable (a call's caller rule admits no table the calls before it leave); any number of hw "
			"events per gap",
			ran, seqs.size(), k, menu.size(),
			from_empty ? "the empty table" : "every table of two runs satisfying the invariant",
			batch.unreachable());
		if (run.results.size() > 1)
			r.detail += fmt::format("; paths run once for the {} properties, time shared", run.results.size());
		r.seconds = seconds;
	}
}

namespace {

// A sampled lockless failure against lockless/'s claim: the failing read
// and the locked call beside it, told as a race (race_of: the events in the
// writer's slots, the reads at two points of the writer's run, confirmed
// by the replay), are run on the symbolic machine from the very table the
// two began from, with the writer's value, any hardware events in its gaps
// and the read points free, and the claim is asked.
agreement judge_lockless(strategy& s, const history& h, const prove_options& o)
{
	using enum agreement::verdict;
	const std::variant<sampled_race, std::string> told = race_of(s, h, lockless_split_within(h.geo));
	if (const std::string* why = std::get_if<std::string>(&told))
		return {outside, *why};
	const counterexample& ce = std::get<sampled_race>(told).ce;
	const call& writer = ce.calls.at(0);
	const call& reader = ce.calls.at(1);
	z3::context& ctx = shared_context();
	if (const std::string why = invariant_broken(ctx, ce.initial, h.geo, h.folios); !why.empty())
		return {outside, fmt::format("before {} and {} beside it, {}: outside the invariant of reachable tables",
					     describe(reader), describe(writer), why)};
	sym_world w;
	w.geo = h.geo;
	w.folios = h.folios;
	w.initial = numerals(ctx, ce.initial);
	if (passes_value(writer.kind))
		w.arguments.push_back(ctx.bv_val(writer.pte, 64));
	w.race = std::make_shared<concurrent_read>(ctx, lockless_split_within(h.geo));
	w.stores_judged = false;
	prove_options po = o;
	po.quick_solve_ms = std::min(po.quick_solve_ms, 20u);
	if (!po.probes)
		po.probes = 16;
	proof_result r;
	case_batch batch(ctx, s, po, r, 0);
	add_race(batch, w, writer, reader.index);
	const proof_verdict v = batch.check();
	const concurrent_read::points& at = *ce.race;
	if (v == proof_verdict::proved)
		return {disagrees,
			fmt::format("the checker finds {} breaking lockless beside {} (replayed with the reads at writer "
				    "points {}/{}, split {}, ending at {}: confirmed), but lockless/'s claim for that read "
				    "and writer, from the same table with any hardware events and any read points, is "
				    "proved ({} paths)",
				    describe(reader), describe(writer), at.early, at.late, at.split, at.end, r.paths)};
	if (v == proof_verdict::unknown)
		return {undecided, r.detail};
	return {agrees, fmt::format("lockless/'s claim for {} beside {} is refuted too (the sample's reads fit writer "
				    "points {}/{}, split {}, ending at {}; replay confirmed)",
				    describe(reader), describe(writer), at.early, at.late, at.split, at.end)};
}

} // namespace

agreement judge_agreement(strategy& s, const history& h, property p, const prove_options& o)
{
	using enum agreement::verdict;
	if (p != property::per_call && p != property::no_loss && p != property::batch_or && p != property::progress &&
	    p != property::well_formed && p != property::precise && p != property::lockless)
		return {outside, fmt::format("{} is judged during a call or on later calls, not by one call's claims",
					     to_string(p))};
	if (h.hw.no_hafdbs)
		return {outside, "the proofs model hardware that manages access/dirty itself"};
	if (h.hw != o.hw)
		return {outside, "the proofs ran on other hardware than the sampled case"};
	if (p == property::lockless)
		return judge_lockless(s, h, o);
	// Replay into the checker, keeping each open call's table and the
	// pending flags at its begin, and the first call whose end shows p
	// violated.
	struct failing_call_finder : observer {
		struct open_call {
			call c;
			table_t before;
			std::vector<unsigned> pending, reportable;
			// An entry the TLB may hold other than as the table maps it
			// at the call's begin (the proofs begin each call with the
			// TLB holding what the table maps): none -1.
			long stale = -1;
			std::uint64_t stale_value = 0;
		};
		checker chk;
		property p;
		std::vector<open_call> open;
		std::optional<open_call> failing;
		// precise: the first call before the failing one whose end left a
		// page showing a flag the page may not report, and what.
		std::optional<open_call> stale_from;
		std::string stale_what;
		std::string why_not;	// a failure no call's end explains
		geometry chk_geo;
		failing_call_finder(const history& h, property judged)
			: chk(h.geo, h.folios, h.initial, h.hw), p(judged), chk_geo(h.geo)
		{
		}
		bool settled() const { return failing || !why_not.empty(); }
		// well-formed is judged at each store, so its failure belongs to
		// the call the store is in (the innermost open one); the others'
		// are judged at a call's end.
		void note_between()
		{
			if (settled() || !chk.failed(p))
				return;
			if (p == property::well_formed && !open.empty())
				failing = open.back();
			else
				why_not = fmt::format("{} failed between call ends", to_string(p));
		}
		void on_call_begin(const call& c, const table_t& t) override
		{
			// A call's begin changes no entry: t is the table it begins from.
			std::vector<unsigned> pending, reportable;
			long stale = -1;
			for (std::size_t q = 0; q < t.size(); q++) {
				pending.push_back(chk.pending(q));
				reportable.push_back(chk.reportable(q));
				if (stale < 0 && chk.tlb().cached(q) != (pte_valid(t[q]) ? t[q] : 0))
					stale = static_cast<long>(q);
			}
			const std::uint64_t held = stale < 0 ? 0 : chk.tlb().cached(static_cast<std::size_t>(stale));
			open.push_back({c, t, std::move(pending), std::move(reportable), stale, held});
			chk.on_call_begin(c, t);
		}
		void on_primitive(const primitive_step& pr, const table_t& t) override
		{
			chk.on_primitive(pr, t);
			note_between();
		}
		void on_hw_event(const hw_event& e, const table_t& t) override
		{
			chk.on_hw_event(e, t);
			note_between();
		}
		void on_fault(const fault_step& f, const table_t& t) override
		{
			chk.on_fault(f, t);
			note_between();
		}
		void on_call_end(const call& c, const call_result& r, const table_t& t) override
		{
			chk.on_call_end(c, r, t);
			auto it = std::find_if(open.rbegin(), open.rend(), [&](const open_call& oc) {
				return oc.c.kind == c.kind && oc.c.index == c.index && oc.c.nr == c.nr;
			});
			if (it == open.rend()) {
				if (!settled())
					why_not = "the history ends a call it never began";
				return;
			}
			open_call ended = std::move(*it);
			open.erase(std::next(it).base());
			const bool fails_here = !settled() && chk.failed(p);
			if (p == property::precise && !settled() && !fails_here && !stale_from)
				for (std::size_t q = 0; q < t.size() && !stale_from; q++) {
					const unsigned shown = ref_flags(t, chk_geo, q);	// 0 where not present
					if (const unsigned stale = shown & ~chk.reportable(q)) {
						stale_what = fmt::format("#{} showing {} it may not report", q, flag_name(stale));
						stale_from = ended;
					}
				}
			if (fails_here)
				failing = std::move(ended);
		}
	};
	failing_call_finder found(h, p);
	replay(h, found);
	if (!found.why_not.empty())
		return {outside, found.why_not};
	if (!found.failing)
		return {outside, fmt::format("replayed, the history shows no violation of {} at a call's end", to_string(p))};
	// A precise failure whose read began from a table where some page
	// showed a flag it may not report was caused by the call that left it
	// so: that call is the one judged, by (reportable) at its end.
	const bool by_stale = p == property::precise && found.stale_from.has_value();
	const std::optional<failing_call_finder::open_call>& failing = by_stale ? found.stale_from : found.failing;
	const checker& chk = found.chk;
	const geometry& geo = h.geo;
	const call& c = failing->c;
	z3::context& ctx = shared_context();
	if (const std::string why = invariant_broken(ctx, failing->before, geo, h.folios); !why.empty())
		return {outside, fmt::format("before {}, {}: outside the invariant of reachable tables", describe(c), why)};
	if (p == property::well_formed && failing->stale >= 0)
		return {outside, fmt::format("before {}, the TLB may still hold #{} as {:#018x}, which the table no longer "
					     "maps: the proofs begin a call with the TLB holding what its table maps",
					     describe(c), failing->stale, failing->stale_value)};
	for (std::size_t q = 0; q < failing->before.size(); q++) {
		if (!pte_present(failing->before[q]))
			continue;
		const unsigned shown = ref_flags(failing->before, geo, q);
		if (const unsigned unseen = failing->pending[q] & ~shown)
			return {outside, fmt::format("before {}, #{} owed {} that no read of it shows", describe(c), q,
						     flag_name(unseen))};
		if (const unsigned stale = shown & ~failing->reportable[q]; stale && p == property::precise)
			return {outside, fmt::format("before {}, #{} showed {} that it may not report", describe(c), q,
						     flag_name(stale))};
	}
	sym_world w;
	w.geo = geo;
	w.folios = h.folios;
	w.initial = numerals(ctx, failing->before);
	if (passes_value(c.kind))
		w.arguments.push_back(ctx.bv_val(c.pte, 64));
	proof_result r;
	scenario sc;
	sc.calls = {c};
	sc.observe = [&w, by_stale](const sym_step& st, std::vector<claim>& claims) {
		call_claims(st, w, read_off(st.before, w.geo), by_stale, claims);
	};
	// The call that left a stale flag: (reportable) of its folio, as
	// precise, and of the page itself, the invariant's part.
	proof_result own;
	std::vector<case_batch::goal> goals = {{{p}, &r}};
	if (by_stale)
		goals.push_back({{p}, &own, true});
	case_batch batch(ctx, s, o, goals, 0);
	batch.add(w, sc);
	proof_verdict v = batch.check();
	if (by_stale && v != proof_verdict::refuted && own.verdict != proof_verdict::proved)
		v = own.verdict;
	const violation* seen = chk.first(p);
	const std::string left = by_stale ? fmt::format(", which left {}", found.stale_what) : "";
	if (v == proof_verdict::proved)
		return {disagrees,
			fmt::format("the checker finds {} violated at {} ({}), but its one-call claims at {}{}, from the "
				    "same table with any hardware events, are proved ({})",
				    to_string(p), describe(found.failing->c), seen ? seen->message : "", describe(c), left,
				    r.detail)};
	if (v == proof_verdict::unknown)
		return {undecided, r.detail};
	return {agrees,
		fmt::format("the one-call claims of {} are refuted at {}{} too", to_string(p), describe(c), left)};
}

void replay_result(strategy& s, proof_result& r)
{
	if (r.verdict != proof_verdict::refuted || !r.ce)
		return;
	const replay_outcome first = replay_counterexample(s, *r.ce);
	if (!first.confirmed) {
		r.replay = "MISMATCH: " + first.why;
		r.ce_text = first.text;
		return;
	}
	// Shown shrunk; the shrunk one is replayed again, so what is printed is
	// what was confirmed.
	r.ce = shrink_counterexample(s, *r.ce);
	const replay_outcome out = replay_counterexample(s, *r.ce);
	r.replay = out.confirmed ? "confirmed" : "MISMATCH: " + out.why;
	r.ce_text = out.text;
}

std::vector<proof_result> run_obligation(strategy& s, const obligation& ob)
{
	// Timed here, so the seconds cover the whole obligation (each result of
	// a shared run reports the run's).
	stopwatch clock;
	std::vector<proof_result> rs = ob.prove();
	const double seconds = clock.seconds();
	for (proof_result& r : rs) {
		r.seconds = seconds;
		replay_result(s, r);
	}
	return rs;
}

std::vector<proof_result> prove_strategy(strategy& s, granule g, const prove_options& o,
					 const std::function<void(const proof_result&)>& done)
{
	std::vector<proof_result> out;
	for (const obligation& ob : obligations_of(s, g, o))
		for (proof_result& r : run_obligation(s, ob)) {
			out.push_back(std::move(r));
			if (done)
				done(out.back());
		}
	return out;
}

} // namespace ptespec::proofs
