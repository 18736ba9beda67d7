// A model call as a call of a kernel tree's module: the module's function
// for its kind (ptespec/host.h's table, made from the list of calls), given
// the call's arguments in the kind's shape, its answer put where the
// kind's result shape says.
#pragma once

#include "kernel/shim/include/ptespec/host.h"
#include "model/call.h"
#include "model/symbolic_machine.h"

namespace ptespec::kernel {

// The module's function for call kind K.
template <call_kind K>
auto tree_function(const ptespec_kernel_calls& f);
#define PTESPEC_TREE_FUNCTION(name, result, args) \
	template <>                               \
	inline auto tree_function<call_kind::name>(const ptespec_kernel_calls& f) { return f.name; }
PTESPEC_CALLS(PTESPEC_TREE_FUNCTION)
#undef PTESPEC_TREE_FUNCTION

// Call c of kind K through the module's function, its arguments in K's
// shape (ptespec/host.h); value() is the word c passes, asked only by a
// call that passes one.
template <call_kind K, class Value>
auto call_tree(const ptespec_kernel_calls& f, const call& c, Value value)
{
	const auto fn = tree_function<K>(f);
	const auto nr = static_cast<unsigned>(c.nr);
	constexpr call_args_shape args = shape_of(K).args;
	if constexpr (args == call_args_shape::entry)
		return fn(c.index);
	else if constexpr (args == call_args_shape::entry_full)
		return fn(c.index, c.full);
	else if constexpr (args == call_args_shape::entry_value_dirty)
		return fn(c.index, value(), c.flags != 0);
	else if constexpr (args == call_args_shape::batch || args == call_args_shape::range)
		return fn(c.index, nr);
	else if constexpr (args == call_args_shape::batch_full)
		return fn(c.index, nr, c.full);
	else if constexpr (args == call_args_shape::batch_flags)
		return fn(c.index, nr, c.flags);
	else if constexpr (args == call_args_shape::huge)
		return fn(c.index, nr);
	else if constexpr (args == call_args_shape::huge_value_dirty)
		return fn(c.index, value(), c.flags != 0, nr);
	else if constexpr (args == call_args_shape::huge_range)
		return fn(c.index, nr, c.flags);
	else
		return fn(c.index, value(), nr);
}

// Call c of kind K in the C build: its answer where K's result shape says.
template <call_kind K>
call_result answer(const ptespec_kernel_calls& f, const call& c)
{
	constexpr call_result_shape result = shape_of(K).result;
	auto value = [&] { return c.pte; };
	call_result r;
	if constexpr (result == call_result_shape::none)
		call_tree<K>(f, c, value);
	else if constexpr (result == call_result_shape::pte)
		r.pte = call_tree<K>(f, c, value);
	else if constexpr (result == call_result_shape::young)
		r.young = call_tree<K>(f, c, value) != 0;
	else
		r.changed = call_tree<K>(f, c, value) != 0;
	return r;
}

// The same in the symbolic build, in session s (kernel/module.cpp): a value
// argument goes in as a handle, a pte result comes back as one.
template <call_kind K, class Session>
sym_call_result sym_answer(const ptespec_kernel_calls& f, const call& c, Session& s)
{
	constexpr call_result_shape result = shape_of(K).result;
	auto value = [&] { return s.handle(s.m.argument(c)); };
	auto truth = [&](int v) { return s.m.ctx().bool_val(v != 0); };
	sym_call_result r;
	if constexpr (result == call_result_shape::none)
		call_tree<K>(f, c, value);
	else if constexpr (result == call_result_shape::pte)
		r.pte = s.term(call_tree<K>(f, c, value));
	else if constexpr (result == call_result_shape::young)
		r.young = truth(call_tree<K>(f, c, value));
	else
		r.changed = truth(call_tree<K>(f, c, value));
	return r;
}

} // namespace ptespec::kernel
