#include "properties/generators.h"

#include <algorithm>

#include "model/pte.h"

namespace ptespec::gen {

rc::Gen<std::size_t> edge_page(const world_layout& w)
{
	const std::size_t n = w.nr_entries, c = w.geo.cont_ptes;
	return rc::gen::weightedOneOf<std::size_t>({
		{3, rc::gen::map(gen::uniform<std::size_t>(0, n / c + 1),
				 [=](std::size_t r) { return std::min(r * c, n - 1); })},
		{2, rc::gen::map(gen::uniform<std::size_t>(1, n / c + 1),
				 [=](std::size_t r) { return std::min(r * c - 1, n - 1); })},
		{1, rc::gen::map(gen::uniform<std::size_t>(0, n / c),
				 [=](std::size_t r) { return std::min(r * c + 1, n - 1); })},
		{3, gen::uniform<std::size_t>(0, n)},
	});
}

rc::Gen<std::pair<std::size_t, std::size_t>> edge_range(const world_layout& w)
{
	const std::size_t n = w.nr_entries, c = w.geo.cont_ptes;
	// The end is the next run boundary (+-1) or a short length: both shrink
	// towards a range of one entry, so counterexamples stay short.
	auto end_kind = rc::gen::weightedOneOf<std::pair<int, std::size_t>>({
		{2, rc::gen::map(gen::uniform<std::size_t>(1, c + 2),
				 [](std::size_t len) { return std::make_pair(0, len); })},
		{2, rc::gen::map(gen::uniform<int>(0, 3), [](int d) { return std::make_pair(1, static_cast<std::size_t>(d)); })},
		{1, rc::gen::map(gen::uniform<std::size_t>(1, n + 1),
				 [](std::size_t len) { return std::make_pair(0, len); })},
	});
	return rc::gen::map(rc::gen::pair(edge_page(w), end_kind), [n, c](auto p) {
		const std::size_t first = p.first;
		std::size_t last = first + p.second.second;
		if (p.second.first == 1) {
			// next run boundary after first, then -1, 0 or +1
			const std::size_t boundary = first - first % c + c;
			last = boundary + p.second.second - 1;
		}
		last = std::clamp<std::size_t>(last, first + 1, n);
		return std::make_pair(first, last);
	});
}

rc::Gen<std::size_t> folio(const world_layout& w)
{
	std::vector<std::size_t> foldable;
	for (std::size_t f = 0; f < w.folios.size(); f++)
		if (w.folios[f].nr_pages >= w.geo.cont_ptes)
			foldable.push_back(f);
	if (foldable.empty())
		return gen::uniform<std::size_t>(0, w.folios.size());
	return rc::gen::weightedOneOf<std::size_t>({
		{1, rc::gen::elementOf(foldable)},
		{1, gen::uniform<std::size_t>(0, w.folios.size())},
	});
}

rc::Gen<std::size_t> pfn_shift(const geometry& geo)
{
	const std::size_t c = geo.cont_ptes;
	// An index, so that a case shrinks towards the aligned world (RapidCheck's
	// weighted choices do not shrink).
	return rc::gen::map(gen::uniform<int>(0, 9), [c](int i) {
		return i < 6 ? std::size_t{0} : i == 6 ? c / 2 : i == 7 ? std::size_t{1} : c - 1;
	});
}

rc::Gen<std::array<std::uint8_t, max_caller_actions>> swarm()
{
	using scales = std::array<std::uint8_t, max_caller_actions>;
	// Indexes, so a case shrinks towards no swarm: 0 keeps an action as it
	// is, 1 leaves it out, 2 triples it.
	return rc::gen::apply(
		[](int on, std::vector<int> pick) {
			scales s;
			s.fill(1);
			if (on == 1)
				for (std::size_t i = 0; i < s.size(); i++)
					s[i] = pick[i] == 0 ? 1 : pick[i] == 1 ? 0 : 3;
			return s;
		},
		gen::uniform<int>(0, 2), rc::gen::container<std::vector<int>>(max_caller_actions, gen::uniform<int>(0, 3)));
}

rc::Gen<std::uint64_t> user_prot(bool vary_attributes)
{
	// Besides the flags and write permission, one attribute a fold must
	// compare sometimes differs between faults: an executable mapping
	// (PXN/UXN clear), non-shareable memory, a global entry, a special
	// (pfn-mapped) page, a kernel-only one, another memory type (AttrIndx,
	// bits 4:2, index 1 instead of 0) -- so a fold that skips part of the
	// comparison merges entries it must not.
	return rc::gen::apply(
		[vary_attributes](bool young, bool dirty, bool writable, std::uint64_t flip) {
			std::uint64_t p = PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_PXN | PTE_UXN |
					  PTE_RDONLY;
			if (vary_attributes)
				p ^= flip;
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
		rc::gen::weightedOneOf<bool>({{2, rc::gen::just(true)}, {1, rc::gen::just(false)}}),
		rc::gen::weightedOneOf<std::uint64_t>({{42, rc::gen::just(std::uint64_t{0})},
						       {1, rc::gen::just(PTE_UXN)},
						       {1, rc::gen::just(PTE_PXN | PTE_UXN)},
						       {1, rc::gen::just(PTE_SHARED)},
						       {1, rc::gen::just(PTE_NG)},
						       {1, rc::gen::just(PTE_SPECIAL)},
						       {1, rc::gen::just(PTE_USER)},
						       {1, rc::gen::just(std::uint64_t{1} << 2)}}));
}

rc::Gen<std::uint64_t> nonpresent_value(bool alias)
{
	return rc::gen::apply(
		[alias](unsigned type, std::uint64_t offset, bool alias_af, bool alias_cont, bool excl) {
			// Type bit 4 is PTE bit 10 (AF); offset bit 40 is PTE bit 52
			// (CONT).  Types 16-23 are swap areas past the 16th, 24-30
			// hwpoison, migration and device entries (their offset a pfn,
			// below bit 40 wherever physical addresses end below bit 52;
			// a migration entry's young bit is the migration caller's to
			// set), 31 a PTE marker, whose offset is what it marks.
			if (!alias)
				type &= 0xf;
			else if (alias_af)
				type |= 0x10;
			if ((type & SWP_TYPE_MASK) == SWP_PTE_MARKER) {
				constexpr std::uint64_t marks[] = {PTE_MARKER_UFFD_WP, PTE_MARKER_POISONED, PTE_MARKER_GUARD};
				offset = marks[offset % 3];
			} else if (alias && alias_cont && (type & SWP_TYPE_MASK) < MAX_SWAPFILES) {
				offset |= std::uint64_t{1} << 40;
			}
			return mk_swp_entry(type, offset, excl) | (offset == 0 && type == 0 ? PTE_SWP_EXCLUSIVE : 0);
		},
		gen::uniform<unsigned>(0, 32), gen::uniform<std::uint64_t>(1, 1u << 20), rc::gen::arbitrary<bool>(),
		rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>());
}

rc::Gen<std::vector<hw_plan_event>> hw_plan(const world_layout& w, std::size_t calls, std::size_t first,
					    std::size_t last)
{
	const std::size_t c = w.geo.cont_ptes;
	const std::size_t lo = first - std::min(first, c), hi = std::max(std::min(last + c, w.nr_entries), lo + 1);
	const std::size_t n = w.nr_entries;
	// Early calls of a command matter most (the first clear of a run, the
	// first read after it), later ones still get their share.
	auto call = rc::gen::weightedOneOf<std::size_t>(
		{{3, gen::uniform<std::size_t>(1, 5)},
		 {2, gen::uniform<std::size_t>(1, std::max<std::size_t>(calls, 1) + 1)}});
	auto one = rc::gen::apply(
		[c, n](std::size_t call_no, std::size_t entry, std::size_t nth, hw_kind kind, bool own_page,
		       std::size_t other) {
			// Usually the access is to the entry's own page; sometimes to
			// another page of its run, which lands there only while the
			// run is folded.
			const std::size_t page = own_page ? entry : std::min(entry - entry % c + other % c, n - 1);
			return hw_plan_event{call_no, entry, nth, kind, page};
		},
		call, gen::uniform<std::size_t>(lo, hi), gen::uniform<std::size_t>(0, 4),
		rc::gen::element(hw_kind::access, hw_kind::write),
		rc::gen::weightedOneOf<bool>({{3, rc::gen::just(true)}, {1, rc::gen::just(false)}}),
		gen::uniform<std::size_t>(0, c));
	return rc::gen::weightedOneOf<std::vector<hw_plan_event>>({
		{2, rc::gen::just(std::vector<hw_plan_event>{})},
		{5, rc::gen::container<std::vector<hw_plan_event>>(1, one)},
		{3, rc::gen::container<std::vector<hw_plan_event>>(2, one)},
		{1, rc::gen::container<std::vector<hw_plan_event>>(4, one)},
	});
}

} // namespace ptespec::gen
