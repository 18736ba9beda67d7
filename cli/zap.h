// The exit path's teardown as core-mm drives it (BRIEF §6), over any
// strategy: the caller model the demo races against the hardware.
#pragma once

#include <cstddef>

#include "impl/strategy.h"

namespace ptespec::cli {

// The calls zap_exit needs from a strategy.  Throws usage_error naming the
// strategy and the missing call.
void require_zap_calls(const strategy& s);

// Tears down entries [first, last) of m as exit() does (full=1): walking low
// to high, ptep_get each entry; skip it when none; otherwise clear the batch
// of entries that map consecutive pages of the same folio with one
// get_and_clear_full_ptes (one ptep_get_and_clear_full when the batch is a
// single entry, or when the strategy has no batched call).  With `batched`
// false every entry is read and cleared on its own, as zap did before it
// learnt to batch a folio (the kernel the seed thread's variants were
// written against).
void zap_exit(strategy& s, machine& m, std::size_t first, std::size_t last, bool batched = true);

} // namespace ptespec::cli
