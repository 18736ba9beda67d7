// Hand-made tables for the strategy tests.
//
// Tests assert whole tables as rulers (model/ruler.h), so a failure shows
// the table:  |OOYOOOOOOOOOODOO| |oooo............|
//   '.' none  's' non-present  'o' old+clean  'y' young  'd' dirty
//   'b' both; upper case when the entry carries CONT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/machine.h"
#include "model/pte.h"
#include "model/ruler.h"

namespace ptespec::test {

inline const geometry geo4k = geometry::of(granule::k4);
inline constexpr std::size_t CONT = 16;	// CONT_PTES with 4K pages

// A user, writable, clean, old page: what a fault maps before hardware
// records anything.
inline constexpr std::uint64_t PROT_RW =
	PTE_VALID | PTE_TYPE | PTE_USER | PTE_RDONLY | PTE_SHARED | PTE_NG | PTE_WRITE | PTE_PXN | PTE_UXN;
inline constexpr std::uint64_t PROT_RO = PROT_RW & ~PTE_WRITE;

inline std::uint64_t page(std::uint64_t pfn, std::uint64_t prot = PROT_RW) { return pfn << 12 | prot; }
inline std::uint64_t young(std::uint64_t v) { return pte_mkyoung(v); }
inline std::uint64_t dirty(std::uint64_t v) { return pte_mkdirty(v); }
inline std::uint64_t cont(std::uint64_t v) { return pte_mkcont(v); }

// A swap entry whose type sets bit 10 (AF) and whose offset sets bit 52
// (CONT): code that tests young or CONT without testing valid reads garbage.
inline const std::uint64_t SWP_ALIAS = mk_swp_entry(0x10, std::uint64_t{1} << 40);

inline std::string ruler(const table_t& t) { return rulers(t, geo4k); }

// A folded run at `first` mapping pfn.. with prot (clean and old).
inline void fold(machine& m, std::size_t first, std::uint64_t pfn, std::uint64_t prot = PROT_RW)
{
	for (std::size_t k = 0; k < CONT; k++)
		m.poke(first + k, cont(page(pfn + k, prot)));
}

// nr unfolded entries at `first` mapping pfn..
inline void map(machine& m, std::size_t first, std::size_t nr, std::uint64_t pfn, std::uint64_t prot = PROT_RW)
{
	for (std::size_t k = 0; k < nr; k++)
		m.poke(first + k, page(pfn + k, prot));
}

// Sets flags in an entry as hardware would have, without an event.
inline void mark(machine& m, std::size_t i, bool y, bool d)
{
	std::uint64_t v = m.table()[i];
	if (y)
		v = pte_mkyoung(v);
	if (d)
		v = pte_clear_bits(v, PTE_RDONLY);	// hardware dirty: DBM and !RDONLY
	m.poke(i, v);
}

// Three runs of 4K entries; pfns 0x100.. lie in folios of 64 pages.
inline machine make_machine(std::size_t runs = 3, hardware_options hw = {})
{
	machine m(geo4k, runs * CONT, hw);
	m.set_folios({{0x100, 64}, {0x200, 64}});
	return m;
}

} // namespace ptespec::test
