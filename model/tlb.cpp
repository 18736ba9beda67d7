#include "model/tlb.h"

#include "model/history.h"
#include "model/permission.h"
#include "model/pte.h"

namespace ptespec {

bool grants_beyond(std::uint64_t cached, std::uint64_t v)
{
	if (!pte_valid(cached))
		return false;
	return (pte_valid(v) && pte_pfn(cached, geometry{}) != pte_pfn(v, geometry{})) ||
	       (perms_of(cached) & ~perms_of(v)) != 0;
}

void tlb_shadow::reset(const std::vector<std::uint64_t>& table)
{
	cached_.assign(table.size(), 0);
	stale_.assign(table.size(), 0);
	for (std::size_t i = 0; i < table.size(); i++)
		if (pte_valid(table[i]))
			cached_[i] = table[i];
}

bool tlb_shadow::store(std::size_t i, std::uint64_t v)
{
	if (!pte_valid(v))
		return true;	// stale translation stays until a flush
	const std::uint64_t old = cached_[i];
	cached_[i] = v;
	if (old == 0)
		return true;
	if (pte_cont(old) == pte_cont(v)) {
		// Both may be cached now, the older one until a flush: kept when
		// it maps another page or grants what the new one does not (a
		// change of young or dirty alone leaves nothing to miss).
		if (stale_[i] == 0 && grants_beyond(old, v))
			stale_[i] = old;
		return true;
	}
	if (!bbml2_)
		return false;
	// Both may now be cached and a lookup answers with either: legal when
	// they differ in size and permissions only (pte_bbml2_compatible).  Only
	// the change of CONT is judged here: a later change in place
	// (wrprotect, say) is as legal beside the stale translation as it is
	// beside the current one -- the caller's flush ends both.
	stale_[i] = old;
	return pte_bbml2_compatible(old, v);
}

bool tlb_shadow::reaches_every_cpu(unsigned flags) const
{
	if (flags & flush_nosync)
		return false;
	return !(flags & flush_local) || one_cpu_;
}

void tlb_shadow::flush(std::size_t first, std::size_t nr, const std::vector<std::uint64_t>& table, unsigned flags)
{
	if (!reaches_every_cpu(flags))
		return;
	for (std::size_t i = first - first % (std::size_t{1} << flush_stride_log2(flags)); i < first + nr && i < table.size();
	     i++) {
		if (!flush_reaches(i, first, nr, flags, level_))
			continue;
		cached_[i] = pte_valid(table[i]) ? table[i] : 0;
		stale_[i] = 0;
	}
}

bool tlb_shadow::run_cached_cont(std::size_t first, std::size_t n) const
{
	for (std::size_t i = first; i < first + n && i < cached_.size(); i++)
		if ((cached_[i] != 0 && pte_cont(cached_[i])) || (stale_[i] != 0 && pte_cont(stale_[i])))
			return true;
	return false;
}

} // namespace ptespec
