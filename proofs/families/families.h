// The obligation families, a file each (families/<family>.cpp): its
// conjecture, the function that proves it and its entry in the obligation
// table (table.cpp lists the entries in the order `prove` runs them).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "impl/strategy.h"
#include "model/call.h"
#include "model/geometry.h"
#include "proofs/obligation_table.h"
#include "proofs/prover.h"

namespace ptespec::proofs {

// The table's entries.
obligation_family batch_or_family(bool full);
std::vector<obligation_family> one_call_families();	// per-call, then no-loss
obligation_family exit_family(bool batched);
obligation_family hint_family();
std::vector<obligation_family> step_families();
std::vector<obligation_family> lockless_families();
std::vector<obligation_family> seq_families();

// The prove functions of the entries: each makes its cases and fills
// run.results (one result per family of the run).
void prove_batch_or(obligation_run& run, bool full);
// per-call/one-call and no-loss/one-call, alone or together: one run of the
// shared cases, a goal per family (each covers one property, the one its
// claims are about).
void prove_one_call(obligation_run& run);
void prove_exit(obligation_run& run, bool batched);
// step/<call>-cont<N>: one call of kind k from every invariant table.
void prove_step(obligation_run& run, call_kind k);
// lockless/<writer>-cont<N>: a lockless read beside one call of the
// writer's kind, from every invariant table.
void prove_lockless(obligation_run& run, call_kind writer);
// seq/<start>-k<K>/<property>-cont<N>: every sequence of k calls of every
// kind, from the empty table or from every invariant table, the ledger
// followed.
void prove_seq(obligation_run& run, std::size_t k, bool from_empty);
// hint/cont<N>: the strategy's pte_batch_hint from every invariant table.
void prove_hint(obligation_run& run);

// Shared by several families.
// The ranges [i, e) of batch-or over a table of two runs of c entries
// (batch_or.cpp), and how they were chosen, in words.
std::vector<std::pair<std::size_t, std::size_t>> batch_ranges(std::size_t c, const prove_options& o);
std::string ranges_note(std::size_t c, const prove_options& o);
// World w for an obligation none of whose claims is well-formed at a store
// (batch-or, the one-call and exit ones): its stores are not judged.
sym_world unjudged_stores(sym_world w);
// The teardown clears, which take `full`, and the flags the calls of kind k
// are made with (step.cpp).
bool takes_full(call_kind k);
std::vector<unsigned> flag_sets(call_kind k);
// A lockless read's split falls among its first two passes over the run
// (lockless.cpp).
std::size_t lockless_split_within(const geometry& geo);
// The race of ptep_get_lockless(i) beside wc from w (whose `race` is set),
// its lockless claim asked at the read's end; false as case_batch::add.
bool add_race(case_batch& batch, const sym_world& w, const call& wc, std::size_t i);
// What hint/ asks at and of an answer (hint.cpp): whether it asks at entry
// k of a run of c, and its claim for answer n at entry i holding `pte`.
bool hint_asks_at(std::size_t c, std::size_t k);
z3::expr hint_claim(const std::vector<z3::expr>& t, const geometry& geo, std::size_t i, const z3::expr& pte,
		    std::size_t n);

} // namespace ptespec::proofs
