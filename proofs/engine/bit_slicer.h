// Branch conditions at bit level, for the path oracle (path_oracle.h).
//
// A strategy branches on a few bits of a word (young, dirty, valid, CONT),
// but the word is a deep bit-vector term: an entry after many hardware
// slots, an OR of flags over a whole run.  Asking the solver about such a
// term costs time proportional to the whole term at every branch.  The
// slicer rewrites a boolean into an equivalent one over the bits it
// actually reads: bit i of an OR is the OR of bit i, of an ite the ite of
// bit i, of a numeral a constant; so young(or_flags(a, b)) becomes
// young(a) || young(b), and a bit that is the same on every path of a term
// (VALID after a hardware update) folds to a constant on the way.
//
// The rewrite is exact (each rule is the definition of the operator at one
// bit); an operator it does not know keeps its term and reads the bit with
// an extract.  Results are memoised by term for the slicer's lifetime, so
// a condition that extends the last one by one entry costs one entry.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <z3++.h>

namespace ptespec::proofs {

class bit_slicer {
public:
	explicit bit_slicer(z3::context& ctx) : ctx_(ctx), true_(ctx.bool_val(true)), false_(ctx.bool_val(false)) {}

	// A boolean equivalent to b, over single bits of the words b reads;
	// true or false when b is constant.
	z3::expr truth(const z3::expr& b);

private:
	z3::expr slice_truth(const z3::expr& b);
	z3::expr equal(const z3::expr& x, const z3::expr& y);
	// Bit i of word w, as a boolean.
	z3::expr bit(const z3::expr& w, unsigned i);
	z3::expr slice_bit(const z3::expr& w, unsigned i);
	z3::expr extracted(const z3::expr& w, unsigned i);

	// The connectives, folding constants and equal operands as they build.
	z3::expr not_(const z3::expr& x);
	z3::expr and_(const z3::expr& x, const z3::expr& y);
	z3::expr or_(const z3::expr& x, const z3::expr& y);
	z3::expr iff(const z3::expr& x, const z3::expr& y);
	z3::expr ite(const z3::expr& c, const z3::expr& a, const z3::expr& b);

	z3::context& ctx_;
	const z3::expr true_, false_;
	std::unordered_map<unsigned, z3::expr> truths_;
	std::unordered_map<std::uint64_t, z3::expr> bits_;
	std::vector<z3::expr> keep_;
};

} // namespace ptespec::proofs
