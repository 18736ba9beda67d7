// The two word helpers the arm64 code uses that model/pte.h does not define.
//
// They live in impl/ because only strategies use them; if model/pte.h grows
// its own pte_same, this one should go (one encoding per helper).
#pragma once

#include <cstdint>

#include "model/pte.h"
#include "model/word.h"

namespace ptespec::arch {

// arm64's pte_same: on a present entry RDONLY is hardware dirty state, not
// part of the mapping, so two present values that differ only there are the
// same pte.
template <class W> inline boolean_of<W> pte_same(const W& a, const W& b)
{
	const W x = select<W>(pte_present(a), pte_clear_bits(a, PTE_RDONLY), a);
	const W y = select<W>(pte_present(b), pte_clear_bits(b, PTE_RDONLY), b);
	return word_ops<W>::equal(x, y);
}

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
