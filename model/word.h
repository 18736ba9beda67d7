// The word a PTE is evaluated on.
//
// Every helper and every strategy is written once, as a template over the
// word type W, and runs on a concrete uint64_t, on an instrumented word that
// counts its operations (tests), and on a Z3 bit-vector (proofs).  A word type
// plugs in by specialising word_ops<W>; the rest of the code uses only the
// operators &, |, ^, ~ on W, the boolean operators &&, ||, ! on
// word_ops<W>::boolean, and the few functions below.
//
// Decisions on flag bits go through select() rather than an if, so a
// symbolic word never forks a path where a merged value will do.
#pragma once

#include <concepts>
#include <cstdint>

namespace ptespec {

template <class W>
struct word_ops;

template <>
struct word_ops<std::uint64_t> {
	using boolean = bool;

	// A constant in the same "space" as w (a Z3 word needs its context).
	static constexpr std::uint64_t lit(std::uint64_t, std::uint64_t v) { return v; }
	static constexpr bool nonzero(std::uint64_t w) { return w != 0; }
	static constexpr bool equal(std::uint64_t a, std::uint64_t b) { return a == b; }
	static constexpr std::uint64_t select(bool c, std::uint64_t a, std::uint64_t b) { return c ? a : b; }
	static constexpr bool select(bool c, bool a, bool b) { return c ? a : b; }
	static constexpr std::uint64_t lshr(std::uint64_t w, unsigned n) { return w >> n; }
	static constexpr std::uint64_t shl(std::uint64_t w, unsigned n) { return w << n; }
	static constexpr std::uint64_t value(std::uint64_t w) { return w; }
	static constexpr std::uint64_t from(std::uint64_t v) { return v; }
	static constexpr bool truth(bool b) { return b; }
};

template <class W>
using boolean_of = typename word_ops<W>::boolean;

// What the model needs of a word; checked where strategies are instantiated.
template <class W>
concept pte_word = requires(const W& a, const W& b, unsigned n, boolean_of<W> c) {
	{ a & b } -> std::convertible_to<W>;
	{ a | b } -> std::convertible_to<W>;
	{ a ^ b } -> std::convertible_to<W>;
	{ a + b } -> std::convertible_to<W>;
	{ ~a } -> std::convertible_to<W>;
	{ word_ops<W>::lit(a, std::uint64_t{0}) } -> std::convertible_to<W>;
	{ word_ops<W>::nonzero(a) } -> std::convertible_to<boolean_of<W>>;
	{ word_ops<W>::equal(a, b) } -> std::convertible_to<boolean_of<W>>;
	{ word_ops<W>::select(c, a, b) } -> std::convertible_to<W>;
	{ word_ops<W>::lshr(a, n) } -> std::convertible_to<W>;
	{ word_ops<W>::shl(a, n) } -> std::convertible_to<W>;
	{ c && c } -> std::convertible_to<boolean_of<W>>;
	{ c || c } -> std::convertible_to<boolean_of<W>>;
	{ !c } -> std::convertible_to<boolean_of<W>>;
};

// Short spellings used throughout the helpers.
template <class W>
inline W lit_like(const W& like, std::uint64_t v) { return word_ops<W>::lit(like, v); }

template <class W>
inline W select(const boolean_of<W>& c, const W& a, const W& b) { return word_ops<W>::select(c, a, b); }

static_assert(pte_word<std::uint64_t>);

} // namespace ptespec
