// "no-batch-hint": folio_pte_batch without pte_batch_hint, as core-mm found
// batches before the hint: every entry after the first is read with
// ptep_get, a CONT entry included.
//
// Argument: the hint only lets the walk skip reads whose answer the CONT
// bit already gives (the rest of the run maps the pages that follow), so
// reading them finds the same batch; only the number of ptep_get calls,
// and with them the gathers of a folded run, differs.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "mm/caller.h"

namespace ptespec::contrib {

struct no_batch_hint {
	std::size_t folio_pte_batch(mm::call_sink& s, const mm::memory& mem, std::size_t i, std::size_t last,
				    std::uint64_t pte, bool writable_only, std::size_t limit) const
	{
		const std::size_t in_folio = std::min(last - i, mm::folio_pages_from(mem, pte));
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

} // namespace ptespec::contrib

PTESPEC_CALLER(ptespec::contrib::no_batch_hint, "no-batch-hint",
	       "folio_pte_batch reading every entry (no pte_batch_hint), as before the hint");
