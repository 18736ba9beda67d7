// "run-batch": a caller variant as an out-of-tree plugin.  Its
// folio_pte_batch never lets a batch cross the end of a CONT run, as a
// caller that bounds max_nr by the next CONT_PTES boundary would.  The
// question it answers: does a strategy depend on batches that cover whole
// folios (mainline clears whole runs in place), or does it hold when the
// same folio comes in run-sized pieces?
//
// Build and load (see docs/plugins.md, "A caller variant"):
//   cmake -S . -B build -DCMAKE_PREFIX_PATH=<ptespec prefix> && cmake --build build
//   ptespec --plugin build/run_batch.so test --caller run-batch --strategy mainline
//
// Why it keeps the caller rules: it stops where core-mm stops (the folio's
// end, the walk's end, an entry that does not map the next page) or
// earlier, so its batches are prefixes of core-mm's: present entries of
// one folio with consecutive pfns, inside the VMA and the table.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "impl/plugin_api.h"
#include "mm/caller.h"

namespace {

struct run_batch {
	std::size_t folio_pte_batch(ptespec::mm::call_sink& s, const ptespec::mm::memory& mem, std::size_t i,
				    std::size_t last, std::uint64_t pte, bool writable_only, std::size_t limit) const
	{
		const std::size_t run_end = mem.geo.run_start(i) + mem.geo.cont_ptes;
		const std::size_t end = std::min({last, run_end, i + ptespec::mm::folio_pages_from(mem, pte)});
		const std::size_t cap = limit ? std::min(limit, end - i) : end - i;
		std::size_t nr = 1;
		for (; nr < cap; nr++) {
			const std::optional<std::uint64_t> v = ptespec::mm::read_pte(s, i + nr);
			if (!v || !ptespec::pte_valid(*v) ||
			    !ptespec::pte_same_mapping(*v, ptespec::pte_advance_pfn(pte, nr, mem.geo)) ||
			    (writable_only && !ptespec::pte_write(*v)))
				break;
		}
		return nr;
	}
};

} // namespace

PTESPEC_CALLER_PLUGIN(run_batch, "run-batch",
		      "folio_pte_batch that never crosses a CONT run's end (a max_nr bounded by the run); example "
		      "caller plugin");
