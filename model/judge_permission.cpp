// The permission judge: what the calls asked each entry to grant against
// what hardware may use for each valid page of the runs touched.
#include "model/checker.h"

#include <fmt/format.h>

#include "model/permission.h"
#include "model/pte.h"

namespace ptespec {

// What a call asks an entry of its range to grant, given what was asked
// before: set_ptes installs the value core-mm passed, a clear takes
// everything away, wrprotect takes write away, and ptep_set_access_flags
// may add write only when the fault's entry grants it (the kernel's call
// adds AF, dirty and write permission, and never takes any away).  The
// calls that only read or clear access/dirty ask for no change: mkclean
// sets RDONLY on a writable entry, which still grants write (perms_of).
unsigned checker::asks_after(const call& c, unsigned before) const
{
	const call_semantics sem = semantics_of(c);
	if (sem.maps)
		return perms_of(c.pte);
	if (sem.unmaps)
		return 0;
	if (c.kind == call_kind::wrprotect_ptes || c.kind == call_kind::huge_ptep_set_wrprotect)
		return before & ~PERM_WRITE;
	if ((c.kind == call_kind::ptep_set_access_flags || c.kind == call_kind::huge_ptep_set_access_flags) && before)
		return before | (perms_of(c.pte) & PERM_WRITE);
	return before;
}

// At a call's beginning its entries may grant the old ask or the new one
// until it ends; at its end only the new one.
void checker::set_asks(const call& c, bool ended)
{
	const std::size_t last = std::min(range_end(c), n_);
	for (std::size_t p = c.index; p < last; p++) {
		const unsigned after = asks_after(c, asked_[p]);
		if (ended)
			asked_[p] = allowed_[p] = after;
		else
			allowed_[p] = asked_[p] | after;
	}
}

// The permissions hardware may use for each valid page of a run: its own
// entry; for a CONT entry, any valid CONT entry of the run (the TLB may
// cache a walk of one as the translation of the whole run); and the CONT
// translation the TLB may still hold of a cleared entry of the run, which
// covers every page of it until a flush reaches the run.  A cleared page
// is left out: what the TLB still holds for it is the clearing caller's to
// flush, as core-mm does at the end of a zap, and so is what it holds for
// the pages of the call's own range.  (A translation left beside a changed
// entry -- BBML2's stale one, or a write-protected entry's old value -- is
// the flush core-mm makes after the call, which the shadow does not see
// for fork: it is not judged here; a repaint that changes permission
// without a flush is well-formed's.)
bool checker::judge_run_permission(const table_t& t, std::size_t run, const std::function<std::string()>& when)
{
	const std::size_t last = std::min(run + geo_.cont_ptes, n_);
	unsigned table_cont = 0, tlb_cont = 0;
	for (std::size_t k = run; k < last; k++) {
		if (pte_valid_cont(t[k]))
			table_cont |= perms_of(t[k]);
		if (!run_wide_in_tlb(k))
			continue;
		if (pte_valid_cont(tlb_.cached(k)))
			tlb_cont |= perms_of(tlb_.cached(k));
	}
	bool any = false;
	for (std::size_t k = run; k < last; k++) {
		if (!pte_valid(t[k]))
			continue;
		any = true;
		// In the call's range the TLB is the caller's to flush: core-mm
		// flushes what it cleared once the call is done.
		const bool in_range = k >= cur_.index && k < range_end(cur_);
		unsigned g = perms_of(t[k]) | (in_range ? 0u : tlb_cont);
		if (pte_cont(t[k]))
			g |= table_cont;
		const unsigned extra = g & ~allowed_[k];
		if (extra) {
			report(property::permission, k,
			       fmt::format("{} #{} grants {} through {}, but the calls asked it for {}", when(), k,
					   perm_names(extra), grant_source(t, k, extra), perm_names(allowed_[k])));
			break;
		}
	}
	return any;
}

// Entry k's CONT translations in the TLB shadow may still cover every page
// of its run: no flush has reached the run since they were cached.
bool checker::run_wide_in_tlb(std::size_t k) const
{
	return cached_at_[k] >= run_flushed_at_[k / geo_.cont_ptes];
}

// Which translation gave page `page` the permissions in `extra`.
std::string checker::grant_source(const table_t& t, std::size_t page, unsigned extra) const
{
	if (perms_of(t[page]) & extra)
		return fmt::format("its own entry {:#018x}", t[page]);
	const std::size_t run = geo_.run_start(page);
	for (std::size_t k = run; k < run + geo_.cont_ptes && k < n_; k++)
		if (pte_valid_cont(t[k]) && pte_cont(t[page]) && (perms_of(t[k]) & extra))
			return fmt::format("#{}'s CONT translation ({:#018x})", k, t[k]);
	for (std::size_t k = run; k < run + geo_.cont_ptes && k < n_; k++)
		if (run_wide_in_tlb(k) && pte_valid_cont(tlb_.cached(k)) && (perms_of(tlb_.cached(k)) & extra))
			return fmt::format("a CONT translation of cleared #{} the TLB may still hold ({:#018x})", k,
					   tlb_.cached(k));
	return "?";
}

// permission at a store: the value stored, and the run it joins.
void checker::judge_permission(const primitive_step& p, const table_t& t)
{
	if (!pte_valid(p.new_value) || seen(property::permission))
		return;
	exercise(property::permission);
	judge_run_permission(t, geo_.run_start(p.index), [&] {
		return fmt::format("when {} stored {:#018x} into #{},", describe(cur_), p.new_value, p.index);
	});
}

// permission at a call end: every run the call's range or its stores
// reached, now that its entries answer to what it asked.
void checker::judge_permission(const ended_call& e)
{
	if (seen(property::permission))
		return;
	std::vector<std::size_t> runs;
	for (std::size_t run = geo_.run_start(e.first); run < e.last; run += geo_.cont_ptes)
		runs.push_back(run);
	for (std::size_t k : touched_)
		runs.push_back(geo_.run_start(k));
	std::sort(runs.begin(), runs.end());
	runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
	bool any = false;
	const auto when = [&] { return fmt::format("after {}", describe(e.c)); };
	for (std::size_t run : runs)
		any = judge_run_permission(e.t, run, when) || any;
	if (any)
		exercise(property::permission);
}

} // namespace ptespec
