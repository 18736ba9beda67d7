#include "proofs/obligations.h"

#include <fmt/format.h>

#include "model/pte.h"
#include "proofs/ledger.h"
#include "proofs/replay.h"
#include "proofs/world.h"

namespace ptespec::proofs {

namespace {

std::string cont_name(const geometry& g) { return fmt::format("cont{}", g.cont_ptes); }

// Concrete positions inside a run of c entries the obligations try: all of
// them for small runs, the edges and the middle for large ones (a strategy
// decides by alignment, so these are the distinct cases of the code under
// test; stated in each result's detail).
std::vector<std::size_t> offsets(std::size_t c, bool every, bool quick = false)
{
	if (quick)
		return {0, 1, c - 1};
	if (every)
	{
		std::vector<std::size_t> all;
		for (std::size_t k = 0; k < c; k++)
			all.push_back(k);
		return all;
	}
	return {0, 1, 2, c / 2, c - 2, c - 1};
}

// Merges one case's verdict into the obligation's.
void merge(proof_result& r, proof_verdict v)
{
	if (v == proof_verdict::refuted || r.verdict == proof_verdict::refuted)
		r.verdict = proof_verdict::refuted;
	else if (v == proof_verdict::unknown)
		r.verdict = proof_verdict::unknown;
}

z3::expr eq(const sym_flags& a, const sym_flags& b) { return a.y == b.y && a.d == b.d; }

// One call on the symbolic machine, bracketed like run_call.
sym_call_result run_sym(strategy& s, symbolic_machine& m, const call& c)
{
	m.begin_call();
	sym_call_result r = s.invoke(m, c);
	m.end_call();
	return r;
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
proof_result prove_batch_or(strategy& s, granule g, bool full, const prove_options& o)
{
	stopwatch clock;
	const geometry geo = geometry::of(g);
	const std::size_t c = geo.cont_ptes;
	proof_result r;
	r.obligation = fmt::format("{}/{}", full ? "batch-or" : "batch-or-full0", cont_name(geo));
	r.strategy = s.info().name;
	r.gran = g;
	const std::vector<std::size_t> off = offsets(c, false, o.quick);
	std::vector<std::size_t> points;	// positions in the two-run table
	for (std::size_t k : off) {
		points.push_back(k);
		points.push_back(c + k);
	}
	points.push_back(2 * c);
	std::size_t cases = 0;
	for (std::size_t i : points) {
		for (std::size_t e : points) {
			if (e <= i || i >= 2 * c)
				continue;
			cases++;
			z3::context ctx;
			const sym_world w = folded_runs(ctx, g, 2);
			const call cl{call_kind::get_and_clear_full_ptes, i, e - i, full, 0, 0};
			auto scenario = [&](symbolic_machine& m) {
				const std::vector<z3::expr> q = m.table();
				const sym_call_result res = run_sym(s, m, cl);
				const auto& t = m.table();
				const auto& taken = m.taken();
				path_result pr;
				pr.calls = {cl};
				z3::expr took = ctx.bool_val(true);
				sym_flags acc = no_flags(ctx);
				z3::expr same = ctx.bool_val(true);
				for (std::size_t p = 0; p < t.size(); p++) {
					const z3::expr was = pte_valid(q[p]);
					if (p >= i && p < e) {
						took = took && z3::implies(was, !pte_valid(t[p]) && pte_valid(taken[p]));
						const sym_flags f = own_flags(taken[p]);
						acc = acc | sym_flags{was && f.y, was && f.d};
						continue;
					}
					same = same && z3::ite(was, pte_valid(t[p]) && pte_same_mapping(q[p], t[p]), q[p] == t[p]);
				}
				pr.claims.push_back({property::batch_or, took && eq(reported_flags(res, q[i]), acc), {}});
				pr.claims.push_back({property::isolation, same, {}});
				return pr;
			};
			merge(r, prove_paths(ctx, w, scenario, o, r));
			if (r.verdict == proof_verdict::refuted)
				break;
		}
		if (r.verdict == proof_verdict::refuted)
			break;
	}
	r.detail += fmt::format("{} (i, nr) cases over 2 runs{}, full={}, any number of hw events per gap", cases,
			       " (run offsets 0,1,2,c/2,c-2,c-1 and the ends)", full ? 1 : 0);
	r.seconds = clock.seconds();
	return r;
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
proof_result prove_one_call(strategy& s, granule g, property p, const prove_options& o)
{
	stopwatch clock;
	const geometry geo = geometry::of(g);
	const std::size_t c = geo.cont_ptes;
	proof_result r;
	r.obligation = fmt::format("{}/one-call", to_string(p));
	r.strategy = s.info().name;
	r.gran = g;
	std::size_t cases = 0;
	const std::vector<std::size_t> mids = offsets(c, false, o.quick);
	for (call_kind k : {call_kind::ptep_get, call_kind::ptep_get_and_clear_full, call_kind::get_and_clear_full_ptes}) {
		if (!s.implements(k))
			continue;
		for (std::size_t mid : mids) {
			cases++;
			z3::context ctx;
			const sym_world w = folded_runs(ctx, g, 1, mid);
			const call cl{k, mid, k == call_kind::get_and_clear_full_ptes ? c - mid : 1, true, 0, 0};
			auto scenario = [&](symbolic_machine& m) {
				const std::vector<z3::expr> q = m.table();
				std::vector<sym_flags> pending;
				for (std::size_t page = 0; page < c; page++)
					pending.push_back(ref_flags(q, geo, page));
				const sym_call_result res = run_sym(s, m, cl);
				const auto& t = m.table();
				const call_ledger led = settle_call(cl, geo, q, t, pending, reported_flags(res, q[mid]),
								    m.events());
				path_result pr;
				pr.calls = {cl};
				if (p == property::no_loss) {
					pr.claims.push_back({property::no_loss, led.no_loss, {}});
					return pr;
				}
				pr.claims.push_back({property::per_call, led.per_call, {}});
				for (std::size_t page = 0; page < c; page++) {
					const z3::expr inv = z3::implies(pte_valid(t[page]),
									 subset(led.pending_after[page], ref_flags(t, geo, page)));
					pr.claims.push_back({property::per_call, inv, {call{call_kind::ptep_get, page}}});
				}
				return pr;
			};
			merge(r, prove_paths(ctx, w, scenario, o, r));
			if (r.verdict == proof_verdict::refuted)
				break;
		}
		if (r.verdict == proof_verdict::refuted)
			break;
	}
	r.detail += fmt::format("{} cases: 3 calls x teardown position m{}, any number of hw events per gap", cases,
			       " in {0,1,2,c/2,c-2,c-1}");
	r.seconds = clock.seconds();
	return r;
}

// exit/run-cont<N> (exit/batch-cont<N>): a whole folded run of one folio,
// any flags, torn down as exit() does -- per entry k, low to high,
// ptep_get(k) then ptep_get_and_clear_full(k, 1) (batched: ptep_get(0) then
// get_and_clear_full_ptes(0, CONT_PTES, 1)) -- with any hardware events in
// every gap (so at least two per gap):
//   no-loss:  OR of the clears' reports >= OR(initial flags, every event)
//   per-call: every call reports every flag pending for its page when it
//             began (the checker's ledger, ledger.h)
proof_result prove_exit(strategy& s, granule g, bool batched, const prove_options& o)
{
	stopwatch clock;
	const geometry geo = geometry::of(g);
	const std::size_t c = geo.cont_ptes;
	proof_result r;
	r.obligation = fmt::format("exit/{}-{}", batched ? "batch" : "run", cont_name(geo));
	r.strategy = s.info().name;
	r.gran = g;
	std::vector<call> calls;
	if (batched) {
		calls.push_back({call_kind::ptep_get, 0});
		calls.push_back({call_kind::get_and_clear_full_ptes, 0, c, true, 0, 0});
	} else {
		for (std::size_t k = 0; k < c; k++) {
			calls.push_back({call_kind::ptep_get, k});
			calls.push_back({call_kind::ptep_get_and_clear_full, k, 1, true, 0, 0});
		}
	}
	z3::context ctx;
	const sym_world w = folded_runs(ctx, g, 1);
	auto scenario = [&](symbolic_machine& m) {
		path_result pr;
		pr.calls = calls;
		std::vector<sym_flags> pending;
		sym_flags present = no_flags(ctx);
		for (std::size_t page = 0; page < c; page++) {
			pending.push_back(ref_flags(m.table(), geo, page));
			present = present | own_flags(m.table()[page]);
		}
		sym_flags covered = no_flags(ctx);
		std::size_t seen = 0;
		for (const call& cl : calls) {
			const std::vector<z3::expr> q = m.table();
			const sym_call_result res = run_sym(s, m, cl);
			const sym_flags rf = reported_flags(res, q[cl.index]);
			const std::vector<sym_event> evs(m.events().begin() + static_cast<std::ptrdiff_t>(seen),
							 m.events().end());
			seen = m.events().size();
			const call_ledger led = settle_call(cl, geo, q, m.table(), pending, rf, evs);
			pr.claims.push_back({property::per_call, led.per_call, {}});
			pending = led.pending_after;
			if (semantics_of(cl).hands_off)
				covered = covered | rf;
		}
		for (const sym_event& e : m.events())
			present = present | sym_flags{e.fired, e.fired && e.write};
		// no-loss first: it names the graver failure when both fail.
		pr.claims.insert(pr.claims.begin(), claim{property::no_loss, subset(present, covered), {}});
		return pr;
	};
	merge(r, prove_paths(ctx, w, scenario, o, r));
	r.detail += fmt::format("{} calls over one folded run, any number of hw events per gap", calls.size());
	r.seconds = clock.seconds();
	return r;
}

void replay_result(strategy& s, proof_result& r)
{
	if (r.verdict != proof_verdict::refuted || !r.ce)
		return;
	const replay_outcome out = replay_counterexample(s, *r.ce);
	r.replay = out.confirmed ? "confirmed" : "MISMATCH: " + out.why;
	r.ce_text = out.text;
}

std::vector<proof_result> prove_strategy(strategy& s, granule g, const prove_options& o,
					 const std::function<void(const proof_result&)>& done)
{
	std::vector<proof_result> out;
	auto add = [&](proof_result r) {
		replay_result(s, r);
		if (done)
			done(r);
		out.push_back(std::move(r));
	};
	if (s.implements(call_kind::get_and_clear_full_ptes)) {
		add(prove_batch_or(s, g, true, o));
		add(prove_batch_or(s, g, false, o));
	}
	if (s.implements(call_kind::ptep_get) && s.implements(call_kind::ptep_get_and_clear_full)) {
		add(prove_one_call(s, g, property::per_call, o));
		add(prove_one_call(s, g, property::no_loss, o));
		add(prove_exit(s, g, false, o));
		if (s.implements(call_kind::get_and_clear_full_ptes))
			add(prove_exit(s, g, true, o));
	}
	return out;
}

} // namespace ptespec::proofs
