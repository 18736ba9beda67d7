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
//   mapping:    a hugetlb call that takes a hugepage out leaves every entry
//               of it none
// The hugetlb calls (step/huge_*) start from tables whose runs are
// hugepages as the hugetlb callers leave them (claims.h, caller_rules) --
// a pte table of CONT_PTE hugepages and a pmd table of CONT_PMD ones --
// call on either hugepage, and claim at the end that every hugepage is so
// again: the hugetlb part of the invariant, inductive over them as the
// rest is over the contpte calls.
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

} // namespace

bool takes_full(call_kind k)
{
	return k == call_kind::ptep_get_and_clear_full || k == call_kind::get_and_clear_full_ptes ||
	       k == call_kind::clear_full_ptes;
}

// clear_young_dirty_ptes is asked for both flags by MADV_FREE and for young
// alone by MADV_COLD (madvise_cold_or_pageout_pte_range); a fault's
// ptep_set_access_flags is a read fault (0) or a write fault (1).
std::vector<unsigned> flag_sets(call_kind k)
{
	if (k == call_kind::clear_young_dirty_ptes)
		return {CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY, CYDP_CLEAR_YOUNG};
	if (k == call_kind::ptep_set_access_flags || k == call_kind::huge_ptep_set_access_flags)
		return {0u, 1u};
	return {0u};
}

namespace {

// The calls of a step/ obligation for kind k: one per entry or range, and
// per full for the calls that take it.
std::vector<call> step_calls(call_kind k, std::size_t c, const prove_options& o)
{
	std::vector<call> out;
	// The entries or ranges: with o.range_nr set, that one (a one-entry
	// call takes its first entry).
	std::vector<std::pair<std::size_t, std::size_t>> spans;
	if (k == call_kind::flush_hugetlb_tlb_range) {
		// Either hugepage, or both; c.flags is the hugepages' size.
		for (const auto& [i, e] : {std::pair{std::size_t{0}, c}, std::pair{c, 2 * c}, std::pair{std::size_t{0}, 2 * c}})
			out.push_back(call{k, i, e - i, false, 0, static_cast<unsigned>(c)});
		return out;
	}
	if (is_hugetlb_call(k)) {
		// A hugetlb call takes a whole CONT_PTE hugepage, either of the
		// two (huge_ptep_get names its first entry).
		for (std::size_t first : {std::size_t{0}, c})
			spans.emplace_back(first, first + (takes_hugepage(k) ? c : 1));
	} else if (takes_nr(k))
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

} // namespace

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
	// The tables the calls run on: a pte table; for a hugetlb call the pmd
	// table of CONT_PMD hugepages too.
	std::vector<std::pair<geometry, call>> calls;
	std::vector<geometry> tables = {geo};
	if (is_hugetlb_call(kind))
		tables.push_back(geometry::pmd_of(run.g));
	for (const geometry& tg : tables)
		for (const call& cl : step_calls(kind, tg.cont_ptes, run.o))
			calls.emplace_back(tg, cl);
	prove_options o = run.o;
	o.search.run_seconds = std::max(o.search.run_seconds, o.search.step_case_seconds * static_cast<double>(calls.size()));
	// One pass over the calls, asking `goals`; (reportable) of the folio
	// only when `of_folio`.
	// A call of one entry asks each place on its own (an entry budget of 1):
	// its places share little, and seven in one question took five times as
	// long as seven questions (ptep_get_and_clear at 4K, 94 s against 18 s);
	// a range call's cases gain from sharing one (wrprotect_ptes 105 s -> 71 s).
	const std::size_t entries = takes_nr(kind) ? o.search.step_entries : 1;
	auto pass = [&](std::vector<case_batch::goal> goals, bool of_folio) {
		case_batch batch(ctx, s, o, std::move(goals), entries);
		batch.ask_cases_alone_when_undecided();
		for (const auto& [tg, cl] : calls) {
			sym_world w = invariant_table(ctx, tg, 2, folio_layout(tg.cont_ptes, tg.entry_pages()));
			// A call that passes a value passes a free word, under the
			// caller's rule for it: every value core-mm may pass at once.
			if (passes_value(kind))
				w.arguments.push_back(ctx.bv_const("value", 64));
			w.assumptions.push_back(caller_rules(cl, w.initial, w.folios, tg, w.argument(0)));
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
			       is_hugetlb_call(kind) ? "each of the two hugepages, in a pte table and in a pmd table"
			       : takes_nr(kind)	     ? ranges_note(c, run.o)
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

// The step/ families: one per call kind the invariant is proved inductive
// over, each proving its call's properties from every invariant table.
std::vector<obligation_family> step_families()
{
	std::vector<obligation_family> table;
	using enum call_kind;
	for (call_kind k : {ptep_get, ptep_get_lockless, ptep_get_and_clear, ptep_get_and_clear_full,
			    get_and_clear_full_ptes, clear_full_ptes, clear_non_present_ptes, contpte_try_fold,
			    contpte_try_unfold, wrprotect_ptes, modify_prot_start_ptes, ptep_test_and_clear_young,
			    ptep_clear_flush_young, test_and_clear_young_ptes, clear_flush_young_ptes,
			    clear_young_dirty_ptes, set_ptes, ptep_set_access_flags, modify_prot_commit_ptes, huge_ptep_get,
			    huge_ptep_get_and_clear, huge_ptep_clear_flush, set_huge_pte_at, huge_pte_clear,
			    huge_ptep_set_access_flags, huge_ptep_set_wrprotect, huge_ptep_modify_prot_start,
			    huge_ptep_modify_prot_commit, flush_hugetlb_tlb_range}) {
		call probe;
		probe.kind = k;
		const call_semantics sem = semantics_of(probe);
		obligation_scope sc;
		// permission is claimed at the call's end only (prove_step): a
		// refutation is sound, but it covers no grant in the middle of a
		// call, so the scope does not list it.
		// precise is claimed of a returned entry, and at the call's end
		// of every mapped page (reportable: what the page shows, some
		// page of its folio may report), so a call that consumes a flag
		// and leaves it showing is refuted by its own obligation, not by
		// the read that later reports the flag.
		// well-formed is claimed at every store of the call (break-
		// before-make against the TLB, the store's run misprogrammed
		// nowhere) and of every run at its end: all the checker judges.
		sc.properties = {property::isolation, property::no_loss, property::well_formed, property::precise};
		// The range flush's well-formed is what it leaves in the TLBs;
		// a step starts from TLBs that hold what the table maps, so it
		// cannot see a stale translation the flush should have dropped:
		// that part stays the sampled checker's (judge_range_flushed).
		if (k == flush_hugetlb_tlb_range)
			std::erase(sc.properties, property::well_formed);
		if (sem.reports)
			sc.properties.push_back(property::per_call);
		if (sem.batch)
			sc.properties.push_back(property::batch_or);
		// progress is judged at the call's end, where step/ claims it.
		if (k == ptep_set_access_flags || k == huge_ptep_set_access_flags)
			sc.properties.push_back(property::progress);
		// A hugetlb call that takes a hugepage out leaves it none: the
		// part of mapping the checker asks of it at its end.
		if (is_hugetlb_call(k) && sem.unmaps)
			sc.properties.push_back(property::mapping);
		sc.calls = {k};
		sc.tables = fmt::format("every table of two runs satisfying the invariant of reachable tables, "
					"under the caller's rules for the call, {}",
					is_hugetlb_call(k) ? "each run a hugepage as the hugetlb callers leave one (none, one "
							     "non-present value, or its hugetlb folio's pages or blocks with "
							     "CONT), a pte table of CONT_PTE hugepages and a pmd table of "
							     "CONT_PMD ones, on either hugepage"
					: takes_nr(k)	   ? "over the ranges that start and end at a run edge, next to it or "
							     "inside (every range with --every-range at CONT_PTES 16 and 32)"
							   : "at each run edge, its neighbours and a middle");
		if (passes_value(k))
			sc.tables += ", with every value the caller's rule lets it pass";
		sc.from_invariant = true;
		table.push_back({.prefix = fmt::format("step/{}-", to_string(k)),
				 .needs = {k},
				 .opt_in = true,
				 .prove = [k](obligation_run& run) { prove_step(run, k); },
				 .scope = sc});
	}
	return table;
}

} // namespace ptespec::proofs
