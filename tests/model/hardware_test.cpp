// The MMU's racing agent as the model implements it: where an access or a
// write may land (hw_candidates), what it does to the entry (hw_update), and
// the agents that decide when events happen.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "model/hardware.h"
#include "model/machine.h"
#include "model/pte.h"

namespace ptespec {
namespace {

constexpr std::uint64_t prot_base = PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG;
constexpr std::uint64_t prot_rw_clean = prot_base | PTE_WRITE | PTE_RDONLY;
constexpr std::uint64_t prot_ro = prot_base | PTE_RDONLY;

std::uint64_t make_pte(std::uint64_t pfn, std::uint64_t prot, const geometry& geo)
{
	return pfn_pte(pfn, prot, geo);
}

// Entries [first, first+nr) map pfn base+i; CONT when `folded`.
void map_range(machine& m, std::size_t first, std::size_t nr, std::uint64_t base, std::uint64_t prot, bool folded)
{
	for (std::size_t i = 0; i < nr; i++) {
		const std::uint64_t p = make_pte(base + i, prot, m.geo());
		m.poke(first + i, folded ? pte_mkcont(p) : p);
	}
}

std::vector<std::size_t> candidates(const machine& m, std::size_t page, hw_kind kind)
{
	std::vector<std::size_t> out;
	hw_candidates(m.table(), m.tlb(), m.geo(), page, kind, out);
	return out;
}

std::vector<std::size_t> range(std::size_t first, std::size_t nr, std::size_t except = SIZE_MAX)
{
	std::vector<std::size_t> v;
	for (std::size_t i = first; i < first + nr; i++)
		if (i != except)
			v.push_back(i);
	return v;
}

TEST(hw_update, access_sets_af_only)
{
	const geometry geo = geometry::of(granule::k4);
	for (std::uint64_t prot : {prot_rw_clean, prot_ro, prot_base | PTE_WRITE, prot_rw_clean | PTE_CONT}) {
		const std::uint64_t p = make_pte(0x1234, prot, geo);
		EXPECT_EQ(hw_update(p, hw_kind::access), p | PTE_AF);
		EXPECT_EQ(hw_update(p | PTE_AF, hw_kind::access), p | PTE_AF);
	}
}

TEST(hw_update, write_on_writable_clean_clears_rdonly_and_sets_af)
{
	const geometry geo = geometry::of(granule::k16);
	const std::uint64_t p = make_pte(77, prot_rw_clean | PTE_CONT, geo);
	ASSERT_FALSE(pte_dirty(p));
	const std::uint64_t q = hw_update(p, hw_kind::write);
	EXPECT_EQ(q, (p | PTE_AF) & ~PTE_RDONLY);
	EXPECT_TRUE(pte_hw_dirty(q));
	EXPECT_TRUE(pte_young(q));
	EXPECT_FALSE(pte_sw_dirty(q));	// hardware never touches the software bit
}

TEST(hw_rules, write_never_lands_on_a_non_writable_entry)
{
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, 2 * geo.cont_ptes);
	map_range(m, 0, geo.cont_ptes, 0x100, prot_ro, true);
	map_range(m, geo.cont_ptes, geo.cont_ptes, 0x200, prot_ro, false);
	for (std::size_t page = 0; page < m.size(); page++) {
		EXPECT_TRUE(candidates(m, page, hw_kind::write).empty()) << page;
		EXPECT_FALSE(candidates(m, page, hw_kind::access).empty()) << page;
	}
}

TEST(hw_rules, nothing_lands_on_an_invalid_entry)
{
	// Non-present values whose bits read as CONT and AF are still not valid.
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, geo.cont_ptes);
	for (std::size_t i = 0; i < m.size(); i++)
		m.poke(i, i % 2 ? mk_swp_entry(0x10, (1ull << 40) | i) : 0);
	for (std::size_t page = 0; page < m.size(); page++)
		for (hw_kind k : {hw_kind::access, hw_kind::write})
			EXPECT_TRUE(candidates(m, page, k).empty()) << page;
	// Nor outside the table.
	EXPECT_TRUE(candidates(m, m.size(), hw_kind::access).empty());
}

TEST(hw_rules, non_cont_entry_takes_only_its_own_page_events)
{
	const geometry geo = geometry::of(granule::k64);
	machine m(geo, 2 * geo.cont_ptes);
	map_range(m, 0, geo.cont_ptes, 0x400, prot_rw_clean, false);
	// A folded neighbour run does not draw events from the non-CONT one.
	map_range(m, geo.cont_ptes, geo.cont_ptes, 0x800, prot_rw_clean, true);
	for (std::size_t page = 0; page < geo.cont_ptes; page++)
		for (hw_kind k : {hw_kind::access, hw_kind::write})
			EXPECT_EQ(candidates(m, page, k), std::vector<std::size_t>{page});
	for (std::size_t page = geo.cont_ptes; page < m.size(); page++)
		for (std::size_t c : candidates(m, page, hw_kind::access))
			EXPECT_GE(c, geo.cont_ptes);
}

// Without hardware access/dirty management no walker writes an entry: an
// access that would set AF, or a write that would clear RDONLY, faults
// instead, and the walker of one entry says which.
TEST(hw_rules, without_hafdbs_nothing_lands_and_the_walker_faults)
{
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, 2 * geo.cont_ptes, hardware_options{false, true});
	map_range(m, 0, geo.cont_ptes, 0x400, prot_rw_clean, false);
	map_range(m, geo.cont_ptes, geo.cont_ptes, 0x410, prot_rw_clean, true);
	std::vector<std::size_t> out;
	for (std::size_t page = 0; page < m.size(); page++)
		for (hw_kind k : {hw_kind::access, hw_kind::write}) {
			hw_candidates(m.table(), m.tlb(), m.geo(), page, k, out, m.features());
			EXPECT_TRUE(out.empty()) << page;
			EXPECT_FALSE(candidates(m, page, k).empty()) << "with HAFDBS #" << page << " takes it";
		}
	const std::uint64_t clean = pte_mkold(make_pte(0x400, prot_rw_clean, geo));
	EXPECT_TRUE(walker_faults(clean, hw_kind::access));
	EXPECT_FALSE(walker_faults(pte_mkyoung(clean), hw_kind::access));
	EXPECT_TRUE(walker_faults(pte_mkyoung(clean), hw_kind::write));
	EXPECT_FALSE(walker_faults(pte_mkyoung(pte_mkdirty(clean)), hw_kind::write));
}

TEST(hw_rules, folded_run_event_may_land_in_any_valid_cont_entry)
{
	// Exhaustive over which entries of one 4K run are still valid (the
	// others are non-present garbage aliasing CONT): an event on any page of
	// the run may land in exactly the valid CONT entries, and nowhere once
	// none is left.
	const geometry geo = geometry::of(granule::k4);
	std::vector<std::uint64_t> valid_entry(geo.cont_ptes);
	for (std::size_t i = 0; i < geo.cont_ptes; i++)
		valid_entry[i] = pte_mkcont(make_pte(0x3000 + i, prot_rw_clean, geo));
	std::vector<std::size_t> expect;
	for (unsigned mask = 0; mask < (1u << geo.cont_ptes); mask++) {
		expect.clear();
		std::vector<std::uint64_t> table(geo.cont_ptes);
		for (std::size_t i = 0; i < geo.cont_ptes; i++) {
			const bool valid = mask >> i & 1;
			table[i] = valid ? valid_entry[i] : mk_swp_entry(0x10, 1ull << 40);
			if (valid)
				expect.push_back(i);
		}
		tlb_shadow tlb;
		tlb.reset(table);
		std::vector<std::size_t> out;
		for (std::size_t page = 0; page < geo.cont_ptes; page++) {
			for (hw_kind k : {hw_kind::access, hw_kind::write}) {
				hw_candidates(table, tlb, geo, page, k, out);
				ASSERT_EQ(out, expect) << "mask " << mask << " page " << page;
			}
		}
	}

	// A CONT translation is built from CONT entries only: in a (misprogrammed)
	// mixed run the non-CONT entry keeps to its own page.
	std::vector<std::uint64_t> mixed(valid_entry);
	mixed[4] = pte_mknoncont(mixed[4]);
	tlb_shadow tlb;
	tlb.reset(mixed);
	std::vector<std::size_t> out;
	hw_candidates(mixed, tlb, geo, 0, hw_kind::access, out);
	EXPECT_EQ(out, range(0, geo.cont_ptes, 4));
	hw_candidates(mixed, tlb, geo, 4, hw_kind::access, out);
	EXPECT_EQ(out, std::vector<std::size_t>{4});
}

TEST(hw_rules, cleared_entry_of_a_run_takes_events_in_remaining_cont_entries)
{
	const geometry geo = geometry::of(granule::k16);
	machine m(geo, geo.cont_ptes);
	map_range(m, 0, geo.cont_ptes, 0x8000, prot_rw_clean, true);
	const std::size_t j = 5;
	m.exchange(j, 0);	// a full teardown clears one entry of the run
	EXPECT_TRUE(m.tlb().run_cached_cont(0, geo.cont_ptes));
	EXPECT_EQ(candidates(m, j, hw_kind::write), range(0, geo.cont_ptes, j));

	// A flush does not stop it: any access through a remaining CONT entry
	// may refill a translation that covers page j again.
	m.flush_tlb_range(0, geo.cont_ptes);
	EXPECT_EQ(candidates(m, j, hw_kind::access), range(0, geo.cont_ptes, j));

	// With every entry cleared a stale CONT translation may remain, but
	// there is no valid entry left to update.
	for (std::size_t i = 0; i < geo.cont_ptes; i++)
		m.exchange(i, 0);
	EXPECT_TRUE(m.tlb().run_cached_cont(0, geo.cont_ptes));
	EXPECT_TRUE(candidates(m, j, hw_kind::access).empty());
	m.flush_tlb_range(0, geo.cont_ptes);
	EXPECT_FALSE(m.tlb().run_cached_cont(0, geo.cont_ptes));

	// Unfold's rewrite (after break-before-make) leaves per-page entries.
	map_range(m, 0, geo.cont_ptes, 0x8000, prot_rw_clean, false);
	m.exchange(j, 0);
	EXPECT_TRUE(candidates(m, j, hw_kind::access).empty());
	EXPECT_EQ(candidates(m, j + 1, hw_kind::access), std::vector<std::size_t>{j + 1});
}

// What an agent did, comparable across runs.
using event_key = std::tuple<hw_kind, std::size_t, std::size_t, std::uint64_t, std::uint64_t>;

// A teardown-like call over a folded run and a non-CONT run with `hw`
// racing it; returns the hardware events in order.
std::vector<event_key> run_workload(hardware_agent& hw)
{
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, 2 * geo.cont_ptes);
	map_range(m, 0, geo.cont_ptes, 0x100, prot_rw_clean, true);
	map_range(m, geo.cont_ptes, geo.cont_ptes, 0x200, prot_rw_clean, false);
	history h;
	recorder rec(h);
	m.set_observer(&rec);
	m.set_hardware(&hw);
	const call c{call_kind::clear_full_ptes, 0, m.size(), true};
	m.begin_call(c);
	for (std::size_t i = 0; i < m.size(); i++) {
		m.read(i);
		m.exchange(i, 0);
	}
	m.end_call(c, {});
	std::vector<event_key> out;
	for (const step& s : h.steps)
		if (auto* e = std::get_if<hw_event>(&s))
			out.emplace_back(e->kind, e->page, e->landing, e->old_value, e->new_value);
	return out;
}

TEST(hw_agents, random_choices_with_a_fixed_seed_are_reproducible)
{
	random_choices a(99, 0.5), b(99, 0.5), other(100, 0.5);
	chosen_hardware ha(a, 2), hb(b, 2), hother(other, 2);
	const auto ea = run_workload(ha);
	EXPECT_FALSE(ea.empty());
	EXPECT_EQ(ea, run_workload(hb));
	EXPECT_NE(ea, run_workload(hother));

	random_choices never(99, 0.0);
	chosen_hardware hnever(never, 2);
	EXPECT_TRUE(run_workload(hnever).empty());
}

TEST(hw_agents, scripted_choices_replay_a_recorded_run)
{
	random_choices inner(2024, 0.7);
	recording_choices rec(inner);
	chosen_hardware live(rec, 3);
	const auto events = run_workload(live);
	ASSERT_FALSE(events.empty());

	scripted_choices script(rec.recorded());
	chosen_hardware replayed(script, 3);
	EXPECT_EQ(run_workload(replayed), events);
}

TEST(hw_agents, planned_event_fires_at_its_gap_only)
{
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, geo.cont_ptes);
	map_range(m, 0, geo.cont_ptes, 0x100, prot_rw_clean, true);
	planned_hardware hw;
	// landing is taken modulo the candidates: 16 + 3 picks entry 3.
	hw.plan({{2, hw_kind::write, 7, geo.cont_ptes + 3}});
	history h;
	recorder rec(h);
	m.set_observer(&rec);
	m.set_hardware(&hw);
	const call c{call_kind::ptep_get, 7};
	m.begin_call(c);
	for (std::size_t i = 0; i < 5; i++)
		m.read(i);
	m.end_call(c, {});

	// begin, read, read, <event>, read, read, read, end
	ASSERT_EQ(h.steps.size(), 8u);
	const auto* e = std::get_if<hw_event>(&h.steps[3]);
	ASSERT_NE(e, nullptr);
	EXPECT_EQ(e->page, 7u);
	EXPECT_EQ(e->landing, 3u);
	EXPECT_TRUE(pte_hw_dirty(m.table()[3]));
	EXPECT_EQ(m.cost().hw_events, 1u);
}

TEST(hw_agents, planned_impossible_events_are_skipped)
{
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, geo.cont_ptes);
	map_range(m, 0, 4, 0x100, prot_ro, false);
	planned_hardware hw;
	hw.plan({
		{0, hw_kind::write, 1, 0},	// read-only: the write faults
		{1, hw_kind::access, 9, 0},	// page 9 is not mapped
		{1, hw_kind::access, 99, 0},	// outside the table
	});
	m.set_hardware(&hw);
	const std::vector<std::uint64_t> before = m.table();
	const call c{call_kind::ptep_get, 0};
	m.begin_call(c);
	m.read(0);
	m.read(1);
	m.end_call(c, {});
	EXPECT_EQ(m.cost().hw_events, 0u);
	EXPECT_EQ(m.table(), before);
}

// An agent that tries to land an event where the architecture forbids it.
struct misplacing_agent : hardware_agent {
	std::vector<bool> results;
	void at_gap(hw_port& port) override
	{
		results.push_back(port.fire(hw_kind::access, 0, 1));	// non-CONT page 0 into entry 1
		results.push_back(port.fire(hw_kind::access, 0, 0));
	}
};

TEST(hw_agents, fire_rejects_a_landing_that_is_not_a_candidate)
{
	const geometry geo = geometry::of(granule::k4);
	machine m(geo, 4);
	map_range(m, 0, 4, 0x100, prot_rw_clean, false);
	misplacing_agent hw;
	m.set_hardware(&hw);
	m.idle();
	EXPECT_EQ(hw.results, (std::vector<bool>{false, true}));
	EXPECT_FALSE(pte_young(m.table()[1]));
	EXPECT_TRUE(pte_young(m.table()[0]));
	EXPECT_EQ(m.cost().hw_events, 1u);
}

} // namespace
} // namespace ptespec
