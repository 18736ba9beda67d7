// The shared machinery of every proof obligation: run a scenario (strategy
// calls on the symbolic machine) once per feasible path, assert the
// negation of its claims, and read the answer.
//
//   unsat on every path      -> proved
//   sat on some path         -> refuted; the model becomes a concrete
//                               history (initial table, calls, hardware
//                               events) replayed on the concrete machine
//                               with the checker (replay.h)
//   a feasible path stops at an entry or a TLB flush outside the table
//                            -> refuted as isolation or well-formed (what the
//                               checker reports for that fault), whatever the
//                               obligation's claims; a model of the path is
//                               its counterexample, replayed the same way
//   unknown (timeout, limit) -> unknown, never shown as proved
//
// Its rooms (proofs/prover/): scenario.h, what an obligation states and
// what proving it gives; options.h, its budgets; case_batch.h, the cases
// run and asked; symbolic_run.h, one case's calls run path by path.
#pragma once

#include "proofs/prover/case_batch.h"
#include "proofs/prover/options.h"
#include "proofs/prover/scenario.h"
