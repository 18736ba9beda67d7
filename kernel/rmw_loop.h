// The symbolic build's second source change: the atomic read-modify-write
// loop, marked so the proofs run it as one atomic update.
//
// The kernel updates an entry the hardware may change under it with
//
//     do {
//             old_pte = pte;
//             pte = pte_mkold(pte);
//             pte_val(pte) = cmpxchg_relaxed(&pte_val(*ptep),
//                                            pte_val(old_pte), pte_val(pte));
//     } while (pte_val(pte) != pte_val(old_pte));
//
// Run natively on symbolic words each cmpxchg may fail (a hardware event
// landed since the read), so a batch of n such loops is 2^n paths or more.
// When the loop has this form it is the atomic update of the entry at its
// linearisation point, the successful cmpxchg: every iteration computes the
// new value from the value it carries in alone, so the last one -- the one
// that counts -- computes it from the entry's value at that moment, whatever
// failed before.  The pass marks such a loop,
//
//     do { ptespec_rmw_begin(); ... } while (ptespec_rmw_again(COND));
//
// and the host (kernel/module.cpp, sym_session) runs it as two iterations:
// the first's cmpxchg reads the entry at the linearisation point (the
// hardware's slot before it, as for any primitive) and stores nothing; the
// second computes the update from that value and stores it, with nothing in
// between.  What the pass checks, here, of the text:
//
//   * the body is assignments (`V = E;`, `V |= E;`, `V &= E;`, V a variable
//     or pte_val(variable)) and if-convertible `if (C) V op E;`, E and C free
//     of assignments, ++ and --; nothing else (no return, break, goto, loop,
//     or call made as a statement);
//   * the last is `X = cmpxchg...(P, O, N)` -- the only cmpxchg or xchg in the
//     body -- and the loop test is `X != O` (either order, pte_val() or not);
//   * no state is carried from one iteration to the next but X: every
//     variable the body assigns, X aside, is assigned before the body reads
//     it (a retry counter, a flag set on failure, is refused).
//
// What the host checks, at run time, on every path: no primitive in the
// body but the cmpxchg (a read, a store, a flush there refuses the
// summary); the second iteration's cmpxchg on the entry of the first, with
// the value the first returned as its expected value; its loop test then
// false.  A loop the pass refuses runs as C runs it.  The C build takes the
// tree's files as they are.
#pragma once

#include <cstddef>
#include <string>

namespace ptespec::kernel {

struct rmw_marking {
	std::string text;
	std::size_t marked = 0;
};

rmw_marking mark_rmw_loops(const std::string& source);

} // namespace ptespec::kernel
