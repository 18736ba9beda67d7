#include "proofs/agreement.h"

#include <algorithm>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "model/checker.h"
#include "model/observer.h"
#include "model/pte.h"
#include "proofs/claims.h"
#include "proofs/families/families.h"
#include "proofs/invariant.h"
#include "proofs/replay.h"
#include "proofs/sampled_race.h"
#include "proofs/world.h"

namespace ptespec::proofs {

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
	po.solver.quick_solve_ms = std::min(po.solver.quick_solve_ms, 20u);
	po.solver.claims_first_ms = std::min(po.solver.claims_first_ms, 20u);
	if (!po.probes.count)
		po.probes.count = 16;
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

// Why a failure of p in h is none the one-call claims speak for, before
// any replay: p judged elsewhere, or other hardware than the proofs'.
std::optional<agreement> out_of_scope(const history& h, property p, const prove_options& o)
{
	using enum agreement::verdict;
	if (p != property::per_call && p != property::no_loss && p != property::batch_or && p != property::progress &&
	    p != property::well_formed && p != property::precise && p != property::lockless)
		return agreement{outside, fmt::format("{} is judged during a call or on later calls, not by one call's claims",
						      to_string(p))};
	if (h.hw.no_hafdbs)
		return agreement{outside, "the proofs model hardware that manages access/dirty itself"};
	if (h.hw != o.hw)
		return agreement{outside, "the proofs ran on other hardware than the sampled case"};
	return std::nullopt;
}

// Why the table call `failing` began from is one the claims do not speak
// for: outside the invariant, a stale TLB (well-formed), a pending flag no
// read shows, or (precise) a flag shown that the page may not report.
std::optional<agreement> outside_claims(const failing_call_finder::open_call& failing, const history& h, property p)
{
	using enum agreement::verdict;
	const geometry& geo = h.geo;
	const call& c = failing.c;
	z3::context& ctx = shared_context();
	if (const std::string why = invariant_broken(ctx, failing.before, geo, h.folios); !why.empty())
		return agreement{outside,
				 fmt::format("before {}, {}: outside the invariant of reachable tables", describe(c), why)};
	if (p == property::well_formed && failing.stale >= 0)
		return agreement{outside,
				 fmt::format("before {}, the TLB may still hold #{} as {:#018x}, which the table no longer "
					     "maps: the proofs begin a call with the TLB holding what its table maps",
					     describe(c), failing.stale, failing.stale_value)};
	for (std::size_t q = 0; q < failing.before.size(); q++) {
		if (!pte_present(failing.before[q]))
			continue;
		const unsigned shown = ref_flags(failing.before, geo, q);
		if (const unsigned unseen = failing.pending[q] & ~shown)
			return agreement{outside, fmt::format("before {}, #{} owed {} that no read of it shows",
							      describe(c), q, flag_name(unseen))};
		if (const unsigned stale = shown & ~failing.reportable[q]; stale && p == property::precise)
			return agreement{outside, fmt::format("before {}, #{} showed {} that it may not report",
							      describe(c), q, flag_name(stale))};
	}
	return std::nullopt;
}

// The claims of the call judged (`failing`, found's failing call or the
// one that left a stale flag) asked from the table it began from, with the
// values it passed and any hardware events, and told against the checker.
agreement ask_claims(strategy& s, const history& h, property p, const prove_options& o,
		     const failing_call_finder& found, const failing_call_finder::open_call& failing, bool by_stale)
{
	using enum agreement::verdict;
	const call& c = failing.c;
	z3::context& ctx = shared_context();
	sym_world w;
	w.geo = h.geo;
	w.folios = h.folios;
	w.initial = numerals(ctx, failing.before);
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
	const violation* seen = found.chk.first(p);
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

} // namespace

agreement judge_agreement(strategy& s, const history& h, property p, const prove_options& o)
{
	using enum agreement::verdict;
	if (const std::optional<agreement> no = out_of_scope(h, p, o))
		return *no;
	if (p == property::lockless)
		return judge_lockless(s, h, o);
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
	const failing_call_finder::open_call& failing = by_stale ? *found.stale_from : *found.failing;
	if (const std::optional<agreement> no = outside_claims(failing, h, p))
		return *no;
	return ask_claims(s, h, p, o, found, failing, by_stale);
}

namespace {

// Takes the side a concrete condition decides; a condition the values
// alone do not decide is a path this run cannot follow.
class concrete_oracle final : public branch_oracle {
public:
	z3::expr normal(const z3::expr& cond) override { return cond.simplify(); }
	bool take(const z3::expr& cond) override
	{
		if (!cond.is_true() && !cond.is_false())
			undecided = true;
		return cond.is_true();
	}
	bool undecided = false;
};

} // namespace

agreement judge_hint_agreement(strategy& s, const geometry& geo, const std::vector<folio_extent>& folios,
				const batch_hint_seen& hint, const hardware_options& hw)
{
	using enum agreement::verdict;
	z3::context& ctx = shared_context();
	const std::size_t i = hint.entry, c = geo.cont_ptes;
	const std::string said = fmt::format("pte_batch_hint(#{}) = {}", i, hint.n);
	if (!hint_asks_at(c, i % c))
		return {outside, fmt::format("{}: hint/ asks at each run's edges, their neighbours and a middle, and "
					     "#{} is none of them",
					     said, i)};
	if (const std::string why = invariant_broken(ctx, hint.table, geo, folios); !why.empty())
		return {outside, fmt::format("{}, {}: outside the invariant of reachable tables", said, why)};
	if (!pte_present(hint.table.at(i)) || ((hint.pte ^ hint.table[i]) & ~PTE_FLAG_BITS) != 0)
		return {outside, fmt::format("{}: the value asked about, {:#018x}, is not one ptep_get may return for "
					     "#{} ({:#018x})",
					     said, hint.pte, i, hint.table[i])};
	const std::vector<z3::expr> t = numerals(ctx, hint.table);
	const z3::expr pte = ctx.bv_val(hint.pte, 64);
	concrete_oracle oracle;
	symbolic_machine m(ctx, geo, t, oracle, hw);
	const std::optional<std::size_t> n = s.pte_batch_hint(m, i, pte);
	if (!n)
		return {outside, "the strategy's pte_batch_hint is written over concrete words only: hint/ does not "
				 "run it"};
	if (oracle.undecided)
		return {undecided, fmt::format("{}: the hint branched on a condition the values do not decide", said)};
	if (*n != hint.n)
		return {disagrees, fmt::format("{} in the sampled run, but {} on the symbolic machine from the same "
					       "table and value",
					       said, *n)};
	if (hint_claim(t, geo, i, pte, *n).simplify().is_true())
		return {disagrees, fmt::format("the checker finds {} vouching for an entry that does not map the page it "
					       "should, but hint/'s claim holds of it",
					       said)};
	return {agrees, fmt::format("hint/'s claim is refuted by {} from the same table too", said)};
}

} // namespace ptespec::proofs
