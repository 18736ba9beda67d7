// The arm64 level-3 page descriptor and the kernel's helpers on it.
//
// Bit-exact with the arm64 layout (VALID bit 0, AF 10, DBM 51, CONT 52,
// software DIRTY 55; RDONLY is AP[2], bit 7).  Every helper is a template over the word type
// (model/word.h) and is branch-free, so the same source evaluates a concrete
// value, an instrumented one, or a Z3 bit-vector.
#pragma once

#include <cstdint>
#include <string>

#include "model/geometry.h"
#include "model/word.h"

namespace ptespec {

inline constexpr std::uint64_t bit(unsigned n) { return std::uint64_t{1} << n; }

inline constexpr std::uint64_t PTE_VALID = bit(0);
inline constexpr std::uint64_t PTE_TYPE = bit(1);	// page entry: bits[1:0] = 3
inline constexpr std::uint64_t PTE_USER = bit(6);	// AP[1]
inline constexpr std::uint64_t PTE_RDONLY = bit(7);	// AP[2]
inline constexpr std::uint64_t PTE_SHARED = bit(8) | bit(9);
inline constexpr std::uint64_t PTE_AF = bit(10);
inline constexpr std::uint64_t PTE_NG = bit(11);	// PRESENT_INVALID when !VALID
inline constexpr std::uint64_t PTE_WRITE = bit(51);	// DBM
inline constexpr std::uint64_t PTE_CONT = bit(52);
inline constexpr std::uint64_t PTE_PXN = bit(53);
inline constexpr std::uint64_t PTE_UXN = bit(54);
inline constexpr std::uint64_t PTE_DIRTY = bit(55);	// software dirty
inline constexpr std::uint64_t PTE_SPECIAL = bit(56);

// Non-present encodings (swap entries, markers): bits[1:0] = 0.
inline constexpr std::uint64_t PTE_SWP_EXCLUSIVE = bit(2);
inline constexpr std::uint64_t PTE_SWP_UFFD_WP = bit(3);
inline constexpr unsigned SWP_TYPE_SHIFT = 6;	// bits[10:6]
inline constexpr std::uint64_t SWP_TYPE_MASK = 0x1f;
inline constexpr unsigned SWP_OFFSET_SHIFT = 12;	// bits[61:12]
inline constexpr std::uint64_t SWP_OFFSET_MASK = (std::uint64_t{1} << 50) - 1;

// The bits hardware or the access/dirty helpers may change in a mapped entry;
// everything else is "the mapping" (address, permissions, attributes).
inline constexpr std::uint64_t PTE_FLAG_BITS = PTE_AF | PTE_DIRTY | PTE_RDONLY;

template <class W> inline boolean_of<W> pte_any(const W& p, std::uint64_t mask)
{
	return word_ops<W>::nonzero(p & lit_like(p, mask));
}
template <class W> inline W pte_set(const W& p, std::uint64_t mask) { return p | lit_like(p, mask); }
template <class W> inline W pte_clear_bits(const W& p, std::uint64_t mask) { return p & lit_like(p, ~mask); }

template <class W> inline boolean_of<W> pte_none(const W& p) { return !word_ops<W>::nonzero(p); }
template <class W> inline boolean_of<W> pte_valid(const W& p) { return pte_any(p, PTE_VALID); }
// PROT_NONE: an entry present to core-mm (it maps its page, keeps its pfn,
// access and dirty) but invalid to hardware, which never walks it and never
// updates it.  arm64 marks it with NG while VALID is clear; no swap entry or
// marker sets bit 11.
inline constexpr std::uint64_t PTE_PRESENT_INVALID = PTE_NG;
template <class W> inline boolean_of<W> pte_present_invalid(const W& p)
{
	return word_ops<W>::equal(p & lit_like(p, PTE_VALID | PTE_PRESENT_INVALID), lit_like(p, PTE_PRESENT_INVALID));
}
template <class W> inline boolean_of<W> pte_present(const W& p) { return pte_valid(p) || pte_present_invalid(p); }

// The protections of user memory the callers ask for, never executable:
// arm64's PAGE_NONE (not valid, PRESENT_INVALID, no user access) and
// PAGE_READONLY; a writable VMA's adds PTE_WRITE (writable-clean: hardware
// marks dirty).
inline constexpr std::uint64_t PAGE_NONE = PTE_TYPE | PTE_PRESENT_INVALID | PTE_RDONLY | PTE_PXN | PTE_UXN;
inline constexpr std::uint64_t PAGE_READONLY = PTE_VALID | PTE_TYPE | PTE_USER | PTE_NG | PTE_RDONLY | PTE_PXN | PTE_UXN;
template <class W> inline boolean_of<W> pte_cont(const W& p) { return pte_any(p, PTE_CONT); }
template <class W> inline boolean_of<W> pte_valid_cont(const W& p) { return pte_valid(p) && pte_cont(p); }
template <class W> inline boolean_of<W> pte_young(const W& p) { return pte_any(p, PTE_AF); }
template <class W> inline boolean_of<W> pte_write(const W& p) { return pte_any(p, PTE_WRITE); }
template <class W> inline boolean_of<W> pte_rdonly(const W& p) { return pte_any(p, PTE_RDONLY); }
template <class W> inline boolean_of<W> pte_hw_dirty(const W& p) { return pte_write(p) && !pte_rdonly(p); }
template <class W> inline boolean_of<W> pte_sw_dirty(const W& p) { return pte_any(p, PTE_DIRTY); }
template <class W> inline boolean_of<W> pte_dirty(const W& p) { return pte_sw_dirty(p) || pte_hw_dirty(p); }
template <class W> inline boolean_of<W> pte_special(const W& p) { return pte_any(p, PTE_SPECIAL); }

template <class W> inline W pte_mkyoung(const W& p) { return pte_set(p, PTE_AF); }
template <class W> inline W pte_mkold(const W& p) { return pte_clear_bits(p, PTE_AF); }
template <class W> inline W pte_mkcont(const W& p) { return pte_set(p, PTE_CONT); }
template <class W> inline W pte_mknoncont(const W& p) { return pte_clear_bits(p, PTE_CONT); }

// Sets the software dirty bit and, for a writable entry, makes it hw-dirty.
template <class W> inline W pte_mkdirty(const W& p)
{
	W q = pte_set(p, PTE_DIRTY);
	return select<W>(pte_write(q), pte_clear_bits(q, PTE_RDONLY), q);
}

template <class W> inline W pte_mkclean(const W& p)
{
	return pte_set(pte_clear_bits(p, PTE_DIRTY), PTE_RDONLY);
}

// Writable; a sw-dirty entry becomes hw-dirty as well.
template <class W> inline W pte_mkwrite(const W& p)
{
	W q = pte_set(p, PTE_WRITE);
	return select<W>(pte_sw_dirty(q), pte_clear_bits(q, PTE_RDONLY), q);
}

// Moves hw-dirty into the software bit before write permission goes, so
// wrprotect never loses dirtiness.
template <class W> inline W pte_wrprotect(const W& p)
{
	W q = select<W>(pte_hw_dirty(p), pte_set(p, PTE_DIRTY), p);
	return pte_set(pte_clear_bits(q, PTE_WRITE), PTE_RDONLY);
}

// The bits a protection change replaces (arm64's pte_modify mask): the
// permissions, validity and PRESENT_INVALID, and the memory type (AttrIndx,
// bits 4:2).  Address, access/dirty, CONT, shareability and the software
// bits stay.
inline constexpr std::uint64_t PTE_ATTRINDX_MASK = bit(2) | bit(3) | bit(4);
inline constexpr std::uint64_t PTE_MODIFY_MASK = PTE_USER | PTE_PXN | PTE_UXN | PTE_RDONLY | PTE_NG | PTE_VALID |
						 PTE_WRITE | PTE_ATTRINDX_MASK;

// The entry with newprot's permissions: hw-dirty is moved into the software
// bit first (the new RDONLY would erase it), and a dirty entry that ends up
// writable is made hw-dirty again.
template <class W> inline W pte_modify(const W& p, std::uint64_t newprot)
{
	W q = select<W>(pte_hw_dirty(p), pte_set(p, PTE_DIRTY), p);
	q = pte_set(pte_clear_bits(q, PTE_MODIFY_MASK), newprot & PTE_MODIFY_MASK);
	return select<W>(pte_sw_dirty(q), pte_mkdirty(q), q);
}

template <class W> inline W pte_pgprot(const W& p, const geometry& g) { return p & lit_like(p, ~g.addr_mask()); }
template <class W> inline W pte_pfn(const W& p, const geometry& g)
{
	return word_ops<W>::lshr(p & lit_like(p, g.addr_mask()), g.page_shift);
}
template <class W> inline W pfn_pte(const W& pfn, const W& prot, const geometry& g)
{
	W addr = word_ops<W>::shl(pfn, g.page_shift) & lit_like(pfn, g.addr_mask());
	return addr | (prot & lit_like(prot, ~g.addr_mask()));
}
template <class W> inline W pte_advance_pfn(const W& p, std::uint64_t nr, const geometry& g)
{
	W pfn = pte_pfn(p, g) + lit_like(p, nr);
	return pfn_pte(pfn, pte_pgprot(p, g), g);
}
// The value of the entry k entries on in a run that maps what p starts:
// each entry of g's table maps entry_pages pages.
template <class W> inline W pte_advance_entries(const W& p, std::uint64_t k, const geometry& g)
{
	return pte_advance_pfn(p, k * g.entry_pages(), g);
}

// Two values map the same thing: same address and attributes, whatever the
// access/dirty state and the CONT hint.
template <class W> inline boolean_of<W> pte_same_mapping(const W& a, const W& b)
{
	const std::uint64_t ignore = PTE_FLAG_BITS | PTE_CONT;
	return word_ops<W>::equal(pte_clear_bits(a, ignore), pte_clear_bits(b, ignore));
}

// Two valid values a TLB may hold for one page at once, without break-
// before-make, when FEAT_BBM level 2 without conflict aborts lets a run
// change size in place: while both are cached a lookup yields the output
// address, permissions and memory attributes of one of them, never a mix
// (Arm ARM DDI 0487L.a, D8.7.1.1, R_NGLXZ and R_JQQTC).  The BBM levels
// relax a change of block size; the model keeps break-before-make required
// for everything else: a different output address, memory type (AttrIndx),
// shareability or nG.  Permissions (AP[2:1], PXN, UXN, DBM), AF, CONT and the
// software bits may differ: either answer is a translation software
// programmed, and the flush that ends the caller's change makes the new one
// the only one.
template <class W> inline boolean_of<W> pte_bbml2_compatible(const W& a, const W& b)
{
	const std::uint64_t ignore = PTE_CONT | PTE_AF | PTE_RDONLY | PTE_USER | PTE_PXN | PTE_UXN | PTE_WRITE |
				     PTE_DIRTY | PTE_SPECIAL | bit(57) | bit(58);
	return word_ops<W>::equal(pte_clear_bits(a, ignore), pte_clear_bits(b, ignore));
}

// OR b's young and dirty into a, without branching on the word: the gather
// step every contpte read shares.
template <class W> inline W pte_or_flags(const W& a, const W& b)
{
	W y = select<W>(pte_young(b), pte_mkyoung(a), a);
	return select<W>(pte_dirty(b), pte_mkdirty(y), y);
}

// Concrete constructors used by callers and tests (not by strategies).
std::uint64_t mk_swp_entry(unsigned type, std::uint64_t offset, bool exclusive = false, bool uffd_wp = false);

// The special swap types: the core takes the top of the 32 types, PTE
// markers the last, and below it device-private/exclusive, migration and
// hwpoison as the kernel is configured; with CONFIG_MIGRATION,
// CONFIG_DEVICE_PRIVATE and CONFIG_MEMORY_FAILURE swap areas are types 0-23.
// Every special type is 16 or more: it sets bit 10, AF's place.
inline constexpr unsigned MAX_SWAPFILES = 24;
inline constexpr unsigned SWP_HWPOISON = 24;
inline constexpr unsigned SWP_MIGRATION_READ = 25;
inline constexpr unsigned SWP_MIGRATION_READ_EXCLUSIVE = 26;
inline constexpr unsigned SWP_MIGRATION_WRITE = 27;
inline constexpr unsigned SWP_DEVICE_WRITE = 28;
inline constexpr unsigned SWP_DEVICE_READ = 29;
inline constexpr unsigned SWP_DEVICE_EXCLUSIVE = 30;
inline constexpr unsigned SWP_PTE_MARKER = 31;
// A PTE marker's offset: what it marks.
inline constexpr std::uint64_t PTE_MARKER_UFFD_WP = bit(0);
inline constexpr std::uint64_t PTE_MARKER_POISONED = bit(1);
inline constexpr std::uint64_t PTE_MARKER_GUARD = bit(2);

inline unsigned swp_type_of(std::uint64_t v) { return static_cast<unsigned>((v >> SWP_TYPE_SHIFT) & SWP_TYPE_MASK); }
inline std::uint64_t swp_offset_of(std::uint64_t v) { return (v >> SWP_OFFSET_SHIFT) & SWP_OFFSET_MASK; }
// What a non-present, non-none value is, as the kernel reads it: "swap
// type 3", "migration-write", "guard marker", ...
std::string nonpresent_kind(std::uint64_t v);

} // namespace ptespec
