// Random booleans and words of 1..64 bits over a small pool of constants,
// mixing every operator the path oracle's evaluator knows
// (proofs/engine/evaluator.h), for tests that hold it against Z3's own
// evaluation.
//
// Leans on edges: widths 1, 8, 32, 63, 64; numerals 0, 1, all set, the
// sign bit; shifts by the width and past it; extracts at both ends of a
// word.  Few constants per width, so terms share them.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <z3++.h>

#include "proofs/engine/valuation.h"

namespace ptespec::test {

class random_terms {
public:
	random_terms(z3::context& ctx, std::uint64_t seed) : ctx_(ctx), rng_(seed) {}

	z3::expr boolean(int depth)
	{
		if (depth <= 0 || pick(5) == 0)
			return pick(4) == 0 ? ctx_.bool_val(pick(2) == 0) : constant(0);
		switch (pick(12)) {
		case 0: return !boolean(depth - 1);
		case 1: return nary(depth, [](const z3::expr_vector& v) { return z3::mk_and(v); });
		case 2: return nary(depth, [](const z3::expr_vector& v) { return z3::mk_or(v); });
		case 3: return z3::implies(boolean(depth - 1), boolean(depth - 1));
		case 4: return boolean(depth - 1) ^ boolean(depth - 1);
		case 5: return boolean(depth - 1) == boolean(depth - 1);
		case 6: {
			const unsigned w = width();
			return word(w, depth - 1) == word(w, depth - 1);
		}
		case 7: {
			const unsigned w = width();
			z3::expr_vector v(ctx_);
			for (unsigned k = 0, n = 2 + pick(2); k < n; k++)
				v.push_back(word(w, depth - 1));
			return z3::distinct(v);
		}
		case 8: return z3::ite(boolean(depth - 1), boolean(depth - 1), boolean(depth - 1));
		default: {
			const unsigned w = width();
			const z3::expr a = word(w, depth - 1), b = word(w, depth - 1);
			switch (pick(8)) {
			case 0: return z3::ule(a, b);
			case 1: return z3::ult(a, b);
			case 2: return z3::uge(a, b);
			case 3: return z3::ugt(a, b);
			case 4: return a <= b;	// signed, in z3++
			case 5: return a < b;
			case 6: return a >= b;
			default: return a > b;
			}
		}
		}
	}

	z3::expr word(unsigned w, int depth)
	{
		if (depth <= 0 || pick(5) == 0)
			return pick(3) == 0 ? numeral(w) : constant(w);
		const int d = depth - 1;
		switch (pick(16)) {
		case 0: return word(w, d) & word(w, d);
		case 1: return word(w, d) | word(w, d);
		case 2: return word(w, d) ^ word(w, d);
		case 3: return ~word(w, d);
		case 4: return -word(w, d);
		case 5: return word(w, d) + word(w, d);
		case 6: return word(w, d) - word(w, d);
		case 7: return word(w, d) * word(w, d);
		case 8: {
			// From a word as wide or wider, at either end or between.
			const unsigned from = w + pick(64 - w + 1);
			const unsigned lo = pick(3) == 0 ? 0 : pick(from - w + 1);
			return word(from, d).extract(lo + w - 1, lo);
		}
		case 9:
			if (w >= 2) {
				const unsigned hi = 1 + pick(w - 1);
				return z3::concat(word(hi, d), word(w - hi, d));
			}
			return word(w, d);
		case 10:
		case 11:
			if (w >= 2) {
				const unsigned from = 1 + pick(w - 1);
				return pick(2) == 0 ? z3::zext(word(from, d), w - from) : z3::sext(word(from, d), w - from);
			}
			return -word(w, d);
		case 12: return z3::shl(word(w, d), shift(w, d));
		case 13: return z3::lshr(word(w, d), shift(w, d));
		case 14: return z3::ashr(word(w, d), shift(w, d));
		default: return z3::ite(boolean(d), word(w, d), word(w, d));
		}
	}

	// A width, the edges most of the time.
	unsigned width()
	{
		static constexpr unsigned edges[] = {1, 2, 8, 31, 32, 33, 63, 64};
		return pick(2) == 0 ? edges[pick(std::size(edges))] : 1 + pick(64);
	}

	// A value of w bits (1 for a boolean), the edges most of the time.
	std::uint64_t value(unsigned w)
	{
		const std::uint64_t all = proofs::low_bits(w);
		switch (pick(6)) {
		case 0: return 0;
		case 1: return 1;
		case 2: return all;
		case 3: return (all >> 1) + 1;	// the sign bit
		case 4: return all >> 1;
		default: return rng_() & all;
		}
	}

	unsigned pick(std::size_t n) { return static_cast<unsigned>(rng_() % n); }

	// Every constant made so far.
	const std::vector<z3::expr>& constants() const { return made_; }

private:
	z3::expr numeral(unsigned w) { return ctx_.bv_val(value(w), w); }

	// One of three constants of width w (0: a boolean).
	z3::expr constant(unsigned w)
	{
		const std::string name = (w == 0 ? "p" : "x" + std::to_string(w) + "_") + std::to_string(pick(3));
		const z3::expr c = w == 0 ? ctx_.bool_const(name.c_str()) : ctx_.bv_const(name.c_str(), w);
		bool seen = false;
		for (const z3::expr& m : made_)
			seen = seen || z3::eq(m, c);
		if (!seen)
			made_.push_back(c);
		return c;
	}

	// A shift amount: a term, or the edges of the width.
	z3::expr shift(unsigned w, int d)
	{
		if (pick(2) == 0)
			return word(w, d);
		const std::uint64_t edges[] = {0, 1, w - 1u, w, w + 1u, 2u * w};
		return ctx_.bv_val(edges[pick(std::size(edges))] & proofs::low_bits(w), w);
	}

	template <class F>
	z3::expr nary(int depth, F make)
	{
		z3::expr_vector v(ctx_);
		for (unsigned k = 0, n = 2 + pick(2); k < n; k++)
			v.push_back(boolean(depth - 1));
		return make(v);
	}

	z3::context& ctx_;
	std::mt19937_64 rng_;
	std::vector<z3::expr> made_;
};

} // namespace ptespec::test
