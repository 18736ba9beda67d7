// "no-opt" -- the baseline of the seed thread's exit() benchmark: the contpte
// series with no attempt to optimise teardown.
//
// Origin: Ryan Roberts' cover numbers in the thread (Dec 2023): "no-opt:
// contpte series without any attempt to optimize exit()", measured at +190%
// (1 NUMA node) / +768% (2 nodes) over baseline.
//
// Argument: zap clears one entry at a time through ptep_get_and_clear_full,
// which (as in mainline) unfolds the run before clearing.  The unfold is a
// full break-before-make that copies the run's OR into every entry, so each
// later clear returns every event the run recorded.  Correct by construction;
// the cost is one TLB invalidation per run touched.
//
// Changes from mainline: only the batch calls, which did not exist yet.
#pragma once

#include "impl/generic.h"

namespace ptespec::variants {

template <class M>
struct unfold : generic_batch_ops<M, unfold<M>> {};

} // namespace ptespec::variants
