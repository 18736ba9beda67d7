// A PTE word as a Z3 64-bit bit-vector, so the helpers of model/pte.h and
// every strategy of impl/ run unchanged on symbolic values (the proofs).
//
// Booleans are Z3 booleans; select is ite, so a flag decision written as a
// select() merges into one term instead of forking a path.  Shifts and
// comparisons are the unsigned bit-vector operators: a PTE is never signed.
#pragma once

#include <cstdint>

#include <z3++.h>

#include "model/word.h"

namespace ptespec {

template <>
struct word_ops<z3::expr> {
	using boolean = z3::expr;

	// A constant needs the context of the word it is combined with.
	static z3::expr lit(const z3::expr& like, std::uint64_t v) { return like.ctx().bv_val(v, 64); }
	static z3::expr nonzero(const z3::expr& w) { return w != w.ctx().bv_val(0, 64); }
	static z3::expr equal(const z3::expr& a, const z3::expr& b) { return a == b; }
	// One overload serves words and booleans: ite is sort-polymorphic.
	static z3::expr select(const z3::expr& c, const z3::expr& a, const z3::expr& b) { return z3::ite(c, a, b); }
	static z3::expr lshr(const z3::expr& w, unsigned n) { return z3::lshr(w, static_cast<int>(n)); }
	static z3::expr shl(const z3::expr& w, unsigned n) { return z3::shl(w, static_cast<int>(n)); }
};

static_assert(pte_word<z3::expr>);

} // namespace ptespec
