// The arch API calls the spec knows, as data: what a caller asked for and
// what it got back.  The checker judges these; strategies implement them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "kernel/shim/include/ptespec/calls.h"

namespace ptespec {

// The calls, one per entry of PTESPEC_CALLS (kernel/shim/include/ptespec/
// calls.h), which says what each returns and takes.
enum class call_kind {
#define PTESPEC_CALL_KIND(name, result, args) name,
	PTESPEC_CALLS(PTESPEC_CALL_KIND)
#undef PTESPEC_CALL_KIND
};

// What a call returns: a pte, young, whether it changed the entry, nothing.
enum class call_result_shape { pte, young, changed, none };
// What a call takes besides the entry index (calls.h says each in full).
enum class call_args_shape {
	entry,
	entry_full,
	entry_value_dirty,
	batch,
	batch_full,
	batch_flags,
	range,
	range_value,
	huge,
	huge_value,
	huge_value_dirty,
	huge_range,
};

struct call_shape {
	std::string_view name;
	call_result_shape result;
	call_args_shape args;
};

inline constexpr call_shape call_shapes[] = {
#define PTESPEC_CALL_SHAPE(name, result, args) {#name, call_result_shape::result, call_args_shape::args},
	PTESPEC_CALLS(PTESPEC_CALL_SHAPE)
#undef PTESPEC_CALL_SHAPE
};
inline constexpr std::size_t nr_call_kinds = std::size(call_shapes);

constexpr const call_shape& shape_of(call_kind k) { return call_shapes[static_cast<std::size_t>(k)]; }

// clear_young_dirty_ptes flags (CYDP_*).
inline constexpr unsigned CYDP_CLEAR_YOUNG = 1;
inline constexpr unsigned CYDP_CLEAR_DIRTY = 2;

struct call {
	call_kind kind = call_kind::ptep_get;
	std::size_t index = 0;	// first entry
	std::size_t nr = 1;	// entries covered
	bool full = false;	// the caller will clear every entry (exit)
	std::uint64_t pte = 0;	// set_ptes / modify_prot_commit_ptes value, ptep_set_access_flags entry
	unsigned flags = 0;	// CYDP_*, ptep_set_access_flags' dirty, or huge_range's hugepage size in entries
};

// The hugetlb calls over a whole hugepage: its entries are [c.index,
// c.index + c.nr) of the call's table (a pte table's CONT_PTE hugepage, a
// pmd table's CONT_PMD one); the strategy is given its size in pages.
constexpr bool takes_hugepage(call_kind k)
{
	const call_args_shape a = shape_of(k).args;
	return a == call_args_shape::huge || a == call_args_shape::huge_value || a == call_args_shape::huge_value_dirty;
}

// The calls that take nr: a range of entries (the others are about the one
// entry at c.index, whatever c.nr says).
constexpr bool takes_nr(call_kind k)
{
	const call_args_shape a = shape_of(k).args;
	return a == call_args_shape::batch || a == call_args_shape::batch_full || a == call_args_shape::batch_flags ||
	       a == call_args_shape::range || a == call_args_shape::range_value || a == call_args_shape::huge_range ||
	       takes_hugepage(k);
}

// The calls of arch/arm64/mm/hugetlbpage.c and asm/hugetlb.h.
constexpr bool is_hugetlb_call(call_kind k)
{
	return takes_hugepage(k) || k == call_kind::huge_ptep_get || shape_of(k).args == call_args_shape::huge_range;
}

// The calls over a folio batch: nr present entries mapping consecutive
// pages of one folio.  The other range calls write over none (set_ptes,
// and the mprotect commit over the entries its start cleared) or clear
// swap entries and markers.
constexpr bool takes_batch(call_kind k)
{
	const call_args_shape a = shape_of(k).args;
	return a == call_args_shape::batch || a == call_args_shape::batch_full || a == call_args_shape::batch_flags;
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
constexpr bool answers_young(call_kind k) { return shape_of(k).result == call_result_shape::young; }

// The calls that pass a value of their own in call.pte: set_ptes' pte,
// the mprotect commit's, ptep_set_access_flags' entry.
constexpr bool passes_value(call_kind k)
{
	const call_args_shape a = shape_of(k).args;
	return a == call_args_shape::range_value || a == call_args_shape::entry_value_dirty ||
	       a == call_args_shape::huge_value || a == call_args_shape::huge_value_dirty;
}

} // namespace ptespec
