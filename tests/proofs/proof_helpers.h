// What the proofs' tests share: budgets that do not depend on the
// machine's speed, strategies broken on purpose, and a refutation asked to
// replay as confirmed.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "impl/adapter.h"
#include "impl/mainline.h"
#include "tests/impl/cont_without_valid.h"
#include "tests/impl/fold_controls.h"
#include "tests/impl/hint_controls.h"
#include "tests/impl/lockless_controls.h"
#include "tests/impl/mapping_controls.h"
#include "tests/impl/prot_none_controls.h"
#include "tests/impl/tlb_controls.h"
#include "tests/impl/wrprotect_first_run_only.h"
#include "tests/impl/clean_without_rdonly.h"
#include "tests/impl/cold_clear_cleans.h"
#include "tests/impl/young_first_entry_fast_path.h"
#include "proofs/catalogue.h"
#include "model/property.h"
#include "model/pte.h"
#include "proofs/obligations.h"
#include "proofs/world.h"
#include "properties/runner.h"

namespace ptespec::proofs::testing {

// A control the proofs' tests build: compiled for the sampled runs' machine
// and the proofs', not the cost model's.
template <template <class> class S>
std::unique_ptr<strategy> proof_control(std::string name, std::string description = "negative control")
{
	return make_strategy<S, on_machine | on_symbolic>(std::move(name), std::move(description), "test");
}

// Budgets that do not depend on the machine's speed (a test under the
// sanitizers, next to other tests, runs several times slower): no run-time
// limit, and a path budget per call that the strategies branching per entry
// (robust, early-return) exhaust at once and the others never reach.
inline prove_options quick()
{
	prove_options o;
	o.solver.timeout_ms = 60000;
	o.quick = true;
	o.search.run_seconds = 1e9;
	o.search.max_paths = 64;
	return o;
}

// quick(), over one range [first, first + nr) of a step/ call (one entry:
// its place) -- what a test asks when one place shows what it tests.
inline prove_options quick_at(std::size_t first, std::size_t nr)
{
	prove_options o = quick();
	o.range_first = first;
	o.range_nr = nr;
	return o;
}

// Forgets the OR: returns the first entry as it was taken out.
template <class M>
struct first_only : mainline_ops<M, first_only<M>> {
	using W = typename M::word;
	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		this->contpte_try_unfold_partial(m, i, nr);
		const W first = this->__ptep_get_and_clear(m, i);
		if (nr > 1)
			this->__clear_full_ptes(m, i + 1, nr - 1, full);
		return first;
	}
};

// mainline's batch, then -- only when the value it returns is dirty -- a
// read of the entry after the range: outside the table when the range
// ends it.  The fault needs both a decision and the right range.
template <class M>
struct reads_past_when_dirty : mainline_ops<M, reads_past_when_dirty<M>> {
	using W = typename M::word;
	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		const W pte = mainline_ops<M, reads_past_when_dirty<M>>::get_and_clear_full_ptes(m, i, nr, full);
		if (m.branch(pte_dirty(pte)))
			(void)m.read(i + nr);
		return pte;
	}
};

// mainline's batch, then -- only when the value it returns is young -- a
// TLB flush of one entry more than the range.
template <class M>
struct flushes_past_when_young : mainline_ops<M, flushes_past_when_young<M>> {
	using W = typename M::word;
	W get_and_clear_full_ptes(M& m, std::size_t i, std::size_t nr, bool full)
	{
		const W pte = mainline_ops<M, flushes_past_when_young<M>>::get_and_clear_full_ptes(m, i, nr, full);
		if (m.branch(pte_young(pte)))
			m.flush_tlb_range(i, nr + 1);
		return pte;
	}
};

// ptep_get tests CONT without VALID (tests/impl/cont_without_valid.h).  A
// folded run, the only table the older obligations start from, holds no
// non-present entry.
template <class M>
struct read_cont_without_valid : controls::ptep_get_cont_without_valid<M, read_cont_without_valid<M>> {};

// clear_non_present_ptes clears the whole runs its range touches, as if a
// swapped-out folio always left whole runs of swap entries: isolation.
template <class M>
struct clear_non_present_by_run : mainline_ops<M, clear_non_present_by_run<M>> {
	void clear_non_present_ptes(M& m, std::size_t i, std::size_t nr)
	{
		const geometry& g = m.geo();
		for (std::size_t k = g.run_start(i); k < g.run_start(i + nr - 1) + g.cont_ptes; k++)
			this->self().pte_clear(m, k);
	}
};

// contpte_wrprotect_ptes without the unfold of a run the range covers in
// part: a folded run is left with entries of two permissions.
template <class M>
struct wrprotect_without_unfold : mainline_ops<M, wrprotect_without_unfold<M>> {
	void contpte_wrprotect_ptes(M& m, std::size_t i, std::size_t nr) { this->self().__wrprotect_ptes(m, i, nr); }
};

// Negative controls of the sampled suites (tests/impl/) that the step/ and
// the agreement tests both run.
template <class M>
struct gathered_noop : controls::gathered_noop_ops<M, gathered_noop<M>> {};
template <class M>
struct set_access_flags_leaving_rdonly
	: controls::set_access_flags_leaving_rdonly_ops<M, set_access_flags_leaving_rdonly<M>> {};
template <class M>
struct clean_without_rdonly : controls::clean_without_rdonly_ops<M, clean_without_rdonly<M>> {};
template <class M>
struct cold_clear_cleans : controls::cold_clear_cleans_ops<M, cold_clear_cleans<M>> {};

// Proves obligation `name` for s at 4K (quick); it must be refuted and the
// refutation confirmed on the concrete machine.  The property the
// confirmed counterexample breaks, or nullopt (a failure already recorded).
inline std::optional<property> refuted_and_confirmed(strategy& s, const std::string& name, const prove_options& o = quick())
{
	proof_result r = prove_named(s, granule::k4, name, o);
	EXPECT_EQ(r.verdict, proof_verdict::refuted) << r.detail;
	if (r.verdict != proof_verdict::refuted || !r.ce)
		return std::nullopt;
	replay_result(s, r);
	EXPECT_EQ(r.replay, "confirmed") << r.ce_text;
	if (r.replay != "confirmed")
		return std::nullopt;
	return r.ce->prop;
}

} // namespace ptespec::proofs::testing
