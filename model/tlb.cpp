#include "model/tlb.h"

#include "model/pte.h"

namespace ptespec {

void tlb_shadow::reset(const std::vector<std::uint64_t>& table)
{
	cached_.assign(table.size(), 0);
	for (std::size_t i = 0; i < table.size(); i++)
		if (pte_valid(table[i]))
			cached_[i] = table[i];
}

bool tlb_shadow::store(std::size_t i, std::uint64_t v)
{
	if (!pte_valid(v))
		return true;	// stale translation stays until a flush
	bool ok = cached_[i] == 0 || pte_cont(cached_[i]) == pte_cont(v);
	cached_[i] = v;
	return ok;
}

void tlb_shadow::flush(std::size_t first, std::size_t nr, const std::vector<std::uint64_t>& table)
{
	for (std::size_t i = first; i < first + nr && i < table.size(); i++)
		cached_[i] = pte_valid(table[i]) ? table[i] : 0;
}

bool tlb_shadow::run_cached_cont(std::size_t first, std::size_t n) const
{
	for (std::size_t i = first; i < first + n && i < cached_.size(); i++)
		if (cached_[i] != 0 && pte_cont(cached_[i]))
			return true;
	return false;
}

} // namespace ptespec
