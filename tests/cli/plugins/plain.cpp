// Test plugins, one source built several ways (tests/cli/CMakeLists.txt):
//
//   test-plain         never folds; every call is one plain primitive per
//                      entry, so it is correct by construction and needs
//                      nothing from impl/ beyond the plugin API
//   test-broken-batch  PTESPEC_TEST_BROKEN_BATCH: its batch clears only the
//                      first entry, so batch-or fails on any batch of two
//   test-bad-abi       PTESPEC_TEST_PLUGIN_ABI=11: claims another plugin ABI
//   test-no-map        PTESPEC_TEST_NO_MAP: has no set_ptes
//   test-maps-nothing  PTESPEC_TEST_MAPS_NOTHING: has a set_ptes that writes
//                      nothing, so no call ever has an entry to judge
//   test-batch-past-end PTESPEC_TEST_BATCH_PAST_END: its batch loop runs one
//                      entry too far (`<=` for `<`), clearing the entry after
//                      the batch -- outside the table when the batch ends it
//   test-flush-next-run PTESPEC_TEST_FLUSH_NEXT_RUN: a clear flushes the TLB
//                      of the run after the entry's, not its own -- past the
//                      table for the last run
//   test-differs-when-symbolic PTESPEC_TEST_DIFFERS_WHEN_SYMBOLIC: the
//                      broken batch on concrete words, the plain one on
//                      symbolic words -- a strategy whose two instantiations
//                      differ, so the sampled failure and the proofs disagree

#include <cstddef>
#include <type_traits>

#include "impl/plugin_api.h"
#include "model/pte.h"

#ifndef PTESPEC_TEST_PLUGIN_NAME
#define PTESPEC_TEST_PLUGIN_NAME "test-plain"
#endif

namespace {

template <class M>
struct plain {
	using W = typename M::word;

#ifndef PTESPEC_TEST_NO_MAP
	void set_ptes(M& m, std::size_t i, W pte, std::size_t nr)
	{
#ifndef PTESPEC_TEST_MAPS_NOTHING
		for (std::size_t k = 0; k < nr; k++)
			m.write(i + k, ptespec::pte_advance_pfn(ptespec::pte_mknoncont(pte), k, m.geo()));
#else
		(void)m, (void)i, (void)pte, (void)nr;
#endif
	}
#endif

	W ptep_get(M& m, std::size_t i) { return m.read(i); }

	W ptep_get_and_clear_full(M& m, std::size_t i, bool)
	{
		W old = m.exchange(i, m.lit(0));
#ifdef PTESPEC_TEST_FLUSH_NEXT_RUN
		const std::size_t n = m.geo().cont_ptes;
		m.flush_tlb_range((i / n + 1) * n, n);
#endif
		return old;
	}

	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		W pte = ptep_get_and_clear_full(m, i, full);
#if defined(PTESPEC_TEST_BATCH_PAST_END)
		for (std::size_t k = 1; k <= nr; k++)
			pte = ptespec::pte_or_flags(pte, ptep_get_and_clear_full(m, i + k, full));
#elif defined(PTESPEC_TEST_DIFFERS_WHEN_SYMBOLIC)
		if constexpr (!std::is_same_v<typename M::boolean, bool>)
			for (std::size_t k = 1; k < nr; k++)
				pte = ptespec::pte_or_flags(pte, ptep_get_and_clear_full(m, i + k, full));
#elif !defined(PTESPEC_TEST_BROKEN_BATCH)
		for (std::size_t k = 1; k < nr; k++)
			pte = ptespec::pte_or_flags(pte, ptep_get_and_clear_full(m, i + k, full));
#else
		(void)nr;
#endif
		return pte;
	}
};

} // namespace

PTESPEC_PLUGIN(plain, PTESPEC_TEST_PLUGIN_NAME, "a test plugin: plain primitives, never folds")
