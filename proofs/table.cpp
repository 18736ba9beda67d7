#include "proofs/obligation_table.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "model/errors.h"
#include "proofs/families/families.h"
#include "proofs/obligations.h"

namespace ptespec::proofs {

// Every family's entry, in the order `prove` runs and prints them: a list
// written out here, each entry made in its family's file (families/).
const std::vector<obligation_family>& obligation_table()
{
	static const std::vector<obligation_family> table = [] {
		std::vector<obligation_family> t;
		auto add = [&t](const std::vector<obligation_family>& more) { t.insert(t.end(), more.begin(), more.end()); };
		add({batch_or_family(true), batch_or_family(false)});
		add(one_call_families());
		add({exit_family(false), exit_family(true)});
		add({hint_family()});
		add(step_families());
		add(lockless_families());
		add(seq_families());
		return t;
	}();
	return table;
}

std::string obligation_family::name(granule g) const
{
	return sized ? fmt::format("{}cont{}", prefix, geometry::of(g).cont_ptes) : prefix;
}

bool obligation_family::applies_to(const strategy& s) const
{
	return (!needs_hint || s.has_batch_hint()) &&
	       std::all_of(needs.begin(), needs.end(), [&](call_kind k) { return s.implements_symbolic(k); });
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
