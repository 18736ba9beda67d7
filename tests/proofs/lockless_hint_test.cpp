// The lockless/ and hint/ obligations: mainline proved, a torn gather, a
// read that skips cleared entries and a hint that counts from the run's
// start refuted.

#include "tests/proofs/proof_helpers.h"

using namespace ptespec;
using namespace ptespec::proofs;
using namespace ptespec::proofs::testing;

// hint/: the strategy's pte_batch_hint from every invariant table, for
// every value ptep_get may return at the entry.  Mainline's hint (to the
// end of a valid CONT entry's run) is proved at 4K and 64K (16K: 80 s,
// docs/proofs.md); the hint
// that counts from the run's start is refuted at 4K -- an entry past its
// run's start vouches for the next run's entries -- and the checker's
// judgement of the concrete hint on the model's table confirms it.  A hint
// written over concrete words only is not run, and so not proved.
TEST(proofs, the_batch_hint_is_proved_for_mainline_and_refuted_when_it_counts_from_the_run_start)
{
	strategy& mainline = registry::global().get("mainline");
	// Two paths (CONT or not) at each entry asked: every entry of two runs
	// of 16; the edges, their neighbours and a middle of two runs of 32.
	for (const auto& [g, paths] : {std::pair{granule::k4, 64u}, std::pair{granule::k64, 20u}}) {
		const proof_result r = prove_named(mainline, g, fmt::format("hint/cont{}", geometry::of(g).cont_ptes), quick());
		EXPECT_EQ(r.verdict, proof_verdict::proved) << to_string(g) << ": " << r.detail;
		EXPECT_EQ(r.paths, paths) << r.detail;
	}
	auto from_start = proof_control<controls::batch_hint_ignoring_place>("batch-hint-from-run-start");
	proof_result r = prove_named(*from_start, granule::k4, "hint/cont16", quick());
	ASSERT_EQ(r.verdict, proof_verdict::refuted) << r.detail;
	ASSERT_TRUE(r.ce && r.ce->hint);
	EXPECT_EQ(r.ce->prop, property::per_call);
	EXPECT_NE(r.ce->hint->entry % 16, 0u) << "the run's first entry is where the two hints agree";
	replay_result(*from_start, r);
	EXPECT_EQ(r.replay, "confirmed") << r.ce_text;
	EXPECT_NE(r.ce_text.find("pte_batch_hint(#"), std::string::npos) << r.ce_text;

	auto over_words = proof_control<controls::batch_hint_over_words>("batch-hint-over-words", "test");
	const proof_result w = prove_named(*over_words, granule::k4, "hint/cont16", quick());
	EXPECT_EQ(w.verdict, proof_verdict::unknown) << w.detail;
	EXPECT_NE(w.detail.find("concrete words only"), std::string::npos) << w.detail;
	EXPECT_TRUE(mainline.has_batch_hint() && over_words->has_batch_hint());
}

// lockless/: a lockless read beside a locked writer.  Mainline's read,
// which re-reads the run until it saw it whole, is proved beside a
// wrprotect_ptes of an entry of a folded run (the writer unfolds it: every
// entry cleared, then repainted).  The gather that never re-reads is
// refuted there, its replay confirmed by the checker's lockless judgement
// -- and proved by step/ of the same read, where no writer runs: only the
// writer's tables show it.  (The other gather of the sampled suite, which
// skips entries reading none, is refuted too, in some 400 s: its reader
// takes 157 paths, too slow for this suite; docs/performance.md.)
TEST(proofs, a_lockless_read_beside_a_writer_is_proved_for_mainline_and_refuted_for_a_torn_gather)
{
	auto s = registry::global().find("mainline");
	ASSERT_NE(s, nullptr);
	const proof_result r = prove_named(*s, granule::k4, "lockless/wrprotect_ptes-cont16", quick_at(1, 1));
	EXPECT_EQ(r.verdict, proof_verdict::proved) << r.detail;
	auto no_retry = proof_control<controls::lockless_gather_without_retry>("lockless-no-retry");
	EXPECT_EQ(refuted_and_confirmed(*no_retry, "lockless/ptep_get_and_clear-cont16", quick_at(1, 1)),
		  property::lockless);
	const proof_result alone = prove_named(*no_retry, granule::k4, "step/ptep_get_lockless-cont16", quick());
	EXPECT_EQ(alone.verdict, proof_verdict::proved) << alone.detail;
}

// The builtins whose lockless read skips the entries a teardown cleared
// (robust, and early-return, which keeps robust's read) lose the flags an
// unfold in progress holds: refuted beside ptep_get_and_clear on entry 0,
// replay confirmed, by a probe -- one path of the read, its model asked of
// the claim.  The full search of that read asks, at each entry, whether the
// other side is feasible, over terms that choose among the writer's
// tables: it did not end in 180 s (docs/proofs.md).  So is the read that
// skips none entries, which the full search alone refutes in some 400 s.
TEST(proofs, the_lockless_reads_that_skip_cleared_entries_are_refuted_by_a_probe)
{
	auto none = proof_control<controls::lockless_gather_skipping_none>("lockless-skip-none");
	// More probes than the default: the first probe that refutes ends the
	// search.  (The probes' budgets are resource units, not time: the same
	// on any machine, cli_prove.a_probe_refutation_is_the_same_on_every_run.)
	prove_options o = quick_at(0, 1);
	o.probes.count = 64;
	for (strategy* s : {&registry::global().get("robust"), &registry::global().get("early-return"), none.get()}) {
		SCOPED_TRACE(s->info().name);
		proof_result r = prove_named(*s, granule::k4, "lockless/ptep_get_and_clear-cont16", o);
		ASSERT_EQ(r.verdict, proof_verdict::refuted) << r.detail;
		EXPECT_NE(r.detail.find("refuted by probe"), std::string::npos) << r.detail;
		replay_result(*s, r);
		EXPECT_EQ(r.replay, "confirmed") << r.ce_text;
		EXPECT_EQ(r.ce->prop, property::lockless);
	}
}
