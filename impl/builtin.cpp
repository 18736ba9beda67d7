// The strategies ptespec ships: mainline, the six designs of the seed
// linux-mm thread that proposed contpte batching, and mainline with the
// fix of a finding.  Names are stable:
// --strategy takes them.
#include "impl/adapter.h"
#include "impl/mainline.h"
#include "impl/variants/clear_block.h"
#include "impl/variants/early_return.h"
#include "impl/variants/gather_writeback.h"
#include "impl/variants/robust.h"
#include "impl/variants/simple.h"
#include "impl/variants/unfold.h"
#include "impl/variants/valid_cont_young.h"

namespace ptespec {

PTESPEC_STRATEGY(mainline, "mainline",
		 "as merged: get_and_clear_full_ptes unfolds only partly covered runs and clears whole runs in place");
PTESPEC_STRATEGY(variants::unfold, "unfold",
		 "no-opt: every clear of a CONT entry unfolds its run first (seed benchmark baseline)");
PTESPEC_STRATEGY(variants::gather_writeback, "gather-writeback",
		 "v1: a full clear copies the run's flags into every entry with plain reads and writes, then clears");
PTESPEC_STRATEGY(variants::simple, "simple",
		 "v2 patch 14: a full clear takes just the entry and returns its own flags");
PTESPEC_STRATEGY(variants::robust, "robust",
		 "seed patch: a full clear stashes the entry's flags atomically in a still-valid entry of the run");
PTESPEC_STRATEGY(variants::early_return, "early-return",
		 "robust, but a cleared entry with neither flag is returned as it is");
PTESPEC_STRATEGY(variants::clear_block, "clear-block",
		 "ptep_get_and_clear_full on a CONT entry clears the whole run, whatever full is");
PTESPEC_STRATEGY(variants::valid_cont_young, "valid-cont-young",
		 "mainline, its young and dirty clears widened to a run only from a valid CONT entry (the fix of the "
		 "PROT_NONE young widening)");

} // namespace ptespec
