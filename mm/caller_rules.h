// The rules every call a caller makes keeps, because the arch code relies
// on them; checked on each call before it reaches the strategy, so that a
// caller that breaks one is named, not the strategy that trusted it.
//
// A batch (a call whose arguments are a folio batch in the list of calls,
// kernel/shim/include/ptespec/calls.h: takes_batch) is what folio_pte_batch
// found, and contpte code takes it on trust:
//
//   nr >= 1           it indexes ptep[0] and loops while nr--: nr = 0 wraps
//   inside the table  it walks ptep + nr and widens to whole CONT blocks
//                     with no bound: past the page table's end is another
//                     page's memory (the PMD's next table, or none)
//   inside the VMA    its TLB flushes name the VMA, and entries past the
//                     VMA's end belong to another mapping (another
//                     protection, another file) it must not touch
//   present           it clears, write-protects or ages without a
//                     pte_present test: a swap entry's bits would be taken
//                     for access, dirty and CONT
//   one folio         it gathers access and dirty into one answer for the
//                     folio, and widens a clear of young or dirty to the
//                     whole CONT block, legal only because core-mm keeps
//                     those flags per folio
//   consecutive pfns  it unfolds only the runs the batch covers in part:
//                     a run it covers whole it treats as one contiguous
//                     mapping
//
// Any call also names entries inside the table with nr >= 1.  A set_ptes
// names consecutive pfns by construction (it advances the pfn itself), and
// the one-entry calls are about one entry the caller read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "mm/callers.h"

namespace ptespec::mm {

enum class caller_rule { nr_at_least_one, inside_table, inside_vma, present, one_folio, consecutive_pfns };

// The rule's name ("one-folio") and what it says.
std::string_view to_string(caller_rule r);
std::string_view sentence(caller_rule r);

// The entries of the VMA a caller walks, [first, last).
struct vma_range {
	std::size_t first = 0, last = 0;
};

struct rule_breach {
	caller_rule rule = caller_rule::nr_at_least_one;
	std::size_t entry = 0;	// the first entry that breaks it
	std::string what;	// the entries and why they break it
};

// A call that broke a rule, and the caller that made it.
struct caller_breach {
	std::string caller;
	call c;
	rule_breach b;
};

// "caller X breaks one-folio (a batch maps pages of one folio):
// get_and_clear_full_ptes(#0, nr=17): #16 maps ..."
std::string breach_text(const caller_breach& cb);

// Whether call c over `table` (as it is when the call begins) keeps every
// rule; the first one it breaks otherwise.  `vma` is the walked VMA when
// the call is part of a walk.
std::optional<rule_breach> check_caller_rules(const call& c, const table_t& table, const memory& mem,
					      std::optional<vma_range> vma);

} // namespace ptespec::mm
