// The caller negative control: folio_pte_batch with its folio bound one
// entry too far (`folio_pages_from(...) + 1`), the off-by-one of a walk
// that takes the folio's last page for its end.  Where the next pfn is the
// first page of the folio's physical neighbour, mapped the same way, the
// batch takes that entry too: a batch of two folios.  Only the caller-rule
// check catches it as the caller's (one-folio); the strategy is handed a
// call the arch code may not be given.  Shared by the property test and
// the test plugin (tests/cli/plugins/caller.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "mm/caller.h"

namespace ptespec::controls {

struct batch_past_folio {
	std::size_t folio_pte_batch(mm::call_sink& s, const mm::memory& mem, std::size_t i, std::size_t last,
				    std::uint64_t pte, bool writable_only, std::size_t limit) const
	{
		const std::size_t in_folio = std::min(last - i, mm::folio_pages_from(mem, pte) + 1);
		const std::size_t cap = limit ? std::min(limit, in_folio) : in_folio;
		std::size_t nr = 1;
		for (; nr < cap; nr++) {
			const std::optional<std::uint64_t> v = mm::read_pte(s, i + nr);
			if (!v || !pte_valid(*v) || !pte_same_mapping(*v, pte_advance_pfn(pte, nr, mem.geo)) ||
			    (writable_only && !pte_write(*v)))
				break;
		}
		return nr;
	}
};

} // namespace ptespec::controls
