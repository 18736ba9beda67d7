// An instrumented word: a uint64_t that counts every operation done on it.
// Strategies and helpers must compile and behave identically on it; the
// counts show the helpers really go through the generic word interface.
#pragma once

#include <cstdint>

#include "model/word.h"

namespace ptespec {

struct word_op_counts {
	std::uint64_t ops = 0;	// bitwise and arithmetic operators
	std::uint64_t selects = 0;
	std::uint64_t tests = 0;	// nonzero / equal
};

struct counted_word {
	std::uint64_t v = 0;

	static word_op_counts& counts()
	{
		static thread_local word_op_counts c;
		return c;
	}
	friend counted_word operator&(counted_word a, counted_word b) { return bump({a.v & b.v}); }
	friend counted_word operator|(counted_word a, counted_word b) { return bump({a.v | b.v}); }
	friend counted_word operator^(counted_word a, counted_word b) { return bump({a.v ^ b.v}); }
	friend counted_word operator+(counted_word a, counted_word b) { return bump({a.v + b.v}); }
	friend counted_word operator~(counted_word a) { return bump({~a.v}); }

private:
	static counted_word bump(counted_word w)
	{
		counts().ops++;
		return w;
	}
};

template <>
struct word_ops<counted_word> {
	using boolean = bool;
	static counted_word lit(const counted_word&, std::uint64_t v) { return {v}; }
	static bool nonzero(const counted_word& w)
	{
		counted_word::counts().tests++;
		return w.v != 0;
	}
	static bool equal(const counted_word& a, const counted_word& b)
	{
		counted_word::counts().tests++;
		return a.v == b.v;
	}
	static counted_word select(bool c, const counted_word& a, const counted_word& b)
	{
		counted_word::counts().selects++;
		return c ? a : b;
	}
	static bool select(bool c, bool a, bool b)
	{
		counted_word::counts().selects++;
		return c ? a : b;
	}
	static counted_word lshr(const counted_word& w, unsigned n) { return {w.v >> n}; }
	static counted_word shl(const counted_word& w, unsigned n) { return {w.v << n}; }
	static std::uint64_t value(const counted_word& w) { return w.v; }
	static counted_word from(std::uint64_t v) { return {v}; }
	static bool truth(bool b) { return b; }
};

static_assert(pte_word<counted_word>);

} // namespace ptespec
