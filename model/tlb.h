// What the TLB may still hold for each entry: the last valid value an entry
// had, until a TLB invalidation covers the entry while it is invalid.
//
// "The TLB" is every CPU's: the shadow holds what *some* CPU may have
// cached, since an access racing a call may come from any of them.  So only
// an invalidation that reaches every CPU and is known complete drops an
// entry: a local one (flush_local) leaves the other CPUs' TLBs as they
// were, and one issued without its DSB (flush_nosync) has not completed
// when the strategy goes on (hardware_options::one_cpu makes a local one
// reach every TLB there is).  The kernel uses both where a stale entry is
// harmless -- it grants less than the table, and a fault through it is
// spurious and fixed by the faulting CPU -- never where break-before-make
// needs the old translation gone.
//
// The machine uses it to decide where a racing access may land (a cleared
// entry of a run whose CONT translation is still cached), the checker uses it
// to judge break-before-make.
//
// Changing an entry between two valid values that differ in CONT needs
// break-before-make: clear it, invalidate the TLB, write the new value.
// Otherwise the TLB may hold a CONT translation of the run and a page
// translation of the same address at once, which the architecture calls
// misprogramming: a lookup may raise a TLB conflict abort or build a
// translation out of both.
//
// With BBML2 and no conflict aborts (hardware_options::bbml2_noabort), the
// architecture promises more: while both are cached, a lookup yields one of
// the translations software programmed -- never an abort, never a mix of the
// two.  So the flush between clearing a run and repainting it may go, as
// mainline's contpte_convert does, *provided* the change is one of size: the
// old and the new value have the same output address, memory type,
// shareability and nG (pte_bbml2_compatible, model/pte.h); they may differ in
// CONT, in permissions and in the access/dirty state, since either answer is
// one software programmed and the caller's own flush ends the change.
// Until a later flush evicts it the old translation stays cached beside the
// new one: the shadow keeps it (`stale`), and run_cached_cont counts it.
//
// The same holds without BBML2 for a change that keeps CONT: an entry
// cleared and rewritten with another valid value, no invalidation between
// (hugetlb's mprotect: start clears, commit writes the new permissions),
// leaves the old translation in some CPU's TLB until a flush reaches the
// entry.  The shadow keeps it too (`stale`), so a flush that promises the
// range's old translations gone can be judged (stale_after_flush).
// (hw_candidates, model/hardware.h, still lands an event only in a valid
// CONT entry of the run, so a stale CONT translation beside an unfolded
// run adds no landing today.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/hardware_options.h"

namespace ptespec {

// Whether a cached translation does what the entry's value v does not: maps
// another page, or grants a permission v does not.
bool grants_beyond(std::uint64_t cached, std::uint64_t v);

class tlb_shadow {
public:
	// A shadow of a table whose entries are at translation level `level`.
	explicit tlb_shadow(hardware_options hw = {}, unsigned level = 3)
		: bbml2_(hw.bbml2_noabort), one_cpu_(hw.one_cpu), level_(level)
	{
	}

	void reset(const std::vector<std::uint64_t>& table);

	// Entry i now holds v.  Returns false when v is valid and the value the
	// TLB may hold for i disagrees with it on CONT: a change between valid
	// states that skipped break-before-make -- unless BBML2 allows it
	// because the two translate alike.
	bool store(std::size_t i, std::uint64_t v);
	// A TLB invalidation of [first, first+nr) with flush_flag bits and
	// hints `flags`: it drops what is cached for the entries it reaches
	// (flush_reaches), when it reaches every CPU.
	void flush(std::size_t first, std::size_t nr, const std::vector<std::uint64_t>& table, unsigned flags = 0);
	// Whether an invalidation with these flags drops what every CPU cached
	// before the next primitive.
	bool reaches_every_cpu(unsigned flags) const;

	// Some entry of the run [first, first+n) may be cached as a CONT
	// translation, so an access to any page of the run may use it.
	bool run_cached_cont(std::size_t first, std::size_t n) const;
	std::uint64_t cached(std::size_t i) const { return cached_[i]; }
	// An older translation of entry i some CPU may still hold beside
	// cached(i), or 0.
	std::uint64_t stale(std::size_t i) const { return stale_[i]; }
	bool bbml2() const { return bbml2_; }

private:
	bool bbml2_ = false;
	bool one_cpu_ = false;
	unsigned level_ = 3;
	std::vector<std::uint64_t> cached_;	// 0: nothing cached
	// The translation a change without a flush left behind: under BBML2 a
	// change of CONT, always a change that keeps it; 0: none.
	std::vector<std::uint64_t> stale_;
};

} // namespace ptespec
