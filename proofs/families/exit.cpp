// exit/run-cont<N> (exit/batch-cont<N>): a whole folded run of one folio,
// any flags, torn down as exit() does -- per entry k, low to high,
// ptep_get(k) then ptep_get_and_clear_full(k, 1) (batched: ptep_get(0) then
// get_and_clear_full_ptes(0, CONT_PTES, 1)) -- with any hardware events in
// every gap (so at least two per gap):
//   no-loss:  OR of the clears' reports >= OR(initial flags, every event)
//   per-call: every call reports every flag pending for its page when it
//             began (the checker's ledger, ledger.h)

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "mm/callers.h"
#include "model/pte.h"
#include "proofs/families/families.h"
#include "proofs/ledger.h"
#include "proofs/world.h"

namespace ptespec::proofs {

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
obligation_family exit_family(bool batched)
{
	using enum call_kind;
	return {.prefix = batched ? "exit/batch-" : "exit/run-",
		.needs = batched ? std::vector<call_kind>{ptep_get, ptep_get_and_clear_full, get_and_clear_full_ptes}
				 : std::vector<call_kind>{ptep_get, ptep_get_and_clear_full},
		.prove = [batched](obligation_run& run) { prove_exit(run, batched); },
		.scope = {{property::no_loss, property::per_call},
			  {ptep_get, batched ? get_and_clear_full_ptes : ptep_get_and_clear_full},
			  batched ? "the whole full teardown, in one batch, of one folded run of one folio"
				  : "the whole full teardown, entry by entry, of one folded run of one folio",
			  false}};
}

} // namespace ptespec::proofs
