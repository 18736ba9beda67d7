// The symbolic tables obligations start from.
#pragma once

#include <cstddef>

#include <z3++.h>

#include "model/geometry.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// `runs` folded runs of one folio: every entry valid and CONT, mapping
// consecutive pfns with one set of attributes (symbolic, write permission
// included), and its own symbolic AF, DIRTY and RDONLY.  Entries [0,
// cleared) are already zero: a teardown that cleared them without
// unfolding (the mid-teardown state), still well formed: a run's shape is
// judged over its valid entries only.
sym_world folded_runs(z3::context& ctx, granule g, std::size_t runs, std::size_t cleared = 0);

} // namespace ptespec::proofs
