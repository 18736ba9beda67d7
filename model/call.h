// The arch API calls the spec knows, as data: what a caller asked for and
// what it got back.  The checker judges these; strategies implement them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptespec {

enum class call_kind {
	set_ptes,
	ptep_get,
	ptep_get_lockless,
	ptep_get_and_clear,
	ptep_get_and_clear_full,
	get_and_clear_full_ptes,
	clear_full_ptes,
	clear_non_present_ptes,
	ptep_test_and_clear_young,
	ptep_clear_flush_young,
	wrprotect_ptes,
	clear_young_dirty_ptes,
	ptep_set_access_flags,
	contpte_try_fold,
	contpte_try_unfold,
	// The young calls over a folio batch (nr entries of one folio), which
	// core-mm's reclaim makes since the batch API; the one-entry calls above
	// stay for the callers that test one page.
	test_and_clear_young_ptes,
	clear_flush_young_ptes,
	// mprotect's transaction over a folio batch (nr entries of one folio):
	// start takes the entries out and returns the first with the OR of
	// their young and dirty; the caller applies the new protection to that
	// value and commit writes it back into the nr entries, the pfn
	// advancing.  (The kernel's commit also takes the old value, which
	// arm64 and core-mm's generic commit ignore: the call carries the new
	// value only.)
	modify_prot_start_ptes,
	modify_prot_commit_ptes,
};
inline constexpr std::size_t nr_call_kinds = 19;

// clear_young_dirty_ptes flags (CYDP_*).
inline constexpr unsigned CYDP_CLEAR_YOUNG = 1;
inline constexpr unsigned CYDP_CLEAR_DIRTY = 2;

struct call {
	call_kind kind = call_kind::ptep_get;
	std::size_t index = 0;	// first entry
	std::size_t nr = 1;	// entries covered
	bool full = false;	// the caller will clear every entry (exit)
	std::uint64_t pte = 0;	// set_ptes / modify_prot_commit_ptes value, ptep_set_access_flags entry
	unsigned flags = 0;	// CYDP_* or ptep_set_access_flags' dirty
};

// The calls that take nr: a range of entries (the others are about the one
// entry at c.index, whatever c.nr says).
inline bool takes_nr(call_kind k)
{
	switch (k) {
	case call_kind::set_ptes:
	case call_kind::get_and_clear_full_ptes:
	case call_kind::clear_full_ptes:
	case call_kind::clear_non_present_ptes:
	case call_kind::wrprotect_ptes:
	case call_kind::clear_young_dirty_ptes:
	case call_kind::test_and_clear_young_ptes:
	case call_kind::clear_flush_young_ptes:
	case call_kind::modify_prot_start_ptes:
	case call_kind::modify_prot_commit_ptes:
		return true;
	default:
		return false;
	}
}

// The entries a call is about, as the checker judges it: [c.index, range_end(c)).
inline std::size_t range_end(const call& c) { return c.index + (c.nr > 0 ? c.nr : 1); }

struct call_result {
	std::optional<std::uint64_t> pte;	// returned pte_t, if the call returns one
	std::optional<bool> young;	// test_and_clear_young's answer
	std::optional<bool> changed;	// ptep_set_access_flags' answer
};

std::string_view to_string(call_kind k);
std::optional<call_kind> parse_call_kind(std::string_view name);

// What a call does to access/dirty state, in the spec's terms: whether it
// reports flags, hands them off to the caller, consumes them, unmaps or maps.
struct call_semantics {
	bool reports = false;	// returns flags the caller acts on or reads
	bool hands_off = false;	// the caller acts on the report: it discharges events
	bool consumes_young = false;
	bool consumes_dirty = false;
	bool unmaps = false;	// entries in range become none
	bool may_widen = false;	// consumption may cover whole runs of the folio
	bool batch = false;	// result must be the OR of exactly what it took
	bool maps = false;	// writes the given value into the range
};
call_semantics semantics_of(const call& c);

std::string describe(const call& c);

// The calls that answer young only, as a bool: the one-entry young calls
// and their batched forms.
inline bool answers_young(call_kind k)
{
	return k == call_kind::ptep_test_and_clear_young || k == call_kind::ptep_clear_flush_young ||
	       k == call_kind::test_and_clear_young_ptes || k == call_kind::clear_flush_young_ptes;
}

// The calls that pass a value of their own in call.pte: set_ptes' pte,
// the mprotect commit's, ptep_set_access_flags' entry.
inline bool passes_value(call_kind k)
{
	return k == call_kind::set_ptes || k == call_kind::modify_prot_commit_ptes ||
	       k == call_kind::ptep_set_access_flags;
}

} // namespace ptespec
