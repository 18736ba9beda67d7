#include "properties/generators.h"

#include <algorithm>

#include "model/pte.h"

namespace ptespec::gen {

rc::Gen<std::size_t> edge_page(const world_layout& w)
{
	const std::size_t n = w.nr_entries, c = w.geo.cont_ptes;
	return rc::gen::weightedOneOf<std::size_t>({
		{3, rc::gen::map(rc::gen::inRange<std::size_t>(0, n / c + 1),
				 [=](std::size_t r) { return std::min(r * c, n - 1); })},
		{2, rc::gen::map(rc::gen::inRange<std::size_t>(1, n / c + 1),
				 [=](std::size_t r) { return std::min(r * c - 1, n - 1); })},
		{1, rc::gen::map(rc::gen::inRange<std::size_t>(0, n / c),
				 [=](std::size_t r) { return std::min(r * c + 1, n - 1); })},
		{3, rc::gen::inRange<std::size_t>(0, n)},
	});
}

rc::Gen<std::pair<std::size_t, std::size_t>> edge_range(const world_layout& w)
{
	const std::size_t n = w.nr_entries;
	return rc::gen::map(rc::gen::pair(edge_page(w), edge_page(w)), [n](std::pair<std::size_t, std::size_t> p) {
		std::size_t a = std::min(p.first, p.second), b = std::max(p.first, p.second) + 1;
		return std::make_pair(a, std::min(b, n));
	});
}

rc::Gen<std::uint64_t> user_prot()
{
	return rc::gen::apply(
		[](bool young, bool dirty, bool writable) {
			std::uint64_t p = PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_PXN | PTE_UXN |
					  PTE_RDONLY;
			if (young)
				p |= PTE_AF;
			if (writable)
				p |= PTE_WRITE;
			if (dirty)
				p = pte_mkdirty(p);
			return p;
		},
		rc::gen::weightedOneOf<bool>({{3, rc::gen::just(true)}, {1, rc::gen::just(false)}}),
		rc::gen::weightedOneOf<bool>({{1, rc::gen::just(true)}, {2, rc::gen::just(false)}}),
		rc::gen::weightedOneOf<bool>({{2, rc::gen::just(true)}, {1, rc::gen::just(false)}}));
}

rc::Gen<std::uint64_t> nonpresent_value()
{
	return rc::gen::apply(
		[](unsigned type, std::uint64_t offset, bool alias_af, bool alias_cont, bool excl) {
			// Type bit 4 is PTE bit 10 (AF); offset bit 40 is PTE bit 52 (CONT).
			if (alias_af)
				type |= 0x10;
			if (alias_cont)
				offset |= std::uint64_t{1} << 40;
			return mk_swp_entry(type, offset, excl) | (offset == 0 && type == 0 ? PTE_SWP_EXCLUSIVE : 0);
		},
		rc::gen::inRange<unsigned>(0, 32), rc::gen::inRange<std::uint64_t>(1, 1u << 20), rc::gen::arbitrary<bool>(),
		rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>());
}

rc::Gen<std::vector<hw_plan_event>> hw_plan(const world_layout& w, std::size_t calls, std::size_t first,
					    std::size_t last)
{
	const std::size_t c = w.geo.cont_ptes;
	const std::size_t lo = first - std::min(first, c), hi = std::min(last + c, w.nr_entries);
	auto one = rc::gen::construct<hw_plan_event>(
		rc::gen::inRange<std::size_t>(0, std::max<std::size_t>(calls, 1)),
		rc::gen::weightedOneOf<std::size_t>({{3, rc::gen::inRange<std::size_t>(0, 4)},
						     {2, rc::gen::inRange<std::size_t>(0, 2 * c + 4)}}),
		rc::gen::element(hw_kind::access, hw_kind::write), rc::gen::inRange<std::size_t>(lo, std::max(hi, lo + 1)),
		rc::gen::inRange<std::size_t>(0, c));
	return rc::gen::weightedOneOf<std::vector<hw_plan_event>>({
		{2, rc::gen::just(std::vector<hw_plan_event>{})},
		{5, rc::gen::container<std::vector<hw_plan_event>>(1, one)},
		{3, rc::gen::container<std::vector<hw_plan_event>>(2, one)},
		{1, rc::gen::container<std::vector<hw_plan_event>>(4, one)},
	});
}

} // namespace ptespec::gen
