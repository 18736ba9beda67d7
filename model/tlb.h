// What the TLB may still hold for each entry: the last valid value an entry
// had, until a TLB invalidation covers the entry while it is invalid.
//
// The machine uses it to decide where a racing access may land (a cleared
// entry of a run whose CONT translation is still cached), the checker uses it
// to judge break-before-make.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptespec {

class tlb_shadow {
public:
	void reset(const std::vector<std::uint64_t>& table);

	// Entry i now holds v.  Returns false when v is valid and a value the
	// TLB may hold for i disagrees with it on CONT: a change between valid
	// states that skipped break-before-make.
	bool store(std::size_t i, std::uint64_t v);
	void flush(std::size_t first, std::size_t nr, const std::vector<std::uint64_t>& table);

	// Some entry of the run [first, first+n) may be cached as a CONT
	// translation, so an access to any page of the run may use it.
	bool run_cached_cont(std::size_t first, std::size_t n) const;
	std::uint64_t cached(std::size_t i) const { return cached_[i]; }

private:
	std::vector<std::uint64_t> cached_;	// 0: nothing cached
};

} // namespace ptespec
