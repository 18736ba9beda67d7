// Strategies loaded at run time: the two sides of the plugin ABI.
//
// A plugin is one .cpp holding a strategy class template and
//
//   PTESPEC_PLUGIN(my_strategy, "my-strategy", "one line saying what it does")
//
// or a caller variant (mm/caller.h: a class with folio_pte_batch) and
//
//   PTESPEC_CALLER_PLUGIN(my_caller, "my-caller", "one line saying what it does")
//
// built into a loadable module with ptespec_add_plugin() (cmake/), then
// `ptespec --plugin ./my_plugin.so list`.
//
// The plugin instantiates the strategy over the machine in its own copy of
// the model headers, and the host hands it the host's machine.  So the two
// must agree on every type that crosses: `strategy` and `strategy_info`,
// `call`/`call_result`, `basic_machine` (its layout and inline members),
// the symbolic machine and `sym_call_result` of the proofs, the observer,
// hardware-agent and branch-oracle interfaces, the TLB shadow; for a
// caller, `mm::caller`, `caller_info`, `call_sink` and `memory`.  A plugin's
// branches on symbolic words are decided by the host's oracle (the machine
// only asks, model/branch_oracle.h), so the prover's code is not copied
// into a plugin.
//
// Bump rule: PTESPEC_PLUGIN_ABI goes up by one in the commit that changes
// the layout or the virtual functions of any of those types, or the meaning
// of a call_kind.  A new strategy or a new property does not bump it, nor
// does a call_kind added, removed or reshaped in the list of calls
// (kernel/shim/include/ptespec/calls.h): the layout fingerprint below holds
// the list, so a plugin built with another one is refused.  The fingerprint
// catches the forgotten bumps it can see (sizes, the list), not all of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "impl/adapter.h"
#include "impl/strategy.h"
#include "mm/caller.h"
#include "model/symbolic_machine.h"

#define PTESPEC_PLUGIN_ABI 10

namespace ptespec {

// What a plugin's entry point hands back.  Plain data, so it reads the same
// on both sides whatever else changed.
struct plugin_descriptor {
	int abi_version;	// PTESPEC_PLUGIN_ABI the plugin was built against
	std::uint64_t layout;	// plugin_layout() the plugin was built against
	const char* name;
	const char* description;
	// A new strategy; `origin` is what info().origin will say (the path).
	// Null in a caller plugin.
	strategy* (*factory)(const char* origin);
	// A new caller variant, the same way; null in a strategy plugin.
	mm::caller* (*caller_factory)(const char* origin);
};

// Sizes of the types that cross the boundary and the list of calls (a
// plugin answers implements() by call_kind), folded into one number.
constexpr std::uint64_t plugin_layout()
{
	std::uint64_t h = 0;
	for (std::uint64_t s : {sizeof(machine), sizeof(counted_machine), sizeof(symbolic_machine), sizeof(call),
				sizeof(call_result), sizeof(sym_call_result), sizeof(strategy_info), sizeof(primitive_step),
				sizeof(hw_event), sizeof(geometry), sizeof(mm::caller_info), sizeof(mm::memory)})
		h = h * 1000003u + s;
	for (const call_shape& c : call_shapes) {
		for (char ch : c.name)
			h = h * 1000003u + static_cast<unsigned char>(ch);
		h = h * 1000003u + static_cast<std::uint64_t>(c.result) * 16 + static_cast<std::uint64_t>(c.args);
	}
	return h;
}

// Host side: loads the module at `path`, checks its ABI and registers its
// strategy in `r` (or its caller in `callers`) with origin = path.  Throws
// usage_error naming the path when the file cannot be loaded, is not a
// plugin, speaks another ABI, or brings a name that is already taken.  The
// module stays loaded for the life of the process: its code backs what it
// registered.
void load_plugin(const std::string& path, registry& r = registry::global(),
		 mm::caller_registry& callers = mm::caller_registry::global());

} // namespace ptespec

// The symbol ptespec looks for.
#define PTESPEC_PLUGIN_ENTRY ptespec_plugin_entry
#define PTESPEC_PLUGIN_ENTRY_NAME "ptespec_plugin_entry"

// Only the test suite builds a plugin that lies about its ABI.
#ifdef PTESPEC_TEST_PLUGIN_ABI
#define PTESPEC_PLUGIN_BUILT_ABI PTESPEC_TEST_PLUGIN_ABI
#else
#define PTESPEC_PLUGIN_BUILT_ABI PTESPEC_PLUGIN_ABI
#endif

// The entry point is the one symbol a plugin exports; everything else may
// stay hidden (ptespec_add_plugin builds with hidden visibility).
#define PTESPEC_PLUGIN(tmpl, name, description)                                                          \
	extern "C" __attribute__((visibility("default"))) const ::ptespec::plugin_descriptor*            \
	PTESPEC_PLUGIN_ENTRY(void)                                                                        \
	{                                                                                                 \
		static const ::ptespec::plugin_descriptor d = {                                           \
			PTESPEC_PLUGIN_BUILT_ABI,                                                          \
			::ptespec::plugin_layout(),                                                        \
			name,                                                                              \
			description,                                                                       \
			[](const char* origin) -> ::ptespec::strategy* {                                   \
				return ::ptespec::make_strategy<tmpl>(name, description, origin).release(); \
			},                                                                                 \
			nullptr,                                                                           \
		};                                                                                         \
		return &d;                                                                                 \
	}

// A caller plugin: cls is a caller variant class (mm/caller.h).
#define PTESPEC_CALLER_PLUGIN(cls, name, description)                                                    \
	extern "C" __attribute__((visibility("default"))) const ::ptespec::plugin_descriptor*            \
	PTESPEC_PLUGIN_ENTRY(void)                                                                        \
	{                                                                                                 \
		static const ::ptespec::plugin_descriptor d = {                                           \
			PTESPEC_PLUGIN_BUILT_ABI,                                                          \
			::ptespec::plugin_layout(),                                                        \
			name,                                                                              \
			description,                                                                       \
			nullptr,                                                                           \
			[](const char* origin) -> ::ptespec::mm::caller* {                                 \
				return new ::ptespec::mm::named_caller<cls>(name, description, origin);    \
			},                                                                                 \
		};                                                                                         \
		return &d;                                                                                 \
	}
