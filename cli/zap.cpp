#include "cli/zap.h"

#include <fmt/format.h>

#include "model/errors.h"
#include "model/pte.h"

namespace ptespec::cli {

namespace {

call make_call(call_kind k, std::size_t index, std::size_t nr)
{
	call c;
	c.kind = k;
	c.index = index;
	c.nr = nr;
	c.full = true;
	return c;
}

// How many entries from i on map consecutive pages of pte's folio with the
// same attributes: core-mm's folio_pte_batch.  It peeks at the table rather
// than calling ptep_get per entry because the answer depends only on
// address and attributes, which hardware never changes and no other
// software changes under the page-table lock; access/dirty are ignored, as
// the kernel ignores them.
std::size_t folio_batch(const machine& m, std::size_t i, std::size_t last, std::uint64_t pte)
{
	const geometry& geo = m.geo();
	const long f = folio_of(m.folios(), pte_pfn(pte, geo));
	if (f < 0)
		return 1;
	const folio_extent& fe = m.folios()[static_cast<std::size_t>(f)];
	const std::uint64_t left_in_folio = fe.first_pfn + fe.nr_pages - pte_pfn(pte, geo);
	std::size_t nr = 1;
	while (i + nr < last && nr < left_in_folio) {
		const std::uint64_t e = m.table()[i + nr];
		if (!pte_valid(e) || !pte_same_mapping(e, pte_advance_pfn(pte, nr, geo)))
			break;
		nr++;
	}
	return nr;
}

} // namespace

void require_zap_calls(const strategy& s)
{
	for (call_kind k : {call_kind::ptep_get, call_kind::ptep_get_and_clear_full})
		if (!s.implements(k))
			throw usage_error(fmt::format("strategy '{}' does not implement {}, which the exit teardown needs",
						      s.info().name, to_string(k)));
}

void zap_exit(strategy& s, machine& m, std::size_t first, std::size_t last, bool batched)
{
	batched = batched && s.implements(call_kind::get_and_clear_full_ptes);
	for (std::size_t i = first; i < last;) {
		const call_result got = run_call(s, m, make_call(call_kind::ptep_get, i, 1));
		const std::uint64_t pte = got.pte.value_or(0);
		if (!pte_valid(pte)) {
			// Nothing to hand off: a none entry carries no state, and a
			// swap entry or marker is freed by a plain clear that
			// involves no strategy.
			i++;
			continue;
		}
		const std::size_t nr = batched ? folio_batch(m, i, last, pte) : 1;
		if (nr > 1)
			run_call(s, m, make_call(call_kind::get_and_clear_full_ptes, i, nr));
		else
			run_call(s, m, make_call(call_kind::ptep_get_and_clear_full, i, 1));
		i += nr;
	}
}

} // namespace ptespec::cli
