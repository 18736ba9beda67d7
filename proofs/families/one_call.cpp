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

} // namespace

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

namespace {

obligation_family one_call_family(property p, const char* prefix)
{
	using enum call_kind;
	return {.prefix = prefix,
		.sized = false,
		.needs = {ptep_get, ptep_get_and_clear_full},
		.shares_run = "one-call",
		.prove = prove_one_call,
		.scope = {{p},
			  {ptep_get, ptep_get_and_clear_full, get_and_clear_full_ptes},
			  "one folded run of one folio in the middle of a full teardown",
			  false}};
}

} // namespace

std::vector<obligation_family> one_call_families()
{
	return {one_call_family(property::per_call, "per-call/one-call"),
		one_call_family(property::no_loss, "no-loss/one-call")};
}

} // namespace ptespec::proofs
