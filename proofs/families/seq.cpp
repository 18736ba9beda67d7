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
	o.search.run_seconds = std::max(o.search.run_seconds, o.search.step_case_seconds * static_cast<double>(seqs.size()));
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

// The seq/ families: every sequence of k calls, from the empty table and
// from every invariant table, one family per property over one shared run
// (so a refutation of one property leaves the others to their own
// verdicts); bounded, so never `proved` for a cell.  permission is claimed
// at each call's end but, as in step/, no family speaks for it.
std::vector<obligation_family> seq_families()
{
	std::vector<obligation_family> table;
	for (std::size_t k : {std::size_t{2}, std::size_t{3}})
		for (bool from_empty : {true, false})
			for (property p : {property::isolation, property::no_loss, property::per_call, property::precise,
					   property::batch_or, property::progress, property::well_formed}) {
				const std::string run = fmt::format("seq/{}-k{}", from_empty ? "empty" : "inv", k);
				obligation_scope sc;
				sc.properties = {p};
				for (std::size_t n = 0; n < nr_call_kinds; n++)
					sc.calls.push_back(static_cast<call_kind>(n));
				sc.tables = fmt::format(
					"every sequence of {} calls, each kind once on the first of two runs (a batch over "
					"the run, a one-entry call on its second entry), under the caller's rules, from {}",
					k, from_empty ? "the empty table" : "every table satisfying the invariant");
				table.push_back({.prefix = fmt::format("{}/{}-", run, to_string(p)),
						 .shares_run = run,
						 .opt_in = true,
						 .prove = [k, from_empty](obligation_run& r) { prove_seq(r, k, from_empty); },
						 .scope = sc});
			}
	return table;
}

} // namespace ptespec::proofs
