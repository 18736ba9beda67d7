#include "proofs/obligation_table.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "model/errors.h"
#include "proofs/obligations.h"

namespace ptespec::proofs {

namespace {

// The step/ families: one per call kind the invariant is proved inductive
// over, each proving its call's properties from every invariant table.
void add_step_families(std::vector<obligation_family>& table)
{
	using enum call_kind;
	for (call_kind k : {ptep_get, ptep_get_lockless, ptep_get_and_clear, ptep_get_and_clear_full,
			    get_and_clear_full_ptes, clear_full_ptes, clear_non_present_ptes, contpte_try_fold,
			    contpte_try_unfold, wrprotect_ptes, modify_prot_start_ptes, ptep_test_and_clear_young,
			    ptep_clear_flush_young, test_and_clear_young_ptes, clear_flush_young_ptes,
			    clear_young_dirty_ptes, set_ptes, ptep_set_access_flags, modify_prot_commit_ptes}) {
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
		if (sem.reports)
			sc.properties.push_back(property::per_call);
		if (sem.batch)
			sc.properties.push_back(property::batch_or);
		// progress is judged at the call's end, where step/ claims it.
		if (k == ptep_set_access_flags)
			sc.properties.push_back(property::progress);
		sc.calls = {k};
		sc.tables = fmt::format("every table of two runs satisfying the invariant of reachable tables, "
					"under the caller's rules for the call, {}",
					takes_nr(k) ? "over the ranges that start and end at a run edge, next to it or "
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
}

// The seq/ families: every sequence of k calls, from the empty table and
// from every invariant table, one family per property over one shared run
// (so a refutation of one property leaves the others to their own
// verdicts); bounded, so never `proved` for a cell.  permission is claimed
// at each call's end but, as in step/, no family speaks for it.
void add_seq_families(std::vector<obligation_family>& table)
{
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
}

// The lockless/ families: a lockless read beside one locked call of each
// writer kind that changes the entries of a mapped run under a racing
// GUP-fast (try_to_unmap's clear, fork's wrprotect, a fault's set_ptes
// that may fold the run).
void add_lockless_families(std::vector<obligation_family>& table)
{
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
}

} // namespace

const std::vector<obligation_family>& obligation_table()
{
	using enum call_kind;
	// A family is one entry here and one prove function in obligations.cpp.
	static std::vector<obligation_family> table = {
		{.prefix = "batch-or/",
		 .needs = {get_and_clear_full_ptes},
		 .prove = [](obligation_run& run) { prove_batch_or(run, true); },
		 .scope = {{property::batch_or, property::isolation},
			   {get_and_clear_full_ptes},
			   "full=1, every table of two folded runs of one folio, every range in them",
			   false}},
		{.prefix = "batch-or-full0/",
		 .needs = {get_and_clear_full_ptes},
		 .prove = [](obligation_run& run) { prove_batch_or(run, false); },
		 .scope = {{property::batch_or, property::isolation},
			   {get_and_clear_full_ptes},
			   "full=0, every table of two folded runs of one folio, every range in them",
			   false}},
		{.prefix = "per-call/one-call",
		 .sized = false,
		 .needs = {ptep_get, ptep_get_and_clear_full},
		 .shares_run = "one-call",
		 .prove = prove_one_call,
		 .scope = {{property::per_call},
			   {ptep_get, ptep_get_and_clear_full, get_and_clear_full_ptes},
			   "one folded run of one folio in the middle of a full teardown",
			   false}},
		{.prefix = "no-loss/one-call",
		 .sized = false,
		 .needs = {ptep_get, ptep_get_and_clear_full},
		 .shares_run = "one-call",
		 .prove = prove_one_call,
		 .scope = {{property::no_loss},
			   {ptep_get, ptep_get_and_clear_full, get_and_clear_full_ptes},
			   "one folded run of one folio in the middle of a full teardown",
			   false}},
		{.prefix = "exit/run-",
		 .needs = {ptep_get, ptep_get_and_clear_full},
		 .prove = [](obligation_run& run) { prove_exit(run, false); },
		 .scope = {{property::no_loss, property::per_call},
			   {ptep_get, ptep_get_and_clear_full},
			   "the whole full teardown, entry by entry, of one folded run of one folio",
			   false}},
		{.prefix = "exit/batch-",
		 .needs = {ptep_get, ptep_get_and_clear_full, get_and_clear_full_ptes},
		 .prove = [](obligation_run& run) { prove_exit(run, true); },
		 .scope = {{property::no_loss, property::per_call},
			   {ptep_get, get_and_clear_full_ptes},
			   "the whole full teardown, in one batch, of one folded run of one folio",
			   false}},
		// Opt-in: each question bit-blasts the invariant of two runs
		// (mainline: 8 s at 4K, 80 s at 16K).
		{.prefix = "hint/",
		 .needs = {},
		 .needs_hint = true,
		 .opt_in = true,
		 .prove = prove_hint,
		 .scope = {.properties = {property::per_call},
			   .calls = {},
			   .tables = "pte_batch_hint at each run edge, its neighbours and a middle (every entry at "
				     "CONT_PTES 16) of every table of two runs satisfying the invariant of reachable "
				     "tables, for every value ptep_get may return there",
			   .from_invariant = true,
			   .batch_hint = true}},
	};
	static const bool stepped =
		(add_step_families(table), add_lockless_families(table), add_seq_families(table), true);
	(void)stepped;
	return table;
}

std::string obligation_family::name(granule g) const
{
	return sized ? fmt::format("{}cont{}", prefix, geometry::of(g).cont_ptes) : prefix;
}

bool obligation_family::applies_to(const strategy& s) const
{
	return (!needs_hint || s.has_batch_hint()) &&
	       std::all_of(needs.begin(), needs.end(), [&](call_kind k) { return s.implements(k); });
}

const obligation_family* family_of(const proof_result& r)
{
	for (const obligation_family& f : obligation_table())
		if (f.name(r.gran) == r.obligation)
			return &f;
	return nullptr;
}

const obligation_scope* scope_of(const proof_result& r)
{
	const obligation_family* f = family_of(r);
	return f ? &f->scope : nullptr;
}

std::string scope_properties(const obligation_scope& sc)
{
	std::string s;
	for (property q : sc.properties)
		s += fmt::format("{}{}", s.empty() ? "" : ", ", to_string(q));
	return s;
}

std::string scope_calls(const obligation_scope& sc)
{
	std::string s;
	for (call_kind k : sc.calls)
		s += fmt::format("{}{}", s.empty() ? "" : ", ", to_string(k));
	return s;
}

std::vector<std::string> obligation_names(granule g)
{
	std::vector<std::string> out = helper_names();
	for (const obligation_family& f : obligation_table())
		out.push_back(f.name(g));
	return out;
}

namespace {

// The run of `families` for s at g: a result per family, named.
obligation_run run_of(strategy& s, granule g, const prove_options& o, std::vector<const obligation_family*> families)
{
	obligation_run run{s, g, o, std::move(families), {}};
	for (const obligation_family* f : run.families) {
		proof_result r;
		r.obligation = f->name(g);
		r.strategy = s.info().name;
		r.gran = g;
		run.results.push_back(std::move(r));
	}
	return run;
}

std::vector<proof_result> prove_together(strategy& s, granule g, const prove_options& o,
					 const std::vector<const obligation_family*>& families)
{
	obligation_run run = run_of(s, g, o, families);
	families.front()->prove(run);
	return std::move(run.results);
}

} // namespace

std::vector<obligation> obligations_of(strategy& s, granule g, const prove_options& o)
{
	// Each selected family that applies, those sharing a run gathered into
	// the obligation of the first of them.
	std::vector<std::vector<const obligation_family*>> runs;
	for (const obligation_family& f : obligation_table()) {
		if (!f.applies_to(s) || !o.wants(f.name(g)) || (f.opt_in && o.only.empty()))
			continue;
		auto shared = std::find_if(runs.begin(), runs.end(), [&](const auto& run) {
			return !f.shares_run.empty() && run.front()->shares_run == f.shares_run;
		});
		if (shared != runs.end())
			shared->push_back(&f);
		else
			runs.push_back({&f});
	}
	std::vector<obligation> out;
	strategy* sp = &s;
	for (const std::vector<const obligation_family*>& families : runs) {
		obligation ob;
		for (const obligation_family* f : families)
			ob.names.push_back(f->name(g));
		ob.prove = [sp, g, o, families] { return prove_together(*sp, g, o, families); };
		out.push_back(std::move(ob));
	}
	return out;
}

std::vector<proof_result> prove_named(strategy& s, granule g, const std::vector<std::string>& names,
				      const prove_options& o)
{
	std::vector<const obligation_family*> families;
	for (const std::string& n : names) {
		const auto& table = obligation_table();
		auto f = std::find_if(table.begin(), table.end(), [&](const obligation_family& x) { return x.name(g) == n; });
		if (f == table.end())
			throw internal_error(fmt::format("no obligation named {} at {}", n, to_string(g)));
		if (!families.empty() && (f->shares_run.empty() || f->shares_run != families.front()->shares_run))
			throw internal_error(fmt::format("{} does not share a run with {}", n, names.front()));
		families.push_back(&*f);
	}
	if (families.empty())
		throw internal_error("prove_named: no obligation named");
	return prove_together(s, g, o, families);
}

proof_result prove_named(strategy& s, granule g, const std::string& name, const prove_options& o)
{
	return prove_named(s, g, std::vector<std::string>{name}, o).front();
}

} // namespace ptespec::proofs
