// batch-or/cont<N>: for every table of two folded runs of one folio (any
// attributes, any young/dirty/rdonly per entry), every start i and length
// nr inside it, and every hardware interleaving (any number of events in
// every gap), get_and_clear_full_ptes(i, nr, full) = r satisfies
//   (1) for all p in [i, i+nr): the entry is invalid afterwards and the
//       call took a valid value v_p out of it, and
//       young(r) = OR_p young(v_p),  dirty(r) = OR_p dirty(v_p)   (batch-or)
//   (2) for all p outside [i, i+nr): the entry still maps what it mapped
//       (pte_same_mapping)                                         (isolation)

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

// The ranges: every start and every length up to o.every_range_upto
// entries per run; above that, the starts and ends that decide what a
// strategy does: each on, next to and inside a run edge, one entry or two,
// inside one run or across both (every (start, length) at CONT_PTES 128 -- 32,896 of them --
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

// The note on them, for a result's detail.
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

// The conjecture above, over batch_ranges' ranges, with full as given.
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
	case_batch batch(ctx, s, o, r, o.search.batch_entries);
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
			claims.push_back({property::batch_or, took && flags_equal(reported_flags(st.result, q[i]), acc), {}});
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

sym_world unjudged_stores(sym_world w)
{
	w.stores_judged = false;
	return w;
}

obligation_family batch_or_family(bool full)
{
	using enum call_kind;
	return {.prefix = full ? "batch-or/" : "batch-or-full0/",
		.needs = {get_and_clear_full_ptes},
		.prove = [full](obligation_run& run) { prove_batch_or(run, full); },
		.scope = {{property::batch_or, property::isolation},
			  {get_and_clear_full_ptes},
			  fmt::format("full={}, every table of two folded runs of one folio, every range in them",
				      full ? 1 : 0),
			  false}};
}

} // namespace ptespec::proofs
