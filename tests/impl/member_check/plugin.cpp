// Negative controls of the member check (impl/member_check.h): a plugin
// whose strategy has a member ptespec would never call does not build, and
// the compiler's message names the member.  One source, built by
// tests/impl/CMakeLists.txt once per defect and once without any (the
// positive control: the harness itself builds).
//
//   PTESPEC_TEST_WRONG_ARGUMENTS  ptep_get_and_clear_full without `full`
//   PTESPEC_TEST_HIDDEN_OVERLOAD  contpte_try_fold(m, i, pte) alone, which
//                                 hides the call contpte_try_fold(m, i)
//   PTESPEC_TEST_RETIRED_NAME     contpte_ptep_test_and_clear_young, which
//                                 mainline_ops had before the batched young
//                                 calls replaced it

#include <cstddef>

#include "impl/mainline.h"
#include "impl/plugin_api.h"

namespace {

template <class M>
struct misnamed : ptespec::mainline_ops<M, misnamed<M>> {
	using W = typename M::word;
	using B = typename M::boolean;

#ifdef PTESPEC_TEST_WRONG_ARGUMENTS
	W ptep_get_and_clear_full(M& m, std::size_t i) { return this->self().ptep_get_and_clear(m, i); }
#endif
#ifdef PTESPEC_TEST_HIDDEN_OVERLOAD
	void contpte_try_fold(M& m, std::size_t i, const W& pte)
	{
		ptespec::mainline_ops<M, misnamed<M>>::contpte_try_fold(m, i, pte);
	}
#endif
#ifdef PTESPEC_TEST_RETIRED_NAME
	B contpte_ptep_test_and_clear_young(M& m, std::size_t i) { return this->self().__ptep_test_and_clear_young(m, i); }
#endif
};

} // namespace

PTESPEC_PLUGIN(misnamed, "test-misnamed", "mainline, with a member ptespec would never call");
