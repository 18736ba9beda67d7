// The symbolic tables obligations start from.
#pragma once

#include <cstddef>
#include <vector>

#include <z3++.h>

#include "model/geometry.h"
#include "model/history.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// One Z3 context for the process, never destroyed: Z3 4.8 takes longer to
// tear a large context down than the proof took, however few terms are
// still referenced.  It stays reachable, so a leak checker does not count it.
z3::context& shared_context();

// A concrete table as numerals, to run a strategy or ask the invariant of it.
std::vector<z3::expr> numerals(z3::context& ctx, const table_t& t);

// `runs` folded runs of one folio: every entry valid and CONT, mapping
// consecutive pfns with one set of attributes (symbolic, write permission
// included), and its own symbolic AF, DIRTY and RDONLY.  Entries [0,
// cleared) are already zero: a teardown that cleared them without
// unfolding (the mid-teardown state), still well formed: a run's shape is
// judged over its valid entries only.
sym_world folded_runs(z3::context& ctx, granule g, std::size_t runs, std::size_t cleared = 0);

} // namespace ptespec::proofs
