// Turns a strategy class template into a registered, type-erased strategy.
//
//   PTESPEC_STRATEGY(my_strategy, "my-strategy", "one line saying what it does")
//
// in a .cpp registers my_strategy<machine> and my_strategy<counted_machine>
// (in-tree, by static initialisation) -- plugins use PTESPEC_PLUGIN instead
// (impl/plugin_api.h).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "impl/generic.h"
#include "impl/strategy.h"
#include "model/errors.h"
#include "model/symbolic_machine.h"
#include "model/word.h"

namespace ptespec {

// A call must name entries inside the table, and the table must hold whole
// runs (a kernel page table always does): strategies index a run without
// bounds checks, as the kernel does.  Bad input, so usage_error.
inline void check_call_range(const call& c, std::size_t table_size, const geometry& geo)
{
	if (table_size % geo.cont_ptes != 0)
		throw usage_error("table of " + std::to_string(table_size) + " entries: expected a multiple of CONT_PTES (" +
				  std::to_string(geo.cont_ptes) + ")");
	const std::size_t nr = takes_nr(c.kind) ? c.nr : 1;
	if (nr == 0 || c.index >= table_size || nr > table_size - c.index)
		throw usage_error(describe(c) + ": expected nr >= 1 and entries inside a table of " +
				  std::to_string(table_size));
}

// Core-mm's generic test_and_clear_young_ptes / clear_flush_young_ptes
// (include/linux/pgtable.h), for a strategy that has only the one-entry
// call: that call on each entry of the batch, every one made (the loop
// never stops at the first young entry), the answers ORed.
template <class One>
auto generic_young_ptes(const call& c, One one)
{
	auto young = one(c.index);
	for (std::size_t k = 1; k < c.nr; k++) {
		const auto y = one(c.index + k);
		young = young || y;
	}
	return young;
}

// Core-mm's generic modify_prot_start_ptes, for a strategy without it:
// ptep_modify_prot_start on each entry -- whose generic definition is
// ptep_get_and_clear -- the first value with the young and dirty of every
// entry ORed in.
template <class W, class One>
W generic_modify_prot_start_ptes(const call& c, One one)
{
	W pte = one(c.index);
	for (std::size_t k = 1; k < c.nr; k++)
		pte = pte_or_flags(pte, one(c.index + k));
	return pte;
}

// What dispatch hands back on machine M: values and truths for concrete
// words; the symbolic machine specialises it to keep the terms.
template <class M>
struct dispatch_result {
	using W = typename M::word;
	using type = call_result;
	static std::uint64_t value(const W& w) { return word_ops<W>::value(w); }
	static bool truth(const typename M::boolean& b) { return static_cast<bool>(word_ops<W>::truth(b)); }
};

// The value call c passes on machine m: a machine that gives calls
// arguments of its own (the proofs' symbolic one) answers; otherwise the
// call's concrete word.
template <class M>
typename M::word call_argument(M& m, const call& c)
{
	if constexpr (requires { m.argument(c); })
		return m.argument(c);
	else
		return m.lit(c.pte);
}

// Runs call c on strategy instance s over machine m.  Calls the strategy
// does not provide throw internal_error; callers ask implements() first.
// With `probe` set, nothing runs: *probe says whether the call exists.
template <class S, class M>
typename dispatch_result<M>::type dispatch(S& s, M& m, const call& c, bool* probe = nullptr)
{
	using W = typename M::word;
	if (!probe)
		check_call_range(c, m.size(), m.geo());
	auto value = [](const W& w) { return dispatch_result<M>::value(w); };
	auto truth = [](const typename M::boolean& b) { return dispatch_result<M>::truth(b); };
	typename dispatch_result<M>::type r;
	switch (c.kind) {
	case call_kind::set_ptes:
		if constexpr (requires { s.set_ptes(m, c.index, m.lit(0), c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.set_ptes(m, c.index, call_argument(m, c), c.nr);
			return r;
		}
		break;
	case call_kind::ptep_get:
		if constexpr (requires { s.ptep_get(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.pte = value(s.ptep_get(m, c.index));
			return r;
		}
		break;
	case call_kind::ptep_get_lockless:
		if constexpr (requires { s.ptep_get_lockless(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.pte = value(s.ptep_get_lockless(m, c.index));
			return r;
		}
		break;
	case call_kind::ptep_get_and_clear:
		if constexpr (requires { s.ptep_get_and_clear(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.pte = value(s.ptep_get_and_clear(m, c.index));
			return r;
		}
		break;
	case call_kind::ptep_get_and_clear_full:
		if constexpr (requires { s.ptep_get_and_clear_full(m, c.index, c.full); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.pte = value(s.ptep_get_and_clear_full(m, c.index, c.full));
			return r;
		}
		break;
	case call_kind::get_and_clear_full_ptes:
		if constexpr (requires { s.get_and_clear_full_ptes(m, c.index, c.nr, c.full); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.pte = value(s.get_and_clear_full_ptes(m, c.index, c.nr, c.full));
			return r;
		}
		break;
	case call_kind::clear_full_ptes:
		if constexpr (requires { s.clear_full_ptes(m, c.index, c.nr, c.full); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.clear_full_ptes(m, c.index, c.nr, c.full);
			return r;
		}
		break;
	case call_kind::clear_non_present_ptes:
		if (probe) {
			*probe = true;
			return r;
		}
		if constexpr (requires { s.clear_non_present_ptes(m, c.index, c.nr); }) {
			s.clear_non_present_ptes(m, c.index, c.nr);
		} else {
			// Core-mm's generic definition, which every strategy has:
			// a swap entry or marker is cleared by a plain store (arm64's
			// pte_clear), since no run holds a non-present entry.
			for (std::size_t k = 0; k < c.nr; k++)
				m.write(c.index + k, m.lit(0));
		}
		return r;
	case call_kind::ptep_test_and_clear_young:
		if constexpr (requires { s.ptep_test_and_clear_young(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.young = truth(s.ptep_test_and_clear_young(m, c.index));
			return r;
		}
		break;
	case call_kind::ptep_clear_flush_young:
		if constexpr (requires { s.ptep_clear_flush_young(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.young = truth(s.ptep_clear_flush_young(m, c.index));
			return r;
		}
		break;
	case call_kind::wrprotect_ptes:
		if constexpr (requires { s.wrprotect_ptes(m, c.index, c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.wrprotect_ptes(m, c.index, c.nr);
			return r;
		}
		break;
	case call_kind::clear_young_dirty_ptes:
		if constexpr (requires { s.clear_young_dirty_ptes(m, c.index, c.nr, c.flags); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.clear_young_dirty_ptes(m, c.index, c.nr, c.flags);
			return r;
		}
		break;
	case call_kind::ptep_set_access_flags:
		if constexpr (requires { s.ptep_set_access_flags(m, c.index, m.lit(0), true); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.changed = truth(s.ptep_set_access_flags(m, c.index, call_argument(m, c), c.flags != 0));
			return r;
		}
		break;
	case call_kind::contpte_try_fold:
		if constexpr (requires { s.contpte_try_fold(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.contpte_try_fold(m, c.index);
			return r;
		}
		break;
	case call_kind::contpte_try_unfold:
		if constexpr (requires { s.contpte_try_unfold(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.contpte_try_unfold(m, c.index);
			return r;
		}
		break;
	case call_kind::test_and_clear_young_ptes:
		if constexpr (requires { s.test_and_clear_young_ptes(m, c.index, c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.young = truth(s.test_and_clear_young_ptes(m, c.index, c.nr));
			return r;
		} else if constexpr (requires { s.ptep_test_and_clear_young(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			auto one = [&](std::size_t i) { return s.ptep_test_and_clear_young(m, i); };
			r.young = truth(generic_young_ptes(c, one));
			return r;
		}
		break;
	case call_kind::clear_flush_young_ptes:
		if constexpr (requires { s.clear_flush_young_ptes(m, c.index, c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.young = truth(s.clear_flush_young_ptes(m, c.index, c.nr));
			return r;
		} else if constexpr (requires { s.ptep_clear_flush_young(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			auto one = [&](std::size_t i) { return s.ptep_clear_flush_young(m, i); };
			r.young = truth(generic_young_ptes(c, one));
			return r;
		}
		break;
	case call_kind::modify_prot_start_ptes:
		if constexpr (requires { s.modify_prot_start_ptes(m, c.index, c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			r.pte = value(s.modify_prot_start_ptes(m, c.index, c.nr));
			return r;
		} else if constexpr (requires { s.ptep_get_and_clear(m, c.index); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			auto one = [&](std::size_t i) { return s.ptep_get_and_clear(m, i); };
			r.pte = value(generic_modify_prot_start_ptes<W>(c, one));
			return r;
		}
		break;
	case call_kind::modify_prot_commit_ptes:
		if constexpr (requires { s.modify_prot_commit_ptes(m, c.index, m.lit(0), c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			s.modify_prot_commit_ptes(m, c.index, call_argument(m, c), c.nr);
			return r;
		} else if constexpr (requires { s.set_ptes(m, c.index, m.lit(0), c.nr); }) {
			if (probe) {
				*probe = true;
				return r;
			}
			// Core-mm's generic commit: ptep_modify_prot_commit, a
			// set_pte_at, entry by entry.
			const W pte = call_argument(m, c);
			for (std::size_t k = 0; k < c.nr; k++)
				s.set_ptes(m, c.index + k, pte_advance_pfn(pte, k, m.geo()), 1);
			return r;
		}
		break;
	}
	if (probe) {
		*probe = false;
		return r;
	}
	throw internal_error(std::string("strategy does not implement ") + std::string(to_string(c.kind)));
}

// Whether S provides call kind k; decided at compile time, asked at run time.
template <template <class> class S>
bool strategy_implements(call_kind k)
{
	S<machine> s;
	machine m(geometry::of(granule::k4), 1);
	call c;
	c.kind = k;
	bool has = false;
	(void)dispatch(s, m, c, &has);
	return has;
}

template <template <class> class S>
class strategy_model final : public strategy {
public:
	strategy_model(std::string name, std::string description, std::string origin)
		: info_{std::move(name), std::move(description), std::move(origin)}
	{
		for (std::size_t k = 0; k < nr_call_kinds; k++)
			implemented_[k] = strategy_implements<S>(static_cast<call_kind>(k));
	}
	const strategy_info& info() const override { return info_; }
	bool implements(call_kind k) const override { return implemented_[static_cast<std::size_t>(k)]; }
	bool batch_is_generic(call_kind k) const override
	{
		return ptespec::batch_is_generic<S<symbolic_machine>, symbolic_machine>(k);
	}
	call_result invoke(machine& m, const call& c) override
	{
		S<machine> s;
		return dispatch(s, m, c);
	}
	call_result invoke(counted_machine& m, const call& c) override
	{
		S<counted_machine> s;
		return dispatch(s, m, c);
	}
	sym_call_result invoke(symbolic_machine& m, const call& c) override
	{
		S<symbolic_machine> s;
		return dispatch(s, m, c);
	}
	// A hint is written over the machine, S<M>::pte_batch_hint(m, i, pte),
	// branching through m.branch like a call, so the proofs run the same
	// source; or over concrete words only, S<M>::pte_batch_hint(geo, i,
	// pte), which the proofs cannot run.
	std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte) const override
	{
		if constexpr (requires(machine& m) { S<machine>::pte_batch_hint(m, i, pte); }) {
			machine m(g, 0);	// the hint reads no entry: the machine only decides its branches
			return S<machine>::pte_batch_hint(m, i, pte);
		} else if constexpr (requires { S<machine>::pte_batch_hint(g, i, pte); })
			return S<machine>::pte_batch_hint(g, i, pte);
		else
			return 1;
	}
	bool has_batch_hint() const override
	{
		return requires(machine& m, const geometry& g, std::size_t i, std::uint64_t pte) {
			S<machine>::pte_batch_hint(m, i, pte);
		} || requires(const geometry& g, std::size_t i, std::uint64_t pte) { S<machine>::pte_batch_hint(g, i, pte); };
	}
	std::optional<std::size_t> pte_batch_hint(symbolic_machine& m, std::size_t i, const z3::expr& pte) override
	{
		if constexpr (requires { S<symbolic_machine>::pte_batch_hint(m, i, pte); })
			return S<symbolic_machine>::pte_batch_hint(m, i, pte);
		else if constexpr (requires(const geometry& g, std::uint64_t v) { S<machine>::pte_batch_hint(g, i, v); })
			return std::nullopt;
		else
			return 1;
	}

private:
	strategy_info info_;
	bool implemented_[nr_call_kinds] = {};
};

template <template <class> class S>
std::unique_ptr<strategy> make_strategy(std::string name, std::string description, std::string origin)
{
	return std::make_unique<strategy_model<S>>(std::move(name), std::move(description), std::move(origin));
}

// Static registration for strategies compiled into the ptespec binary.
struct strategy_registrar {
	explicit strategy_registrar(std::unique_ptr<strategy> s) { registry::global().add(std::move(s)); }
};

} // namespace ptespec

#define PTESPEC_STRATEGY_CAT2(a, b) a##b
#define PTESPEC_STRATEGY_CAT(a, b) PTESPEC_STRATEGY_CAT2(a, b)
#define PTESPEC_STRATEGY(tmpl, name, description)                                                            \
	static const ::ptespec::strategy_registrar PTESPEC_STRATEGY_CAT(ptespec_registrar_, __LINE__)(      \
		::ptespec::make_strategy<tmpl>(name, description, "builtin"))
