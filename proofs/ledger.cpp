#include "proofs/ledger.h"

#include <cstdint>
#include <optional>

#include "model/pte.h"

namespace ptespec::proofs {

namespace {

// The connectives with their constants folded.  Most of the ledger is known
// at most pages -- nothing fired there, the page is out of the range, the
// entry was cleared to zero -- and a folded term stays the term it was: a
// page that no call of a teardown touches keeps its pending flag as one
// term, instead of gaining a layer per call (unfolded, the layers were most
// of a long teardown's time: docs/performance.md, "Why the prover is built
// as it is").
z3::expr lor(const z3::expr& a, const z3::expr& b)
{
	if (a.is_true() || b.is_false())
		return a;
	if (a.is_false() || b.is_true())
		return b;
	return a || b;
}

z3::expr land(const z3::expr& a, const z3::expr& b)
{
	if (a.is_false() || b.is_true())
		return a;
	if (a.is_true() || b.is_false())
		return b;
	return a && b;
}

z3::expr lnot(const z3::expr& a)
{
	if (a.is_true() || a.is_false())
		return a.ctx().bool_val(a.is_false());
	return !a;
}

z3::expr limplies(const z3::expr& a, const z3::expr& b) { return lor(lnot(a), b); }

z3::expr lite(const z3::expr& c, const z3::expr& a, const z3::expr& b)
{
	if (c.is_true() || z3::eq(a, b))
		return a;
	if (c.is_false())
		return b;
	return z3::ite(c, a, b);
}

// A test of a word, folded to true or false when the word is a number (an
// entry cleared to zero): the same helper run on the number.
template <class F>
z3::expr of_word(const z3::expr& word, F test)
{
	std::uint64_t v = 0;
	if (word.is_numeral_u64(v))
		return word.ctx().bool_val(test(v));
	return test(word);
}

z3::expr valid(const z3::expr& e)
{
	return of_word(e, [](const auto& w) { return pte_valid(w); });
}

// Valid, or PROT_NONE: an entry that maps its page, which the checker's
// ledger follows whether or not hardware may walk it.
z3::expr present(const z3::expr& e)
{
	return of_word(e, [](const auto& w) { return pte_present(w); });
}

} // namespace

sym_flags no_flags(z3::context& ctx) { return {ctx.bool_val(false), ctx.bool_val(false)}; }

sym_flags own_flags(const z3::expr& e)
{
	return {of_word(e, [](const auto& w) { return pte_young(w); }), of_word(e, [](const auto& w) { return pte_dirty(w); })};
}

sym_flags operator|(const sym_flags& a, const sym_flags& b) { return {lor(a.y, b.y), lor(a.d, b.d)}; }

z3::expr subset(const sym_flags& a, const sym_flags& b) { return land(limplies(a.y, b.y), limplies(a.d, b.d)); }

namespace {

sym_flags run_or(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first)
{
	sym_flags f = no_flags(t[first].ctx());
	for (std::size_t k = first; k < first + geo.cont_ptes && k < t.size(); k++) {
		const z3::expr in = of_word(t[k], [](const auto& w) { return pte_valid_cont(w); });
		const sym_flags o = own_flags(t[k]);
		f = f | sym_flags{land(in, o.y), land(in, o.d)};
	}
	return f;
}

bool in_range(const call& c, std::size_t p) { return p >= c.index && p < range_end(c); }

} // namespace

std::vector<sym_flags> ref_flags(const std::vector<z3::expr>& t, const geometry& geo)
{
	std::vector<sym_flags> out;
	std::optional<sym_flags> run;
	for (std::size_t p = 0; p < t.size(); p++) {
		if (p % geo.cont_ptes == 0)
			run = run_or(t, geo, p);
		// Hardware records into valid CONT entries only, so only those
		// read their run's OR; any other present entry (PROT_NONE with
		// CONT too) shows its own flags.
		const sym_flags own = own_flags(t[p]);
		const z3::expr v = present(t[p]);
		const z3::expr c = of_word(t[p], [](const auto& w) { return pte_valid_cont(w); });
		out.push_back({lite(c, run->y, land(v, own.y)), lite(c, run->d, land(v, own.d))});
	}
	return out;
}

sym_flags reported_flags(const sym_call_result& r, const z3::expr& first_at_begin)
{
	if (r.young)	// a young call answers young only, for the entries it names
		return {*r.young, first_at_begin.ctx().bool_val(false)};
	if (!r.pte)
		return no_flags(first_at_begin.ctx());
	const sym_flags o = own_flags(*r.pte);
	const z3::expr v = present(first_at_begin);
	return {land(v, o.y), land(v, o.d)};
}

namespace {

// One call's settlement, a conjunct at a time (settle_call's comment in
// ledger.h): each step reads what the steps before it left.
class settlement {
public:
	settlement(const call& c, const geometry& geo, const std::vector<z3::expr>& q, const std::vector<z3::expr>& t,
		   const std::vector<sym_flags>& pending, const sym_flags& rf, const std::vector<sym_event>& events,
		   const same_folio_fn& same_folio, const std::optional<z3::expr>& value,
		   const std::vector<sym_flags>* optional)
		: c_(c), geo_(geo), q_(q), t_(t), pending_(pending), rf_(rf), events_(events), same_folio_(same_folio),
		  value_(value), optional_(optional), ctx_(q.front().ctx()), sem_(semantics_of(c)), n_(t.size()),
		  F(ctx_.bool_val(false)), T(ctx_.bool_val(true))
	{
	}

	call_ledger settle()
	{
		call_ledger out{{}, {}, T, T};
		out.per_call = per_call();
		consumed();
		events_by_unit();
		hand_offs();
		settle_pages(out);
		bring(out);
		fold(out);
		out.no_loss = no_loss();
		return out;
	}

private:
	z3::expr per_call() const;
	void consumed();
	void events_by_unit();
	void hand_offs();
	void settle_pages(call_ledger& out) const;
	void bring(call_ledger& out);
	void fold(call_ledger& out) const;
	z3::expr no_loss() const;
	z3::expr hand(unsigned flag) const { return flag == 1 ? *hand_y_ : *hand_d_; }

	const call& c_;
	const geometry& geo_;
	const std::vector<z3::expr>& q_;
	const std::vector<z3::expr>& t_;
	const std::vector<sym_flags>& pending_;
	const sym_flags& rf_;
	const std::vector<sym_event>& events_;
	const same_folio_fn& same_folio_;
	const std::optional<z3::expr>& value_;
	const std::vector<sym_flags>* optional_;
	z3::context& ctx_;
	const call_semantics sem_;
	const std::size_t n_;
	const z3::expr F;
	const z3::expr T;
	std::vector<z3::expr> consumed_at_;	// per page
	std::vector<sym_flags> cont_ev_;	// per run
	std::vector<sym_flags> own_ev_;	// per entry, non-CONT landings
	std::optional<z3::expr> hand_y_, hand_d_;
	std::vector<z3::expr> meets_;	// per run
	std::vector<sym_flags> brought_;	// per page
};

// per-call: every page of the range present at begin reports its pending
// flags (a young call: its pending young).
z3::expr settlement::per_call() const
{
	z3::expr all = T;
	const bool young_only = answers_young(c_.kind);
	if (sem_.reports)
		for (std::size_t p = 0; p < n_; p++)
			if (in_range(c_, p))
				all = land(all, limplies(present(q_[p]), young_only ? limplies(pending_[p].y, rf_.y)
										   : subset(pending_[p], rf_)));
	return all;
}

// Where a call that leaves its entries mapped consumes a flag: its range,
// and, when it may widen, the pages of the runs it touches that map the
// same folio as its first entry and are either in a folded run or
// PROT_NONE with CONT (contpte_set_ptes set CONT on a whole run of one
// folio, and a zap may have cleared part of it since) -- the checker's
// settlement.
// Those pages owe the flag no more; whether it was handed off or lost
// is no-loss's business below.
void settlement::consumed()
{
	consumed_at_.assign(n_, F);
	if (!(sem_.consumes_young || sem_.consumes_dirty) || sem_.unmaps || sem_.maps)
		return;
	const std::size_t end = range_end(c_);
	std::vector<z3::expr> folded(n_ / geo_.cont_ptes + 1, F);
	for (std::size_t p = 0; p < n_; p++)
		folded[geo_.run_of(p)] = lor(folded[geo_.run_of(p)], land(valid(q_[p]), pte_cont(q_[p])));
	for (std::size_t p = 0; p < n_; p++) {
		if (in_range(c_, p)) {
			consumed_at_[p] = T;
			continue;
		}
		const bool touched = geo_.run_start(p) < end && geo_.run_start(p) + geo_.cont_ptes > c_.index;
		if (sem_.may_widen && touched && same_folio_) {
			const z3::expr none_cont =
				of_word(q_[p], [](const auto& w) { return pte_present_invalid(w) && pte_cont(w); });
			consumed_at_[p] = land(land(present(q_[c_.index]), same_folio_(q_[c_.index], q_[p])),
					       lor(land(folded[geo_.run_of(p)], valid(q_[p])), none_cont));
		}
	}
}

// The call's events, as the checker orders them.  An event that landed
// in a CONT entry is the run's (here: every page valid at the end); one
// that landed in a plain entry is that page's.  It is ordered before the
// call (reported, discharged) when the call hands off that flag and its
// unit at call begin met the range; otherwise after, and pending where
// it lives at the end.
void settlement::events_by_unit()
{
	cont_ev_.assign(n_ / geo_.cont_ptes + 1, no_flags(ctx_));
	own_ev_.assign(n_, no_flags(ctx_));
	for (const sym_event& e : events_) {
		const sym_flags f{e.fired, land(e.fired, e.write)};
		const std::size_t run = geo_.run_of(e.entry);
		cont_ev_[run] = cont_ev_[run] | sym_flags{land(f.y, e.cont), land(f.d, e.cont)};
		own_ev_[e.entry] = own_ev_[e.entry] | sym_flags{land(f.y, lnot(e.cont)), land(f.d, lnot(e.cont))};
	}
}

// A flag leaves the ledger by a report the caller acts on, or, for a
// call that consumes it without a report (clear_full_ptes: the caller
// frees the folio and has no use for it), by the call itself.  And does
// the range meet the begin-unit of a CONT event in run r?
void settlement::hand_offs()
{
	hand_y_ = sem_.hands_off ? rf_.y : (sem_.consumes_young ? T : F);
	hand_d_ = sem_.hands_off ? rf_.d : (sem_.consumes_dirty ? T : F);
	for (std::size_t run = 0; run * geo_.cont_ptes < n_; run++) {
		z3::expr any = F;
		for (std::size_t p = run * geo_.cont_ptes; p < (run + 1) * geo_.cont_ptes && p < n_; p++)
			if (in_range(c_, p))
				any = lor(any, valid(q_[p]));
		meets_.push_back(any);
	}
}

// Each page's required and optional flags at the call's end.
void settlement::settle_pages(call_ledger& out) const
{
	out.pending_after.assign(n_, no_flags(ctx_));
	out.optional_after.assign(n_, no_flags(ctx_));
	for (std::size_t p = 0; p < n_; p++) {
		const bool r = in_range(c_, p);
		const z3::expr keep = (sem_.unmaps || sem_.maps) && r ? F : T;
		const z3::expr vend = valid(t_[p]), pend = present(t_[p]);
		const std::size_t run = geo_.run_of(p);
		const z3::expr cm = meets_[run];
		z3::expr nf[2] = {F, F};
		z3::expr of[2] = {F, F};
		for (unsigned flag : {1u, 2u}) {
			// A page the call's consumption widened to is reached like
			// one of its range: an event the call reported is not owed
			// there (the checker makes it optional).
			const bool consumes = flag == 1 ? sem_.consumes_young : sem_.consumes_dirty;
			const z3::expr widened = !r && consumes ? consumed_at_[p] : F;
			const z3::expr reached = r ? T : widened;
			const z3::expr reported_cont = land(hand(flag), cm);
			const z3::expr reported_own = land(hand(flag), r ? present(q_[p]) : widened);
			// An event ordered after the call is pending where its unit
			// is at the end: every valid page of the run for one that
			// landed in a CONT entry, its own page while present for one
			// that did not.
			const z3::expr add = lor(land(vend, land(cont_ev_[run].of(flag), lnot(land(reported_cont, reached)))),
						 land(pend, land(own_ev_[p].of(flag), lnot(land(reported_own, reached)))));
			const z3::expr owed =
				consumes ? land(pending_[p].of(flag), lnot(consumed_at_[p])) : pending_[p].of(flag);
			nf[flag - 1] = lor(land(keep, owed), add);
			// Optional afterwards: what was optional and neither cleared
			// in the range nor rewritten there; a required flag the
			// widened consumption took off this page; an event of the
			// call ordered before it (discharged) where the call reached.
			const z3::expr was_optional = optional_ ? (*optional_)[p].of(flag) : F;
			const z3::expr kept = r ? (consumes ? F : keep) : T;
			const z3::expr discharged =
				lor(land(vend, land(cont_ev_[run].of(flag), land(reported_cont, reached))),
				    land(pend, land(own_ev_[p].of(flag), land(reported_own, reached))));
			of[flag - 1] = lor(land(kept, was_optional), lor(land(widened, pending_[p].of(flag)), discharged));
		}
		out.pending_after[p] = {nf[0], nf[1]};
		out.optional_after[p] = {of[0], of[1]};
	}
}

// The flags the call brings itself (checker::add_call_set_flags): a
// mapping call's present value brings its young and dirty to each page
// of its range, that page's own; ptep_set_access_flags' value (and its
// hugetlb twin's) brings
// its flags to the entry's unit at the end -- every valid page of the
// run when the entry is CONT then, the entry's page otherwise.  They
// are pending from the call's end on, so they must show there.
void settlement::bring(call_ledger& out)
{
	brought_.assign(n_, no_flags(ctx_));
	if (value_ && sem_.maps) {
		const z3::expr present = of_word(*value_, [](const auto& w) { return pte_present(w); });
		const sym_flags o = own_flags(*value_);
		for (std::size_t p = c_.index; p < range_end(c_) && p < n_; p++)
			brought_[p] = {land(present, o.y), land(present, o.d)};
	}
	if (value_ && (c_.kind == call_kind::ptep_set_access_flags || c_.kind == call_kind::huge_ptep_set_access_flags)) {
		const sym_flags o = own_flags(*value_);
		const z3::expr mapped = valid(t_[c_.index]);
		const z3::expr cont = land(mapped, pte_cont(t_[c_.index]));
		for (std::size_t p = geo_.run_start(c_.index); p < geo_.run_start(c_.index) + geo_.cont_ptes && p < n_;
		     p++) {
			const z3::expr here = p == c_.index ? mapped : land(cont, valid(t_[p]));
			brought_[p] = {land(here, o.y), land(here, o.d)};
		}
	}
	for (std::size_t p = 0; p < n_; p++)
		out.pending_after[p] = out.pending_after[p] | brought_[p];
}

// A run the call folded: every page owes, and may report, what any
// page of the run did (the checker's fold_runs, after the settlement).
void settlement::fold(call_ledger& out) const
{
	if (!same_folio_)
		return;
	for (std::size_t first = 0; first + geo_.cont_ptes <= n_; first += geo_.cont_ptes) {
		auto folded = [&](const std::vector<z3::expr>& tab) {
			z3::expr all = T;
			for (std::size_t k = first; k < first + geo_.cont_ptes; k++)
				all = land(all, land(of_word(tab[k], [](const auto& w) { return pte_valid_cont(w); }),
						     same_folio_(tab[first], tab[k])));
			return all;
		};
		const z3::expr now = land(folded(t_), lnot(folded(q_)));
		if (now.is_false())
			continue;
		sym_flags req = no_flags(ctx_), opt = no_flags(ctx_);
		for (std::size_t k = first; k < first + geo_.cont_ptes; k++) {
			req = req | out.pending_after[k];
			opt = opt | out.optional_after[k];
		}
		for (std::size_t k = first; k < first + geo_.cont_ptes; k++) {
			out.pending_after[k] = out.pending_after[k] | sym_flags{land(now, req.y), land(now, req.d)};
			out.optional_after[k] = out.optional_after[k] | sym_flags{land(now, opt.y), land(now, opt.d)};
		}
	}
}

// no-loss.  Live events at begin: the pending flags, for the pages
// present then.  A live flag is handed off by a report of it; otherwise
// the pages the call unmapped leave it, and it must still be visible
// through one of those left.
z3::expr settlement::no_loss() const
{
	z3::expr all = T;
	const std::vector<sym_flags> ref_end = ref_flags(t_, geo_);
	for (unsigned flag : {1u, 2u}) {
		z3::expr live = F, visible = F, met = F;
		for (std::size_t p = 0; p < n_; p++) {
			const z3::expr here = land(present(q_[p]), pending_[p].of(flag));
			live = lor(live, here);
			met = lor(met, land(here, in_range(c_, p) ? T : F));
			const bool leaves = in_range(c_, p) && (sem_.unmaps || sem_.maps);
			if (!leaves)
				visible = lor(visible, land(here, ref_end[p].of(flag)));
		}
		all = land(all, limplies(live, lor(land(hand(flag), met), visible)));

		// Events of the call ordered after it must be visible where they live.
		for (std::size_t run = 0; run * geo_.cont_ptes < n_; run++) {
			z3::expr vis = F;
			for (std::size_t p = run * geo_.cont_ptes; p < (run + 1) * geo_.cont_ptes && p < n_; p++)
				vis = lor(vis, land(valid(t_[p]), ref_end[p].of(flag)));
			const z3::expr reported = land(hand(flag), meets_[run]);
			all = land(all, limplies(land(cont_ev_[run].of(flag), lnot(reported)), vis));
		}
		for (std::size_t j = 0; j < n_; j++) {
			const z3::expr reported = land(hand(flag), in_range(c_, j) ? present(q_[j]) : F);
			all = land(all, limplies(land(own_ev_[j].of(flag), lnot(reported)),
						 land(present(t_[j]), ref_end[j].of(flag))));
			all = land(all, limplies(brought_[j].of(flag), land(present(t_[j]), ref_end[j].of(flag))));
		}
	}
	return all;
}

} // namespace

call_ledger settle_call(const call& c, const geometry& geo, const std::vector<z3::expr>& q,
			const std::vector<z3::expr>& t, const std::vector<sym_flags>& pending,
			const sym_flags& rf, const std::vector<sym_event>& events, const same_folio_fn& same_folio,
			const std::optional<z3::expr>& value, const std::vector<sym_flags>* optional)
{
	return settlement(c, geo, q, t, pending, rf, events, same_folio, value, optional).settle();
}

} // namespace ptespec::proofs
