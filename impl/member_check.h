// What wrapping a strategy struct checks of its members (impl/adapter.h),
// at compile time: a member ptespec would never call is an error that names
// it, not a call silently left to the base or missing.  Two kinds:
//
//   a member named for a call (calls.h) that the call's arguments cannot
//   reach -- a parameter missing or of another type, or an overload that
//   hides the base's form of the call;
//
//   a member of a strategy built on mainline_ops with a name the base had
//   once and has no more (PTESPEC_RETIRED_MEMBERS): the function it was
//   meant to replace is gone, so nothing calls it.
//
// C++20 cannot list a class's members, so a name that is neither -- a
// misspelling of a call, say -- is not caught here; its call is answered
// by the base.
#pragma once

#include <type_traits>

#include "impl/dispatch.h"
#include "impl/mainline.h"
#include "model/call.h"

// The names the strategy base had and has no more, each with what replaced
// it.
#define PTESPEC_RETIRED_MEMBERS(X)                                                               \
	X(contpte_ptep_test_and_clear_young, "contpte_test_and_clear_young_ptes(m, i, nr)")      \
	X(contpte_ptep_clear_flush_young, "contpte_clear_flush_young_ptes(m, i, nr)")

namespace ptespec {

// has_member_named_NAME<S>: whether S or a base of S has a member NAME of
// any kind.  The probe adds a data member NAME beside S's; naming NAME in
// the class that derives from both is ambiguous exactly when S has one.  A
// final S cannot be derived from, and goes unchecked.
#define PTESPEC_MEMBER_PROBE(name, ...)                                           \
	namespace member_probe {                                                  \
	struct name##_probe {                                                     \
		int name;                                                         \
	};                                                                        \
	template <class S>                                                        \
	struct name##_with : S, name##_probe {};                                  \
	}                                                                         \
	template <class S>                                                        \
	concept has_member_named_##name = !std::is_final_v<S> && !requires { &member_probe::name##_with<S>::name; };
PTESPEC_CALLS(PTESPEC_MEMBER_PROBE)
PTESPEC_RETIRED_MEMBERS(PTESPEC_MEMBER_PROBE)
#undef PTESPEC_MEMBER_PROBE

// Whether S is built on the strategy base (whose names PTESPEC_RETIRED_MEMBERS
// lists): a strategy of its own may name its helpers as it likes.
template <class S, class M>
inline constexpr bool built_on_mainline = std::is_base_of_v<mainline_ops<M, S>, S>;

// Compiles only when S on machine M has no member ptespec would never call;
// the static_assert that fails names the member.
template <class S, class M>
consteval bool check_strategy_members()
{
#define PTESPEC_CHECK_CALL_MEMBER(name, result, args)                                                          \
	static_assert(!has_member_named_##name<S> || has_own_call<call_kind::name, S, M>,                      \
		      "the strategy's " #name "() does not take the arguments of the call " #name                  \
		      " (kernel/shim/include/ptespec/calls.h, impl/dispatch.h): ptespec would never call it");
	PTESPEC_CALLS(PTESPEC_CHECK_CALL_MEMBER)
#undef PTESPEC_CHECK_CALL_MEMBER
#define PTESPEC_CHECK_RETIRED_MEMBER(name, replacement)                                                        \
	static_assert(!built_on_mainline<S, M> || !has_member_named_##name<S>,                                 \
		      "the strategy's " #name "() hides nothing: mainline_ops has no " #name " any more (" replacement \
		      " took its place), so ptespec would never call it");
	PTESPEC_RETIRED_MEMBERS(PTESPEC_CHECK_RETIRED_MEMBER)
#undef PTESPEC_CHECK_RETIRED_MEMBER
	return true;
}

} // namespace ptespec
