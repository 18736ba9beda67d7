// Turns a strategy class template into a registered, type-erased strategy.
//
//   PTESPEC_STRATEGY(my_strategy, "my-strategy", "one line saying what it does")
//
// in a .cpp registers my_strategy<machine> and my_strategy<counted_machine>
// (in-tree, by static initialisation) -- plugins use PTESPEC_PLUGIN instead
// (impl/plugin_api.h).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "impl/dispatch.h"
#include "impl/generic.h"
#include "impl/member_check.h"
#include "impl/strategy.h"
#include "model/symbolic_machine.h"

namespace ptespec {

// Whether S provides call kind k; decided at compile time, asked at run time.
template <template <class> class S>
bool strategy_implements(call_kind k)
{
	return implemented_calls<S<machine>, machine>()[static_cast<std::size_t>(k)];
}

// The machines a strategy is compiled for.  A registered strategy runs on
// all three; a control a test builds for the sampled runs alone skips the
// proofs' and the counted machine, the most costly instantiations of the
// strategy's source (a call on either throws internal_error, and the
// strategy says it is not symbolic).
enum runs_on : unsigned { on_machine = 1, on_counted = 2, on_symbolic = 4, on_every = 7 };

template <template <class> class S, unsigned On = on_every>
class strategy_model final : public strategy {
	static_assert(On & on_machine, "every strategy runs on the concrete machine");

public:
	static_assert(check_strategy_members<S<machine>, machine>());

	strategy_model(std::string name, std::string description, std::string origin)
		: info_{std::move(name), std::move(description), std::move(origin)}
	{
	}
	const strategy_info& info() const override { return info_; }
	bool implements(call_kind k) const override { return implemented_[static_cast<std::size_t>(k)]; }
	bool batch_is_generic(call_kind k) const override
	{
		if constexpr ((On & on_symbolic) != 0)
			return ptespec::batch_is_generic<S<symbolic_machine>, symbolic_machine>(k);
		else
			return ptespec::batch_is_generic<S<machine>, machine>(k);
	}
	bool symbolic() const override { return (On & on_symbolic) != 0; }
	std::string why_not_symbolic() const override
	{
		return (On & on_symbolic) != 0 ? std::string{} : info_.name + " is built for the sampled runs only";
	}
	call_result invoke(machine& m, const call& c) override
	{
		S<machine> s;
		return dispatch(s, m, c);
	}
	call_result invoke(counted_machine& m, const call& c) override
	{
		if constexpr ((On & on_counted) != 0) {
			S<counted_machine> s;
			return dispatch(s, m, c);
		} else
			throw internal_error(info_.name + " is not built for counted words");
	}
	sym_call_result invoke(symbolic_machine& m, const call& c) override
	{
		if constexpr ((On & on_symbolic) != 0) {
			S<symbolic_machine> s;
			return dispatch(s, m, c);
		} else
			throw internal_error(why_not_symbolic());
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
		if constexpr ((On & on_symbolic) == 0)
			throw internal_error(why_not_symbolic());
		else if constexpr (requires { S<symbolic_machine>::pte_batch_hint(m, i, pte); })
			return S<symbolic_machine>::pte_batch_hint(m, i, pte);
		else if constexpr (requires(const geometry& g, std::uint64_t v) { S<machine>::pte_batch_hint(g, i, v); })
			return std::nullopt;
		else
			return 1;
	}

private:
	strategy_info info_;
	static constexpr std::array<bool, nr_call_kinds> implemented_ = implemented_calls<S<machine>, machine>();
};

template <template <class> class S, unsigned On = on_every>
std::unique_ptr<strategy> make_strategy(std::string name, std::string description, std::string origin)
{
	return std::make_unique<strategy_model<S, On>>(std::move(name), std::move(description), std::move(origin));
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
