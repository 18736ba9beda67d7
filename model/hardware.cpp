#include "model/hardware.h"

#include "model/pte.h"

namespace ptespec {

void hw_candidates(const std::vector<std::uint64_t>& table, const tlb_shadow& tlb, const geometry& geo,
		   std::size_t page, hw_kind kind, std::vector<std::size_t>& out, const hardware_options& hw)
{
	out.clear();
	if (page >= table.size() || hw.no_hafdbs)
		return;
	auto usable = [&](std::uint64_t e) { return pte_valid(e) && (kind == hw_kind::access || pte_write(e)); };
	const std::uint64_t own = table[page];
	if (pte_valid(own) && !pte_cont(own)) {
		if (usable(own))
			out.push_back(page);
		return;
	}
	// A CONT translation covers the whole run, and the MMU updates the one
	// entry it was built from, which may be any valid CONT entry.
	const std::size_t first = geo.run_start(page);
	const std::size_t last = std::min(first + geo.cont_ptes, table.size());
	if (!pte_valid_cont(own) && !tlb.run_cached_cont(first, last - first))
		return;
	for (std::size_t k = first; k < last; k++)
		if (pte_valid_cont(table[k]) && usable(table[k]))
			out.push_back(k);
}

bool walker_faults(std::uint64_t entry, hw_kind kind)
{
	return !pte_valid(entry) || !pte_young(entry) || (kind == hw_kind::write && pte_rdonly(entry));
}

std::uint64_t hw_update(std::uint64_t entry, hw_kind kind)
{
	std::uint64_t v = pte_mkyoung(entry);
	if (kind == hw_kind::write && pte_write(v))
		v = pte_clear_bits(v, PTE_RDONLY);
	return v;
}

std::size_t random_choices::choose(std::size_t n, choice_point what)
{
	if (n <= 1)
		return 0;
	if (what == choice_point::events_in_gap) {
		std::bernoulli_distribution happens(rate_);
		if (!happens(rng_))
			return 0;
		return 1 + std::uniform_int_distribution<std::size_t>(0, n - 2)(rng_);
	}
	return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
}

std::size_t scripted_choices::choose(std::size_t n, choice_point)
{
	if (pos_ >= script_.size())
		return 0;
	std::size_t v = script_[pos_++];
	return v < n ? v : n - 1;
}

std::size_t recording_choices::choose(std::size_t n, choice_point what)
{
	std::size_t v = inner_.choose(n, what);
	log_.push_back(v);
	return v;
}

void chosen_hardware::at_gap(hw_port& port)
{
	const std::size_t events = src_.choose(max_ + 1, choice_point::events_in_gap);
	for (std::size_t e = 0; e < events; e++) {
		const std::size_t page = src_.choose(port.nr_pages(), choice_point::page);
		const hw_kind kind = src_.choose(2, choice_point::kind) == 0 ? hw_kind::access : hw_kind::write;
		port.candidates(page, kind, cand_);
		if (cand_.empty())
			continue;
		const std::size_t landing = cand_[src_.choose(cand_.size(), choice_point::landing)];
		port.fire(kind, page, landing);
	}
}

void planned_hardware::at_gap(hw_port& port)
{
	for (const planned_event& e : plan_) {
		if (e.gap != port.gap())
			continue;
		port.candidates(e.page, e.kind, cand_);
		if (!cand_.empty())
			port.fire(e.kind, e.page, cand_[e.landing % cand_.size()]);
	}
}

} // namespace ptespec
