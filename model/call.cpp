#include "model/call.h"

#include <stdexcept>

#include <fmt/format.h>

namespace ptespec {

std::string_view to_string(call_kind k)
{
	if (static_cast<std::size_t>(k) >= nr_call_kinds)
		throw std::out_of_range("call_kind " + std::to_string(static_cast<int>(k)));
	return shape_of(k).name;
}

std::optional<call_kind> parse_call_kind(std::string_view name)
{
	for (std::size_t i = 0; i < nr_call_kinds; i++)
		if (call_shapes[i].name == name)
			return static_cast<call_kind>(i);
	return std::nullopt;
}

call_semantics semantics_of(const call& c)
{
	call_semantics s;
	switch (c.kind) {
	case call_kind::set_ptes:
	case call_kind::modify_prot_commit_ptes:
	case call_kind::set_huge_pte_at:
	case call_kind::huge_ptep_modify_prot_commit:
		// Writing over an entry replaces it: what it recorded belonged to
		// the old mapping (only adversarial callers map over present ones).
		// A commit writes over the entries its start cleared, with the
		// flags start handed over.
		s.maps = true;
		s.consumes_young = s.consumes_dirty = true;
		break;
	case call_kind::ptep_get:
	case call_kind::ptep_get_lockless:
	case call_kind::huge_ptep_get:
		s.reports = true;
		break;
	case call_kind::ptep_get_and_clear:
	case call_kind::ptep_get_and_clear_full:
		s.reports = s.hands_off = true;
		s.consumes_young = s.consumes_dirty = s.unmaps = true;
		break;
	case call_kind::get_and_clear_full_ptes:
	case call_kind::modify_prot_start_ptes:
	case call_kind::huge_ptep_get_and_clear:
	case call_kind::huge_ptep_clear_flush:
	case call_kind::huge_ptep_modify_prot_start:
		// mprotect's start is a batched get-and-clear: the caller
		// carries what it returns into the new entries.  A hugepage
		// taken out hands back entry 0's value with the young and dirty
		// of every entry when entry 0 is present.
		s.reports = s.hands_off = true;
		s.consumes_young = s.consumes_dirty = s.unmaps = true;
		s.batch = true;
		break;
	case call_kind::clear_full_ptes:
		// The caller throws the flags away (anon folios are freed): a
		// legitimate consumption without a report.
		s.consumes_young = s.consumes_dirty = s.unmaps = true;
		break;
	case call_kind::clear_non_present_ptes:
	case call_kind::huge_pte_clear:
		// Swap entries and markers carry no access or dirty state: the
		// entries only become none.
		s.unmaps = true;
		break;
	case call_kind::ptep_test_and_clear_young:
	case call_kind::ptep_clear_flush_young:
	case call_kind::test_and_clear_young_ptes:
	case call_kind::clear_flush_young_ptes:
		// Reports young only, the OR over the entries it names; core-mm
		// tracks access per folio, so the clear may cover the whole runs
		// of the folio that the entries touch.
		s.reports = s.hands_off = true;
		s.consumes_young = true;
		s.may_widen = true;
		break;
	case call_kind::clear_young_dirty_ptes:
		s.consumes_young = (c.flags & CYDP_CLEAR_YOUNG) != 0;
		s.consumes_dirty = (c.flags & CYDP_CLEAR_DIRTY) != 0;
		s.may_widen = true;
		break;
	case call_kind::wrprotect_ptes:
	case call_kind::ptep_set_access_flags:
	case call_kind::contpte_try_fold:
	case call_kind::contpte_try_unfold:
	case call_kind::huge_ptep_set_access_flags:
	case call_kind::huge_ptep_set_wrprotect:
		break;
	case call_kind::flush_hugetlb_tlb_range:
		// Invalidates only: the entries stay as they are.
		break;
	}
	return s;
}

std::string describe(const call& c)
{
	switch (c.kind) {
	case call_kind::set_ptes:
		return fmt::format("set_ptes(#{}, {:#018x}, nr={})", c.index, c.pte, c.nr);
	case call_kind::get_and_clear_full_ptes:
	case call_kind::clear_full_ptes:
		return fmt::format("{}(#{}, nr={}, full={})", to_string(c.kind), c.index, c.nr, c.full ? 1 : 0);
	case call_kind::ptep_get_and_clear_full:
		return fmt::format("{}(#{}, full={})", to_string(c.kind), c.index, c.full ? 1 : 0);
	case call_kind::wrprotect_ptes:
	case call_kind::test_and_clear_young_ptes:
	case call_kind::clear_flush_young_ptes:
	case call_kind::modify_prot_start_ptes:
		return fmt::format("{}(#{}, nr={})", to_string(c.kind), c.index, c.nr);
	case call_kind::modify_prot_commit_ptes:
		return fmt::format("modify_prot_commit_ptes(#{}, {:#018x}, nr={})", c.index, c.pte, c.nr);
	case call_kind::clear_non_present_ptes:
		return fmt::format("clear_non_present_ptes(#{}, nr={})", c.index, c.nr);
	case call_kind::clear_young_dirty_ptes:
		return fmt::format("clear_young_dirty_ptes(#{}, nr={}, {}{})", c.index, c.nr,
				   (c.flags & CYDP_CLEAR_YOUNG) ? "CYDP_CLEAR_YOUNG" : "",
				   (c.flags & CYDP_CLEAR_DIRTY) ? ((c.flags & CYDP_CLEAR_YOUNG) ? "|CYDP_CLEAR_DIRTY" : "CYDP_CLEAR_DIRTY") : "");
	case call_kind::ptep_set_access_flags:
		return fmt::format("ptep_set_access_flags(#{}, {:#018x}, dirty={})", c.index, c.pte, c.flags);
	case call_kind::huge_ptep_get_and_clear:
	case call_kind::huge_ptep_clear_flush:
	case call_kind::huge_pte_clear:
	case call_kind::huge_ptep_set_wrprotect:
	case call_kind::huge_ptep_modify_prot_start:
		return fmt::format("{}(#{}, hugepage of {} entries)", to_string(c.kind), c.index, c.nr);
	case call_kind::set_huge_pte_at:
	case call_kind::huge_ptep_modify_prot_commit:
		return fmt::format("{}(#{}, {:#018x}, hugepage of {} entries)", to_string(c.kind), c.index, c.pte, c.nr);
	case call_kind::huge_ptep_set_access_flags:
		return fmt::format("huge_ptep_set_access_flags(#{}, {:#018x}, dirty={}, hugepage of {} entries)", c.index, c.pte,
				   c.flags, c.nr);
	case call_kind::flush_hugetlb_tlb_range:
		return fmt::format("flush_hugetlb_tlb_range(#{}..#{}, hugepages of {} entries)", c.index, c.index + c.nr - 1, c.flags);
	default:
		return fmt::format("{}(#{})", to_string(c.kind), c.index);
	}
}

} // namespace ptespec
