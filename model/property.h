// The named properties the checker judges.  The names are stable: the tool prints
// them, tests and JSON use them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptespec {

enum class property {
	batch_or,	// a batch returns the OR of exactly what it took out
	no_loss,	// no access/dirty event vanishes
	per_call,	// every report includes what was pending when the call began
	precise,	// no report of a flag the folio never had; non-present reads back exactly
	isolation,	// entries outside the range keep their mapping
	well_formed,	// no misprogrammed run; CONT changes go through break-before-make
	lockless,	// ptep_get_lockless matches some moment of the table
	progress,	// ptep_set_access_flags leaves the named entry granting the access
	permission,	// no entry grants a permission no call asked for
	mapping,	// every entry a call writes in its range maps the page it asked for
};
inline constexpr std::size_t nr_properties = 10;
inline constexpr std::array<property, nr_properties> all_properties = {
	property::batch_or, property::no_loss,	   property::per_call, property::precise,
	property::isolation, property::well_formed, property::lockless, property::progress,
	property::permission, property::mapping,
};

std::string_view to_string(property p);
// The sentence a property is named by.
std::string_view sentence(property p);
std::optional<property> parse_property(std::string_view name);

// One violation: which property, at which step of the history, on which
// page, and why.
struct violation {
	property prop = property::no_loss;
	std::size_t step = 0;
	std::size_t page = 0;
	std::string message;
};

} // namespace ptespec
