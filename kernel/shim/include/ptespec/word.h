/*
 * The symbolic build of a tree (PTESPEC_SYMBOLIC, the same sources and the
 * same shims compiled a second time, as C++): a pte word is a handle to a
 * term the host keeps, 8 bytes like the kernel's u64, so the table stays a
 * real array of 8-byte entries aligned to a run and the tree's pointer
 * arithmetic on pte pointers means what it means in the kernel.
 *
 * Every operator on a word asks the host for the term of the result.  Where
 * the tree decides on a word (an if, a WARN_ON, a loop test, a bool it keeps)
 * the host answers which side this path takes; where it turns a word into a
 * plain integer (a pfn for pfn_to_page, a count) the host answers the value
 * this path has, by deciding the word's bits one by one.  So the tree's own
 * control flow runs unchanged, one run per path, and only the pte words stay
 * terms.
 */
#ifndef PTESPEC_WORD_H
#define PTESPEC_WORD_H

#ifdef __cplusplus

#include <stdint.h>
#include <string.h>
#include <type_traits>

uint64_t ptespec_word_lit(uint64_t value);
uint64_t ptespec_word_op(int op, uint64_t a, uint64_t b);
int ptespec_word_decide(uint64_t truth);
uint64_t ptespec_word_value(uint64_t word);
void ptespec_word_pure(int enter);
uint64_t ptespec_word_ite(uint64_t cond, uint64_t a, uint64_t b);
int ptespec_word_rmw(int step, uint64_t truth);

template <class T>
inline constexpr bool ptespec_plain_v = std::is_integral_v<T> || std::is_enum_v<T>;

struct ptespec_word;

/*
 * A truth about words, and the tree's bool (the prelude makes `bool` this
 * type): a flag the tree accumulates (young |= pte_young(pte)) stays a
 * term, so a loop that ORs a run's flags is one path, not one per
 * combination of flags.  The tree decides only where C decides: an if, a
 * loop test, &&, ||, ?: and a conversion to int.
 */
struct ptespec_truth {
	uint64_t h;

	ptespec_truth() = default;
	/* C's 0 and 1. */
	template <class T, std::enable_if_t<ptespec_plain_v<T>, int> = 0>
	ptespec_truth(T v)
		: h(ptespec_word_op(PTESPEC_OP_EQ, ptespec_word_lit(0), ptespec_word_lit(v ? 0 : 1)))
	{
	}
	/* A word as a bool: word != 0. */
	ptespec_truth(const ptespec_word &w);
	static ptespec_truth of_handle(uint64_t h)
	{
		ptespec_truth t;
		t.h = h;
		return t;
	}

	/* Where C decides: the side this path takes. */
	operator bool() const { return ptespec_word_decide(h) != 0; }

	ptespec_truth operator!() const { return of_handle(ptespec_word_op(PTESPEC_OP_LNOT, h, h)); }
	ptespec_truth &operator|=(ptespec_truth o)
	{
		h = ptespec_word_op(PTESPEC_OP_LOR, h, o.h);
		return *this;
	}
	ptespec_truth &operator&=(ptespec_truth o)
	{
		h = ptespec_word_op(PTESPEC_OP_LAND, h, o.h);
		return *this;
	}
	ptespec_truth &operator^=(ptespec_truth o)
	{
		h = ptespec_word_op(PTESPEC_OP_LXOR, h, o.h);
		return *this;
	}
};

/*
 * `a && b`, `a || b` of two truths: a term, both sides evaluated (a pte
 * macro's `pte_write(pte) && !pte_rdonly(pte)` is then no decision).  The
 * left side is converted just before the right side is evaluated: from
 * there to the operator the host refuses a primitive or a WARN, which C
 * might not have reached, and ends the path undecided instead.  With a
 * plain bool on either side C's && decides as ever.
 */
struct ptespec_truth_lhs {
	uint64_t h;
	ptespec_truth_lhs(ptespec_truth t) : h(t.h)
	{
		ptespec_word_pure(1);
	}
};
static inline ptespec_truth operator&&(ptespec_truth_lhs a, ptespec_truth b)
{
	ptespec_word_pure(0);
	return ptespec_truth::of_handle(ptespec_word_op(PTESPEC_OP_LAND, a.h, b.h));
}
static inline ptespec_truth operator||(ptespec_truth_lhs a, ptespec_truth b)
{
	ptespec_word_pure(0);
	return ptespec_truth::of_handle(ptespec_word_op(PTESPEC_OP_LOR, a.h, b.h));
}

static inline ptespec_truth operator|(ptespec_truth a, ptespec_truth b)
{
	return a |= b;
}
static inline ptespec_truth operator&(ptespec_truth a, ptespec_truth b)
{
	return a &= b;
}
static inline ptespec_truth operator^(ptespec_truth a, ptespec_truth b)
{
	return a ^= b;
}

struct ptespec_word {
	uint64_t h;

	ptespec_word() = default;
	/* A constant, as C converts it to a 64-bit unsigned word. */
	template <class T, std::enable_if_t<ptespec_plain_v<T>, int> = 0>
	ptespec_word(T v) : h(ptespec_word_lit(static_cast<uint64_t>(v)))
	{
	}
	static ptespec_word of_handle(uint64_t h)
	{
		ptespec_word w;
		w.h = h;
		return w;
	}

	/* if (word): this path's side of word != 0. */
	explicit operator bool() const { return ptespec_word_decide(ptespec_word_op(PTESPEC_OP_NE, h, ptespec_word_lit(0))) != 0; }
	/* A plain integer: the value this path gives the word.  Not int: so
	 * that `c ? word : 0` (arm64's PTE_MAYBE_NG) has one meaning in C++,
	 * the word, as it has in C; a word meant as an int is cast to another
	 * integer type first. */
	template <class T, std::enable_if_t<ptespec_plain_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, int>, int> = 0>
	operator T() const
	{
		return static_cast<T>(ptespec_word_value(h));
	}

	ptespec_word operator~() const { return of_handle(ptespec_word_op(PTESPEC_OP_NOT, h, h)); }
	ptespec_word operator-() const { return of_handle(ptespec_word_op(PTESPEC_OP_SUB, ptespec_word_lit(0), h)); }
	ptespec_word operator+() const { return *this; }
	ptespec_truth operator!() const { return ptespec_truth::of_handle(ptespec_word_op(PTESPEC_OP_EQ, h, ptespec_word_lit(0))); }
};

inline ptespec_truth::ptespec_truth(const ptespec_word &w)
	: h(ptespec_word_op(PTESPEC_OP_NE, w.h, ptespec_word_lit(0)))
{
}

static inline ptespec_word ptespec_as_word(ptespec_word w)
{
	return w;
}
template <class T, std::enable_if_t<ptespec_plain_v<T>, int> = 0>
static inline ptespec_word ptespec_as_word(T v)
{
	return ptespec_word(v);
}

/* Binary operators: word with word, and with a plain integer on either side. */
#define PTESPEC_WORD_BINARY(sym, op, result, wrap)                                                       \
	static inline result operator sym(ptespec_word a, ptespec_word b)                                   \
	{                                                                                                   \
		return wrap(ptespec_word_op(op, a.h, b.h));                                                  \
	}                                                                                                   \
	template <class T, std::enable_if_t<ptespec_plain_v<T>, int> = 0>                                   \
	static inline result operator sym(ptespec_word a, T b)                                              \
	{                                                                                                   \
		return a sym ptespec_word(b);                                                                \
	}                                                                                                   \
	template <class T, std::enable_if_t<ptespec_plain_v<T>, int> = 0>                                   \
	static inline result operator sym(T a, ptespec_word b)                                              \
	{                                                                                                   \
		return ptespec_word(a) sym b;                                                                \
	}
#define PTESPEC_AS_WORD(h) ptespec_word::of_handle(h)
#define PTESPEC_AS_TRUTH(h) ptespec_truth::of_handle(h)
PTESPEC_WORD_BINARY(&, PTESPEC_OP_AND, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(|, PTESPEC_OP_OR, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(^, PTESPEC_OP_XOR, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(+, PTESPEC_OP_ADD, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(-, PTESPEC_OP_SUB, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(*, PTESPEC_OP_MUL, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(/, PTESPEC_OP_UDIV, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(%, PTESPEC_OP_UREM, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(<<, PTESPEC_OP_SHL, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(>>, PTESPEC_OP_LSHR, ptespec_word, PTESPEC_AS_WORD)
PTESPEC_WORD_BINARY(==, PTESPEC_OP_EQ, ptespec_truth, PTESPEC_AS_TRUTH)
PTESPEC_WORD_BINARY(!=, PTESPEC_OP_NE, ptespec_truth, PTESPEC_AS_TRUTH)
PTESPEC_WORD_BINARY(<, PTESPEC_OP_ULT, ptespec_truth, PTESPEC_AS_TRUTH)
PTESPEC_WORD_BINARY(<=, PTESPEC_OP_ULE, ptespec_truth, PTESPEC_AS_TRUTH)
PTESPEC_WORD_BINARY(>, PTESPEC_OP_UGT, ptespec_truth, PTESPEC_AS_TRUTH)
PTESPEC_WORD_BINARY(>=, PTESPEC_OP_UGE, ptespec_truth, PTESPEC_AS_TRUTH)
#undef PTESPEC_WORD_BINARY
#undef PTESPEC_AS_WORD
#undef PTESPEC_AS_TRUTH

#define PTESPEC_WORD_ASSIGN(sym)                                                                         \
	template <class T>                                                                                  \
	static inline ptespec_word& operator sym##=(ptespec_word& a, T b)                                   \
	{                                                                                                   \
		a = a sym ptespec_as_word(b);                                                                \
		return a;                                                                                    \
	}
PTESPEC_WORD_ASSIGN(&)
PTESPEC_WORD_ASSIGN(|)
PTESPEC_WORD_ASSIGN(^)
PTESPEC_WORD_ASSIGN(+)
PTESPEC_WORD_ASSIGN(-)
PTESPEC_WORD_ASSIGN(<<)
PTESPEC_WORD_ASSIGN(>>)
#undef PTESPEC_WORD_ASSIGN

/* A plain integer updated by a word takes the word's value on this path
 * (pmd_val(pmd) &= ~PTE_...: a pmd is no term). */
#define PTESPEC_PLAIN_ASSIGN(sym)                                                                        \
	template <class T, std::enable_if_t<ptespec_plain_v<T> && !std::is_same_v<T, bool>, int> = 0>       \
	static inline T& operator sym##=(T& a, ptespec_word b)                                              \
	{                                                                                                   \
		a = static_cast<T>(a sym static_cast<uint64_t>(b));                                         \
		return a;                                                                                    \
	}
PTESPEC_PLAIN_ASSIGN(&)
PTESPEC_PLAIN_ASSIGN(|)
PTESPEC_PLAIN_ASSIGN(^)
PTESPEC_PLAIN_ASSIGN(+)
PTESPEC_PLAIN_ASSIGN(-)
#undef PTESPEC_PLAIN_ASSIGN

static inline ptespec_word& operator++(ptespec_word& a)
{
	return a += 1;
}
static inline ptespec_word operator++(ptespec_word& a, int)
{
	const ptespec_word old = a;
	a += 1;
	return old;
}

/*
 * An if-converted statement (kernel/if_convert.h): `if (C) V = E;` became
 * `V = ptespec_select((C), [&]() { return (E); }, V);`.  A pte word or a
 * truth takes ite(C, E, V), E computed on both sides -- a primitive or a
 * WARN in it ends the path undecided, as C would not reach it where C is
 * false.
 * Any other type decides as the `if` did.
 */
template <class T>
struct ptespec_holds_word;
template <class C, class F, class T>
static inline T ptespec_select(const C &cond, F then, const T &old)
{
	if constexpr ((ptespec_holds_word<T>::value || std::is_same_v<T, ptespec_truth>) &&
		      (std::is_same_v<C, ptespec_truth> || std::is_same_v<C, ptespec_word> || ptespec_plain_v<C>)) {
		const ptespec_truth c = cond;
		uint64_t hv, ho, h;
		T r;

		ptespec_word_pure(1);
		const T v = then();
		ptespec_word_pure(0);
		static_assert(sizeof(T) == sizeof(h), "a pte word and a truth are 8 bytes");
		memcpy(&hv, &v, sizeof(hv));
		memcpy(&ho, &old, sizeof(ho));
		h = ptespec_word_ite(c.h, hv, ho);
		memcpy(&r, &h, sizeof(r));
		return r;
	} else {
		if (cond)
			return then();
		return old;
	}
}

/*
 * A read-modify-write loop (kernel/rmw_loop.h): the top of an iteration, and
 * the loop's test (a truth, a word or a plain value), answered by the host.
 */
static inline void ptespec_rmw_begin()
{
	ptespec_word_rmw(0, 0);
}
template <class C>
static inline int ptespec_rmw_again(const C &cond)
{
	const ptespec_truth t = cond;
	return ptespec_word_rmw(1, t.h);
}

/*
 * Which types hold a pte word (pteval_t, pte_t, pgprot_t): an access to the
 * table through any other type would read a handle as a value, so the
 * primitives refuse it.  The types header marks pte_t and pgprot_t.
 */
template <class T>
struct ptespec_holds_word : std::is_same<std::remove_cv_t<T>, ptespec_word> {
};

/* The word as the host passes it (a handle), and back. */
#define ptespec_to_host(w) (ptespec_as_word(w).h)
#define ptespec_from_host(u) ptespec_word::of_handle(u)

#else /* C: a pte word is the kernel's u64 */

#define ptespec_to_host(w) ((uint64_t)(w))
#define ptespec_from_host(u) (u)

#endif /* __cplusplus */

#endif /* PTESPEC_WORD_H */
