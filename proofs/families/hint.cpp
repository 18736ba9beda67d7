// hint/cont<N>: the strategy's pte_batch_hint, run on the symbolic machine
// from every table satisfying the invariant of reachable tables.
//
// core-mm's folio_pte_batch asks the arch's hint, for entry i holding the
// value it read there, how many entries from i on it may take unread: the
// hint vouches that they map the page after the value's and the ones after
// that, each with the value's attributes.  The checker judges an answer
// that vouches for anything else as a per-call failure; this obligation
// states that no answer ever does.
//
// Conjecture (hint/cont<N>): from every table of two runs satisfying the
// invariant of reachable tables (proofs/invariant.h), for each entry i of
// hint_places holding a present value, and for every value `pte` that
// ptep_get may return for it -- the entry with its access, dirty and
// read-only bits free, as a read of a folded run gathers them -- the
// strategy's pte_batch_hint(i, pte) answers n >= 1 with entries i..i+n-1
// inside the table, entry i+k present and mapping the page k after pte's
// with pte's attributes for each k < n (pte_same_mapping with
// pte_advance_pfn(pte, k)).  Every path of the hint is run; a
// counterexample is the table, the entry and the value, replayed through
// the checker's judgement of the hint (on_batch_hint).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "model/pte.h"
#include "model/symbolic_machine.h"
#include "proofs/families/families.h"
#include "proofs/invariant.h"
#include "proofs/world.h"

namespace ptespec::proofs {

namespace {

// Every path of a hint, depth first: a path replays `prefix`, then at each
// new decision the solver says which sides are feasible under the world and
// the path so far; a second feasible side is left in `todo` for a later path.
// Paths are few (a hint branches on a word's bits, not on entries).
class hint_paths final : public branch_oracle {
public:
	hint_paths(z3::solver& s, std::vector<bool> prefix, std::vector<std::vector<bool>>& todo)
		: s_(s), prefix_(std::move(prefix)), todo_(todo)
	{
	}

	z3::expr normal(const z3::expr& cond) override { return cond.simplify(); }

	bool take(const z3::expr& cond) override
	{
		if (cond.is_true() || cond.is_false())
			return cond.is_true();
		bool side = true;
		if (taken_.size() < prefix_.size()) {
			side = prefix_[taken_.size()];
		} else {
			const bool yes = feasible(cond), no = feasible(!cond);
			if (yes && no) {
				std::vector<bool> other = taken_;
				other.push_back(false);
				todo_.push_back(std::move(other));
			}
			side = yes;
		}
		taken_.push_back(side);
		path_.push_back(side ? cond : !cond);
		return side;
	}

	const std::vector<z3::expr>& path() const { return path_; }

private:
	bool feasible(const z3::expr& lit)
	{
		z3::expr_vector a(lit.ctx());
		for (const z3::expr& p : path_)
			a.push_back(p);
		a.push_back(lit);
		// A side the solver cannot rule out is followed: a path too many
		// costs time, a path missed would cost the proof.
		return s_.check(a) != z3::unsat;
	}

	z3::solver& s_;
	std::vector<bool> prefix_;
	std::vector<std::vector<bool>>& todo_;
	std::vector<bool> taken_;
	std::vector<z3::expr> path_;
};

} // namespace

// What the checker asks of an answer n for entry i holding `pte`: at least
// one entry, none past the table, and each vouched entry present and
// mapping the page k after pte's with pte's attributes.
z3::expr hint_claim(const std::vector<z3::expr>& t, const geometry& geo, std::size_t i, const z3::expr& pte,
		    std::size_t n)
{
	z3::context& ctx = pte.ctx();
	if (n == 0 || i + n > t.size())
		return ctx.bool_val(false);
	z3::expr all = ctx.bool_val(true);
	for (std::size_t k = 0; k < n; k++)
		all = all && pte_present(t[i + k]) && pte_same_mapping(t[i + k], pte_advance_pfn(pte, k, geo));
	return all;
}

// The entries asked, in each of the two runs: its first and last, their
// neighbours and a middle -- every entry at CONT_PTES 16.  (A hint decides
// by the entry's place in its run, as the kernel's does by the pointer's
// bits; each question bit-blasts the two runs' invariant, some 0.1 s at
// 4K and seconds at 16K, so every entry of a run of 128 costs minutes.)
bool hint_asks_at(std::size_t c, std::size_t k)
{
	return c <= 16 || k <= 1 || k == c / 2 || k + 2 >= c;
}

namespace {

std::vector<std::size_t> hint_places(std::size_t c)
{
	std::vector<std::size_t> out;
	for (std::size_t run : {std::size_t{0}, c})
		for (std::size_t k = 0; k < c; k++)
			if (hint_asks_at(c, k))
				out.push_back(run + k);
	return out;
}

// The hint proved from the invariant's world w, place by place, into r:
// each place's paths run depth first on one solver that holds the
// invariant once and each place's value in a frame of its own.
class hint_prover {
public:
	hint_prover(obligation_run& run, const sym_world& w)
		: run_(run), w_(w), r_(run.results.at(0)), ctx_(w.initial.front().ctx()), s_(ctx_), p_(ctx_),
		  pte_(ctx_.bv_const("hint.pte", 64))
	{
		p_.set("timeout", run.o.solver.timeout_ms);
		s_.set(p_);
		for (const z3::expr& a : w.assumptions)
			s_.add(a);
	}

	// Every path of the hint at entry i; false when one ends the
	// obligation (r_ filled: refuted or unknown).
	bool place(std::size_t i);
	std::size_t paths() const { return paths_; }

private:
	// The claim asked of one path answering n; false as place().
	bool ask(const hint_paths& oracle, std::size_t i, std::size_t n);
	void refute(const z3::model& mdl, std::size_t i, std::size_t n);

	static constexpr std::size_t max_paths = 64;	// per place
	obligation_run& run_;
	const sym_world& w_;
	proof_result& r_;
	z3::context& ctx_;
	z3::solver s_;
	z3::params p_;
	const z3::expr pte_;
	std::size_t paths_ = 0;
};

bool hint_prover::place(std::size_t i)
{
	const geometry& geo = w_.geo;
	struct frame {
		z3::solver& s;
		explicit frame(z3::solver& solver) : s(solver) { s.push(); }
		~frame() { s.pop(); }
	} place(s_);
	s_.add(pte_present(w_.initial[i]));
	s_.add(((pte_ ^ w_.initial[i]) & ctx_.bv_val(~PTE_FLAG_BITS, 64)) == ctx_.bv_val(0, 64));
	std::vector<std::vector<bool>> todo{{}};
	for (std::size_t here = 0; !todo.empty(); here++) {
		paths_++;
		if (here == max_paths) {
			r_.verdict = proof_verdict::unknown;
			r_.detail = fmt::format("more than {} paths of the hint at #{}", max_paths, i);
			r_.paths = paths_ - 1;
			return false;
		}
		const std::vector<bool> prefix = std::move(todo.back());
		todo.pop_back();
		hint_paths oracle(s_, prefix, todo);
		symbolic_machine m(ctx_, geo, w_.initial, oracle, run_.o.hw);
		const std::optional<std::size_t> n = run_.s.pte_batch_hint(m, i, pte_);
		if (!n) {
			r_.verdict = proof_verdict::unknown;
			r_.detail = "the strategy's pte_batch_hint is written over concrete words only "
				    "(S<M>::pte_batch_hint(geo, i, pte)); the proofs run one written over the "
				    "machine (S<M>::pte_batch_hint(m, i, pte))";
			return false;
		}
		if (!ask(oracle, i, *n))
			return false;
	}
	return true;
}

bool hint_prover::ask(const hint_paths& oracle, std::size_t i, std::size_t n)
{
	z3::expr_vector a(ctx_);
	for (const z3::expr& l : oracle.path())
		a.push_back(l);
	a.push_back(!hint_claim(w_.initial, w_.geo, i, pte_, n));
	// The claim's question bit-blasted afresh: the incremental
	// solver took 0.3-0.8 s on each of these at 4K, this 0.1 s.
	z3::solver q = z3::tactic(ctx_, "qfbv").mk_solver();
	q.set(p_);
	for (const z3::expr& x : s_.assertions())
		q.add(x);
	for (const z3::expr& x : a)
		q.add(x);
	const z3::check_result res = q.check();
	if (res == z3::unknown) {
		r_.verdict = proof_verdict::unknown;
		r_.detail = fmt::format("solver: {} (the hint at #{})", q.reason_unknown(), i);
		r_.paths = paths_;
		return false;
	}
	if (res == z3::sat) {
		refute(q.get_model(), i, n);
		return false;
	}
	return true;
}

void hint_prover::refute(const z3::model& mdl, std::size_t i, std::size_t n)
{
	counterexample ce;
	ce.geo = w_.geo;
	ce.hw = run_.o.hw;
	ce.folios = w_.folios;
	for (const z3::expr& e : w_.initial)
		ce.initial.push_back(mdl.eval(e, true).get_numeral_uint64());
	ce.prop = property::per_call;
	ce.hint = hint_query{i, mdl.eval(pte_, true).get_numeral_uint64(), n};
	r_.verdict = proof_verdict::refuted;
	r_.ce = std::move(ce);
	r_.detail = fmt::format("pte_batch_hint(#{}) = {} vouches for an entry that does not map "
				"the page it should",
				i, n);
	r_.paths = paths_;
}

} // namespace

void prove_hint(obligation_run& run)
{
	proof_result& r = run.results.at(0);
	const stopwatch clock;
	z3::context& ctx = shared_context();
	const std::size_t c = geometry::of(run.g).cont_ptes;
	const sym_world w = invariant_table(ctx, run.g, 2, folio_layout(c));
	const std::vector<std::size_t> places = hint_places(c);
	hint_prover prover(run, w);
	for (std::size_t i : places)
		if (!prover.place(i))
			return;
	const std::size_t paths = prover.paths();
	r.verdict = proof_verdict::proved;
	r.paths = paths;
	r.run_seconds = clock.seconds();
	const bool every = places.size() == w.initial.size();
	r.detail = fmt::format("{} entries of two runs ({}), every value ptep_get may return there; {} path{} of the hint",
			       places.size(), every ? "all of them" : "each run's edges, their neighbours and a middle",
			       paths, paths == 1 ? "" : "s");
}

// Opt-in: each question bit-blasts the invariant of two runs (mainline: 8 s
// at 4K, 80 s at 16K).
obligation_family hint_family()
{
	return {.prefix = "hint/",
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
			  .batch_hint = true}};
}

} // namespace ptespec::proofs
