#include "mm/caller_rules.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/pte.h"

namespace ptespec::mm {

std::string_view to_string(caller_rule r)
{
	switch (r) {
	case caller_rule::nr_at_least_one: return "nr-at-least-one";
	case caller_rule::inside_table: return "inside-page-table";
	case caller_rule::inside_vma: return "inside-vma";
	case caller_rule::present: return "present";
	case caller_rule::one_folio: return "one-folio";
	case caller_rule::consecutive_pfns: return "consecutive-pfns";
	}
	return "?";
}

std::string_view sentence(caller_rule r)
{
	switch (r) {
	case caller_rule::nr_at_least_one: return "a call covers at least one entry";
	case caller_rule::inside_table: return "a call's entries lie inside one page table";
	case caller_rule::inside_vma: return "a batch lies inside the VMA the caller walks";
	case caller_rule::present: return "a batch covers present entries only";
	case caller_rule::one_folio: return "a batch maps pages of one folio";
	case caller_rule::consecutive_pfns: return "entry k of a batch maps the batch's first pfn + k";
	}
	return "?";
}

namespace {

std::optional<rule_breach> check_extent(const call& c, std::size_t table_size, std::optional<vma_range> vma)
{
	const std::size_t nr = takes_nr(c.kind) ? c.nr : 1;
	if (nr == 0)
		return rule_breach{caller_rule::nr_at_least_one, c.index, "nr = 0"};
	if (c.index >= table_size || nr > table_size - c.index)
		return rule_breach{caller_rule::inside_table, std::max(c.index, table_size),
				   fmt::format("entries #{}..#{}, the table ends at #{}", c.index, c.index + nr - 1,
					       table_size - 1)};
	if (vma && takes_batch(c.kind) && (c.index < vma->first || c.index + nr > vma->last))
		return rule_breach{caller_rule::inside_vma, c.index < vma->first ? c.index : vma->last,
				   fmt::format("entries #{}..#{}, the VMA walked is #{}..#{}", c.index, c.index + nr - 1,
					       vma->first, vma->last - 1)};
	return std::nullopt;
}

// The batch's entries against its first: present, the first's folio, the
// pfns that follow the first's.
std::optional<rule_breach> check_batch(const call& c, const table_t& t, const memory& mem)
{
	const std::uint64_t first = t[c.index];
	const long folio = pte_present(first) ? folio_of(mem.folios, pte_pfn(first, mem.geo)) : -1;
	auto folio_text = [](long f) { return f < 0 ? std::string("no declared folio") : fmt::format("folio {}", f); };
	for (std::size_t k = 0; k < c.nr; k++) {
		const std::size_t e = c.index + k;
		const std::uint64_t v = t[e];
		if (!pte_present(v))
			return rule_breach{caller_rule::present, e,
					   fmt::format("#{} is {} (0x{:016x})", e, v == 0 ? "none" : "not present", v)};
		const std::uint64_t pfn = pte_pfn(v, mem.geo);
		const long f = folio_of(mem.folios, pfn);
		if (k > 0 && (f < 0 || f != folio))
			return rule_breach{caller_rule::one_folio, e,
					   fmt::format("#{} maps pfn 0x{:x} ({}), #{} maps pfn 0x{:x} ({})", e, pfn,
						       folio_text(f), c.index, pte_pfn(first, mem.geo), folio_text(folio))};
		if (pfn != pte_pfn(first, mem.geo) + k)
			return rule_breach{caller_rule::consecutive_pfns, e,
					   fmt::format("#{} maps pfn 0x{:x}, expected 0x{:x}", e, pfn,
						       pte_pfn(first, mem.geo) + k)};
	}
	return std::nullopt;
}

} // namespace

std::optional<rule_breach> check_caller_rules(const call& c, const table_t& table, const memory& mem,
					      std::optional<vma_range> vma)
{
	if (std::optional<rule_breach> b = check_extent(c, table.size(), vma))
		return b;
	if (takes_batch(c.kind))
		return check_batch(c, table, mem);
	return std::nullopt;
}

std::string breach_text(const caller_breach& cb)
{
	return fmt::format("caller {} breaks {} ({}): {}: {}", cb.caller, to_string(cb.b.rule), sentence(cb.b.rule),
			   describe(cb.c), cb.b.what);
}

} // namespace ptespec::mm
