// The two word helpers the arm64 code uses that model/pte.h does not define.
//
// They live in impl/ because only strategies use them; if model/pte.h grows
// its own pte_same, this one should go (one encoding per helper).
#pragma once

#include <cstdint>

#include "model/pte.h"
#include "model/word.h"

namespace ptespec::arch {

// pte_same as arm64 has it today, the generic one: the whole value.  (An
// arm64 override once ignored RDONLY on present entries; it went because
// an entry that differs from what a write fault asks only in RDONLY is
// still read-only to the walker, and ptep_set_access_flags, deciding it had
// nothing to do, left the fault to repeat forever.)
template <class W> inline boolean_of<W> pte_same(const W& a, const W& b) { return word_ops<W>::equal(a, b); }

// What __ptep_set_access_flags stores: the entry made at least as permissive
// as `entry` in AF, DIRTY and WRITE, and read-only only if both were.  It is
// a pure function of the old value, so the CMPXCHG loop that applies it
// never undoes a racing hardware update: it can only add permissions.
template <class W> inline W pte_grant_access(const W& old, const W& entry)
{
	const W more = entry & lit_like(entry, PTE_AF | PTE_DIRTY | PTE_WRITE);
	const W rdonly = old & entry & lit_like(entry, PTE_RDONLY);
	return pte_clear_bits(old | more, PTE_RDONLY) | rdonly;
}

// The access/dirty/write state __ptep_set_access_flags acts on; every other
// bit (the pfn above all) differs between the entries of a run.
inline constexpr std::uint64_t PTE_ACCESS_BITS = PTE_RDONLY | PTE_AF | PTE_WRITE | PTE_DIRTY;

} // namespace ptespec::arch
