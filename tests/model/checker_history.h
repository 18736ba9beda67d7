// The hand-written histories the checker's tests judge: a 4K table of 32
// entries, two runs of CONT_PTES = 16, each run mapping its own 16-page folio
// with aligned pfns; `hist` records a history step by step and checks it.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/checker.h"
#include "model/hardware.h"
#include "model/observer.h"
#include "model/pte.h"
#include "model/tlb.h"

namespace ptespec::checker_test {

inline constexpr std::size_t NR = 32;
inline constexpr std::size_t RUN = 16;
inline constexpr std::uint64_t PFN0 = 0x400;	// aligned to CONT_PTES: folio 0 is #0-#15, folio 1 is #16-#31

inline const geometry geo4k = geometry::of(granule::k4);

// A user page, inner shareable, writable-clean (DBM with RDONLY set).
inline constexpr std::uint64_t PROT = PTE_VALID | PTE_TYPE | PTE_USER | PTE_SHARED | PTE_NG | PTE_WRITE | PTE_RDONLY;

// Entry i mapping its own page of its run's folio, old and clean.
inline std::uint64_t page(std::size_t i, bool cont = false)
{
	return pfn_pte<std::uint64_t>(PFN0 + i, PROT | (cont ? PTE_CONT : 0), geo4k);
}
inline std::uint64_t young(std::uint64_t v) { return pte_mkyoung(v); }
inline std::uint64_t dirty(std::uint64_t v) { return pte_mkdirty(v); }
inline std::uint64_t both(std::uint64_t v) { return pte_mkyoung(pte_mkdirty(v)); }

// |C . . . ... | for every run in `folded`, the rest mapped without CONT.
inline std::vector<std::uint64_t> table(std::initializer_list<std::size_t> folded_runs)
{
	std::vector<std::uint64_t> t(NR);
	for (std::size_t i = 0; i < NR; i++)
		t[i] = page(i);
	for (std::size_t r : folded_runs)
		for (std::size_t i = r * RUN; i < (r + 1) * RUN; i++)
			t[i] = page(i, true);
	return t;
}

// Builds a history step by step, tracking the table and what the TLB may
// hold exactly as the machine does, so an event can only land where the
// architecture lets it.
class hist {
public:
	explicit hist(std::vector<std::uint64_t> initial, hardware_options hw = {}) : tlb_(hw)
	{
		h_.geo = geo4k;
		h_.hw = hw;
		h_.folios = {{PFN0, RUN}, {PFN0 + RUN, RUN}};
		h_.initial = initial;
		t_ = std::move(initial);
		tlb_.reset(t_);
	}

	hist& begin(call c)
	{
		h_.steps.push_back(call_begin_step{c});
		open_.push_back(c);
		return *this;
	}
	// Ends the innermost open call.
	hist& end(call_result r = {})
	{
		if (open_.empty())
			throw std::logic_error("hist: end() without an open call");
		h_.steps.push_back(call_end_step{open_.back(), r});
		open_.pop_back();
		return *this;
	}
	hist& ret(std::uint64_t pte) { return end(call_result{pte, std::nullopt, std::nullopt}); }

	hist& read(std::size_t i) { return prim(prim_kind::read, i, t_.at(i)); }
	hist& reads(std::size_t first, std::size_t nr)
	{
		for (std::size_t i = first; i < first + nr; i++)
			read(i);
		return *this;
	}
	hist& write(std::size_t i, std::uint64_t v) { return prim(prim_kind::write, i, v); }
	hist& xchg(std::size_t i, std::uint64_t v = 0) { return prim(prim_kind::exchange, i, v); }
	hist& cmpxchg(std::size_t i, std::uint64_t v) { return prim(prim_kind::atomic_update, i, v); }
	hist& tlbi(std::size_t first, std::size_t nr, unsigned flags = 0)
	{
		tlb_.flush(first, nr, t_, flags);
		h_.steps.push_back(primitive_step{prim_kind::tlbi_range, first, nr, 0, 0, flags});
		return *this;
	}

	// Hardware records an access or write to `pg` in entry `landing`.
	hist& hw(std::size_t pg, std::size_t landing, hw_kind kind = hw_kind::access)
	{
		std::vector<std::size_t> cand;
		hw_candidates(t_, tlb_, geo4k, pg, kind, cand, h_.hw);
		bool ok = false;
		for (std::size_t c : cand)
			ok = ok || c == landing;
		if (!ok)
			throw std::logic_error("hist: an event on #" + std::to_string(pg) + " cannot land in #" +
					       std::to_string(landing));
		const std::uint64_t old = t_[landing];
		t_[landing] = hw_update(old, kind);
		tlb_.store(landing, t_[landing]);
		h_.steps.push_back(hw_event{++ids_, kind, pg, landing, old, t_[landing]});
		return *this;
	}
	hist& hw_write(std::size_t pg, std::size_t landing) { return hw(pg, landing, hw_kind::write); }

	std::uint64_t at(std::size_t i) const { return t_.at(i); }
	std::size_t steps() const { return h_.steps.size(); }
	const history& get() const { return h_; }

	checker check() const
	{
		checker ck(h_.geo, h_.folios, h_.initial, h_.hw);
		replay(h_, ck);
		return ck;
	}

private:
	hist& prim(prim_kind k, std::size_t i, std::uint64_t v)
	{
		const std::uint64_t old = t_.at(i);
		if (k != prim_kind::read) {
			t_[i] = v;
			tlb_.store(i, v);
		}
		h_.steps.push_back(primitive_step{k, i, 1, old, k == prim_kind::read ? old : v});
		return *this;
	}

	history h_;
	std::vector<std::uint64_t> t_;
	tlb_shadow tlb_;
	std::vector<call> open_;
	std::uint64_t ids_ = 0;
};

// The calls, spelled as core-mm spells them.
inline call mk(call_kind k, std::size_t i, std::size_t nr = 1)
{
	call c;
	c.kind = k;
	c.index = i;
	c.nr = nr;
	return c;
}
inline call ptep_get(std::size_t i) { return mk(call_kind::ptep_get, i); }
inline call ptep_get_lockless(std::size_t i) { return mk(call_kind::ptep_get_lockless, i); }
inline call ptep_get_and_clear(std::size_t i) { return mk(call_kind::ptep_get_and_clear, i); }
inline call ptep_get_and_clear_full(std::size_t i, bool full)
{
	call c = mk(call_kind::ptep_get_and_clear_full, i);
	c.full = full;
	return c;
}
inline call get_and_clear_full_ptes(std::size_t i, std::size_t nr, bool full)
{
	call c = mk(call_kind::get_and_clear_full_ptes, i, nr);
	c.full = full;
	return c;
}
inline call clear_young_dirty_ptes(std::size_t i, std::size_t nr, unsigned flags)
{
	call c = mk(call_kind::clear_young_dirty_ptes, i, nr);
	c.flags = flags;
	return c;
}
inline call ptep_set_access_flags(std::size_t i, std::uint64_t entry, bool dirty_fault)
{
	call c = mk(call_kind::ptep_set_access_flags, i);
	c.pte = entry;
	c.flags = dirty_fault ? 1 : 0;
	return c;
}
inline call set_ptes(std::size_t i, std::uint64_t pte, std::size_t nr)
{
	call c = mk(call_kind::set_ptes, i, nr);
	c.pte = pte;
	return c;
}

inline call_result young_answer(bool y) { return call_result{std::nullopt, y, std::nullopt}; }
inline call_result changed_answer(bool c) { return call_result{std::nullopt, std::nullopt, c}; }

// The names of the properties the checker flagged: a failing EXPECT prints
// the whole set, which says more than one boolean.
inline std::set<std::string> flagged(const checker& ck)
{
	std::set<std::string> s;
	for (const auto& v : ck.violations())
		s.insert(std::string(to_string(v.prop)));
	return s;
}
using names = std::set<std::string>;

// The checker reported `p` on page `pg`, and `why` is in its message.
inline void expect_violation(const checker& ck, property p, std::size_t pg, const std::string& why = "")
{
	const violation* v = ck.first(p);
	ASSERT_NE(v, nullptr) << to_string(p) << " not reported";
	EXPECT_EQ(v->page, pg) << v->message;
	if (!why.empty()) {
		EXPECT_NE(v->message.find(why), std::string::npos) << v->message;
	}
}

// Folds run r the legal way: clear all, invalidate, rewrite with CONT; the
// rewrite gives each entry the flags `flags_of(i)`.
template <class F>
inline hist& fold_run(hist& h, std::size_t r, F&& flags_of)
{
	h.begin(mk(call_kind::contpte_try_fold, r * RUN));
	for (std::size_t i = r * RUN; i < (r + 1) * RUN; i++)
		h.xchg(i);
	h.tlbi(r * RUN, RUN);
	for (std::size_t i = r * RUN; i < (r + 1) * RUN; i++)
		h.write(i, flags_of(i));
	return h.end();
}

} // namespace ptespec::checker_test
