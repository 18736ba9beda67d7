// Running a model call on a strategy struct.  Every call kind of
// PTESPEC_CALLS (kernel/shim/include/ptespec/calls.h) is the strategy's
// member function of the call's name, given the call's arguments in the
// shape the list says -- or, for a strategy without it, core-mm's generic
// definition over the strategy's other calls, where core-mm has one.
// Whether a strategy has a call is decided at compile time (implements_call).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "model/call.h"
#include "model/errors.h"
#include "model/machine.h"
#include "model/pte.h"
#include "model/word.h"

namespace ptespec {

// A call must name entries inside the table, and the table must hold whole
// runs (a kernel page table always does): strategies index a run without
// bounds checks, as the kernel does.  Bad input, so usage_error.
inline void check_call_range(const call& c, std::size_t table_size, const geometry& geo)
{
	if (table_size % geo.cont_ptes != 0)
		throw usage_error("table of " + std::to_string(table_size) + " entries: expected a multiple of CONT_PTES (" +
				  std::to_string(geo.cont_ptes) + ")");
	const std::size_t nr = takes_nr(c.kind) ? c.nr : 1;
	if (nr == 0 || c.index >= table_size || nr > table_size - c.index)
		throw usage_error(describe(c) + ": expected nr >= 1 and entries inside a table of " +
				  std::to_string(table_size));
}

// What dispatch hands back on machine M: values and truths for concrete
// words; the symbolic machine specialises it to keep the terms.
template <class M>
struct dispatch_result {
	using W = typename M::word;
	using type = call_result;
	static std::uint64_t value(const W& w) { return word_ops<W>::value(w); }
	static bool truth(const typename M::boolean& b) { return static_cast<bool>(word_ops<W>::truth(b)); }
};

// The value call c passes on machine m: a machine that gives calls
// arguments of its own (the proofs' symbolic one) answers; otherwise the
// call's concrete word.
template <class M>
typename M::word call_argument(M& m, const call& c)
{
	if constexpr (requires { m.argument(c); })
		return m.argument(c);
	else
		return m.lit(c.pte);
}

// strategy_member<K>::call(s, m, args...) is s.NAME(m, args...), NAME the
// name of call kind K.
template <call_kind K>
struct strategy_member;

#define PTESPEC_STRATEGY_MEMBER(name, result, args)                                                \
	template <>                                                                                \
	struct strategy_member<call_kind::name> {                                                  \
		template <class S, class M, class... A>                                            \
		static auto call(S& s, M& m, A&&... a) -> decltype(s.name(m, std::forward<A>(a)...)) \
		{                                                                                  \
			return s.name(m, std::forward<A>(a)...);                                   \
		}                                                                                  \
	};
PTESPEC_CALLS(PTESPEC_STRATEGY_MEMBER)
#undef PTESPEC_STRATEGY_MEMBER

// own_call<K>::run(s, m, c): the strategy's own member for K, given c's
// arguments in K's shape.  It exists (for overload resolution) only when
// the strategy has such a member.
template <call_kind K, call_args_shape A = shape_of(K).args>
struct own_call;

#define PTESPEC_OWN_CALL(shape, ...)                                                                    \
	template <call_kind K>                                                                          \
	struct own_call<K, call_args_shape::shape> {                                                    \
		template <class S, class M>                                                             \
		static auto run(S& s, M& m, const call& c) -> decltype(strategy_member<K>::call(s, m, __VA_ARGS__)) \
		{                                                                                       \
			return strategy_member<K>::call(s, m, __VA_ARGS__);                             \
		}                                                                                       \
	};
PTESPEC_OWN_CALL(entry, c.index)
PTESPEC_OWN_CALL(entry_full, c.index, c.full)
PTESPEC_OWN_CALL(entry_value_dirty, c.index, call_argument(m, c), c.flags != 0)
PTESPEC_OWN_CALL(batch, c.index, c.nr)
PTESPEC_OWN_CALL(batch_full, c.index, c.nr, c.full)
PTESPEC_OWN_CALL(batch_flags, c.index, c.nr, c.flags)
PTESPEC_OWN_CALL(range, c.index, c.nr)
PTESPEC_OWN_CALL(range_value, c.index, call_argument(m, c), c.nr)
// A hugetlb call's c.nr (huge_range's c.flags) counts the hugepage's
// entries in the call's table; the strategy is given its size in pages.
PTESPEC_OWN_CALL(huge, c.index, c.nr * m.geo().entry_pages())
PTESPEC_OWN_CALL(huge_value, c.index, call_argument(m, c), c.nr * m.geo().entry_pages())
PTESPEC_OWN_CALL(huge_value_dirty, c.index, call_argument(m, c), c.flags != 0, c.nr * m.geo().entry_pages())
PTESPEC_OWN_CALL(huge_range, c.index, c.nr, c.flags * m.geo().entry_pages())
#undef PTESPEC_OWN_CALL

// Core-mm's generic test_and_clear_young_ptes / clear_flush_young_ptes
// (include/linux/pgtable.h), for a strategy that has only the one-entry
// call: that call on each entry of the batch, every one made (the loop
// never stops at the first young entry), the answers ORed.
template <class One>
auto generic_young_ptes(const call& c, One one)
{
	auto young = one(c.index);
	for (std::size_t k = 1; k < c.nr; k++) {
		const auto y = one(c.index + k);
		young = young || y;
	}
	return young;
}

// Core-mm's generic modify_prot_start_ptes, for a strategy without it:
// ptep_modify_prot_start on each entry -- whose generic definition is
// ptep_get_and_clear -- the first value with the young and dirty of every
// entry ORed in.
template <class W, class One>
W generic_modify_prot_start_ptes(const call& c, One one)
{
	W pte = one(c.index);
	for (std::size_t k = 1; k < c.nr; k++)
		pte = pte_or_flags(pte, one(c.index + k));
	return pte;
}

// core_mm_call<K>::run(s, m, c): core-mm's generic definition of call kind
// K over the strategy's other calls, for a strategy without its own; it
// exists only where core-mm has one and the strategy has what it uses.
template <call_kind K>
struct core_mm_call {};

// Core-mm's generic definition, which every strategy has: a swap entry or
// marker is cleared by a plain store (arm64's pte_clear), since no run
// holds a non-present entry.
template <>
struct core_mm_call<call_kind::clear_non_present_ptes> {
	template <class S, class M>
	static void run(S&, M& m, const call& c)
	{
		for (std::size_t k = 0; k < c.nr; k++)
			m.write(c.index + k, m.lit(0));
	}
};

template <>
struct core_mm_call<call_kind::test_and_clear_young_ptes> {
	template <class S, class M>
	static auto run(S& s, M& m, const call& c) -> decltype(s.ptep_test_and_clear_young(m, c.index))
	{
		return generic_young_ptes(c, [&](std::size_t i) { return s.ptep_test_and_clear_young(m, i); });
	}
};

template <>
struct core_mm_call<call_kind::clear_flush_young_ptes> {
	template <class S, class M>
	static auto run(S& s, M& m, const call& c) -> decltype(s.ptep_clear_flush_young(m, c.index))
	{
		return generic_young_ptes(c, [&](std::size_t i) { return s.ptep_clear_flush_young(m, i); });
	}
};

template <>
struct core_mm_call<call_kind::modify_prot_start_ptes> {
	template <class S, class M>
	static auto run(S& s, M& m, const call& c) -> decltype(s.ptep_get_and_clear(m, c.index))
	{
		using W = typename M::word;
		return generic_modify_prot_start_ptes<W>(c, [&](std::size_t i) { return s.ptep_get_and_clear(m, i); });
	}
};

// Core-mm's generic commit: ptep_modify_prot_commit, a set_pte_at, entry
// by entry.
template <>
struct core_mm_call<call_kind::modify_prot_commit_ptes> {
	template <class S, class M>
	static auto run(S& s, M& m, const call& c) -> decltype(s.set_ptes(m, c.index, call_argument(m, c), c.nr))
	{
		const typename M::word pte = call_argument(m, c);
		for (std::size_t k = 0; k < c.nr; k++)
			s.set_ptes(m, c.index + k, pte_advance_pfn(pte, k, m.geo()), 1);
	}
};

template <call_kind K, class S, class M>
concept has_own_call = requires(S& s, M& m, const call& c) { own_call<K>::run(s, m, c); };

template <call_kind K, class S, class M>
concept has_core_mm_call = requires(S& s, M& m, const call& c) { core_mm_call<K>::run(s, m, c); };

// Whether strategy S on machine M provides call kind K: its own member, or
// core-mm's generic definition over its other calls.
template <call_kind K, class S, class M>
concept implements_call = has_own_call<K, S, M> || has_core_mm_call<K, S, M>;

// implements_call for every call kind, indexed by call_kind.
template <class S, class M>
constexpr std::array<bool, nr_call_kinds> implemented_calls()
{
	return {
#define PTESPEC_IMPLEMENTS(name, result, args) implements_call<call_kind::name, S, M>,
		PTESPEC_CALLS(PTESPEC_IMPLEMENTS)
#undef PTESPEC_IMPLEMENTS
	};
}

template <call_kind K, class S, class M>
	requires implements_call<K, S, M>
auto run_strategy_call(S& s, M& m, const call& c)
{
	if constexpr (has_own_call<K, S, M>)
		return own_call<K>::run(s, m, c);
	else
		return core_mm_call<K>::run(s, m, c);
}

// Call c, of kind K, on strategy instance s over machine m; its answer
// where K's result shape says.
template <call_kind K, class S, class M>
typename dispatch_result<M>::type dispatch_call(S& s, M& m, const call& c)
{
	using R = dispatch_result<M>;
	constexpr call_result_shape result = shape_of(K).result;
	typename R::type r;
	if constexpr (!implements_call<K, S, M>)
		throw internal_error(std::string("strategy does not implement ") + std::string(to_string(K)));
	else if constexpr (result == call_result_shape::none)
		run_strategy_call<K>(s, m, c);
	else if constexpr (result == call_result_shape::pte)
		r.pte = R::value(run_strategy_call<K>(s, m, c));
	else if constexpr (result == call_result_shape::young)
		r.young = R::truth(run_strategy_call<K>(s, m, c));
	else
		r.changed = R::truth(run_strategy_call<K>(s, m, c));
	return r;
}

// Runs call c on strategy instance s over machine m.  Calls the strategy
// does not provide throw internal_error; callers ask implements() first.
template <class S, class M>
typename dispatch_result<M>::type dispatch(S& s, M& m, const call& c)
{
	check_call_range(c, m.size(), m.geo());
	switch (c.kind) {
#define PTESPEC_DISPATCH(name, result, args) \
	case call_kind::name:                \
		return dispatch_call<call_kind::name>(s, m, c);
		PTESPEC_CALLS(PTESPEC_DISPATCH)
#undef PTESPEC_DISPATCH
	}
	throw internal_error("call kind " + std::to_string(static_cast<int>(c.kind)) + " is no call ptespec knows");
}

} // namespace ptespec
