// The reference spec's ledger (model/checker.h), stated over symbolic
// tables for the tables the obligations start from: runs whose CONT
// entries each map pages of one folio (the invariant of reachable tables,
// proofs/invariant.h), any call kind.  There the checker's unit of an
// event is "every valid page of the run in its folio" when it landed in a
// CONT entry and "its own page while present" otherwise, so a page set
// never needs to be symbolic: a pending flag is one boolean per page.  A
// present page is valid or PROT_NONE; the ledger follows both, as the
// checker's does.
//
// This is the spec, not a strategy: it reads the table and the results the
// strategy produced, never the strategy's code.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include <z3++.h>

#include "model/call.h"
#include "model/geometry.h"
#include "model/symbolic_machine.h"

namespace ptespec::proofs {

// Young and dirty as two booleans (the checker's FLAG_YOUNG, FLAG_DIRTY).
struct sym_flags {
	z3::expr y, d;
	z3::expr of(unsigned flag) const { return flag == 1 ? y : d; }
};

sym_flags no_flags(z3::context& ctx);
sym_flags own_flags(const z3::expr& e);
sym_flags operator|(const sym_flags& a, const sym_flags& b);
// a is included in b.
z3::expr subset(const sym_flags& a, const sym_flags& b);

// What the reference ptep_get reads for each page of table t (checker.cpp's
// ref_flags): a valid CONT entry its run's OR (built once per run), any
// other present entry -- a PROT_NONE one too -- its own flags.
std::vector<sym_flags> ref_flags(const std::vector<z3::expr>& t, const geometry& geo);

// What a call reported, as the checker counts it: the returned entry's own
// flags when the entry was present (valid or PROT_NONE) at call begin.
sym_flags reported_flags(const sym_call_result& r, const z3::expr& first_at_begin);

// The checker's bookkeeping at the end of one call, for one folio.
struct call_ledger {
	std::vector<sym_flags> pending_after;	// per page: required flags afterwards
	// Per page: optional flags afterwards -- reportable, owed by nobody
	// (the checker's event_ledger): an event the call discharged that may
	// still sit in an entry it reached, a flag a widened consumption took
	// off a page it did not clear.
	std::vector<sym_flags> optional_after;
	z3::expr per_call;	// the report includes what was pending at call begin
	z3::expr no_loss;	// every live event is reported or still visible
};

// Whether two valid words map pages of one folio (the world's layout).
using same_folio_fn = std::function<z3::expr(const z3::expr&, const z3::expr&)>;

// q: table at call begin, t: at its end, pending: required flags per page at
// begin (the live events are taken to be exactly the pending ones),
// events: the machine's events of this call.  same_folio: for a call that
// may widen its consumption to the folded runs of its folio (the young and
// dirty clears); without it no page outside the range counts as reached.
// value: the word the call passes (set_ptes, the mprotect commit,
// ptep_set_access_flags), whose young and dirty the call brings itself.
// optional: the optional flags per page at begin (none when not given).
// A run the call folds (every entry valid, CONT and of one folio at its
// end, not at its begin) makes each page's required and optional flags the
// whole run's, as the checker's fold.
call_ledger settle_call(const call& c, const geometry& geo, const std::vector<z3::expr>& q,
			const std::vector<z3::expr>& t, const std::vector<sym_flags>& pending,
			const sym_flags& rf, const std::vector<sym_event>& events,
			const same_folio_fn& same_folio = {}, const std::optional<z3::expr>& value = std::nullopt,
			const std::vector<sym_flags>* optional = nullptr);

} // namespace ptespec::proofs
