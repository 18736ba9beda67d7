// A cost profile: what each primitive costs, in arbitrary units, on one
// kind of machine.  Files under profiles/ document each weight; `numa1`
// and `numa2` are looked up there by name.
//
//   {"name": "numa1", "description": "...",
//    "weights": {"read": 1, "write": 1, "atomic": 3, "tlbi_page": 20,
//                "tlbi_range": 40, "tlbi_all": 150, "page": 40}}
//
// `page` is the caller's own work per page (rmap, folio refcounts, freeing)
// that every strategy pays alike: without it a percentage over baseline
// would measure the PTE operations alone, not exit() as the seed did.
#pragma once

#include <string>
#include <string_view>

#include "model/machine.h"

namespace ptespec::explore {

struct cost_profile {
	std::string name;
	std::string description;
	double read = 0, write = 0, atomic = 0, tlbi_page = 0, tlbi_range = 0, tlbi_all = 0, page = 0;

	double weigh(const cost_counters& c, std::uint64_t pages) const;
};

// The largest weight: units are arbitrary and only ratios matter, and a
// weight this size times any count the cost model makes (at most some 10^9)
// stays a finite double -- past it a sum could reach infinity and a
// percentage print as nan.
inline constexpr double max_weight = 1e12;

// The expected format, for error messages.
inline constexpr const char* profile_format =
	"a JSON object {\"name\", \"description\", \"weights\": {\"read\", \"write\", \"atomic\", \"tlbi_page\", "
	"\"tlbi_range\", \"tlbi_all\", \"page\"}} with numbers from 0 to 1e12";

// Parses profile text; `origin` names the file in the one-line usage_error.
cost_profile parse_profile(std::string_view text, const std::string& origin);
// "numa1", "numa2" (from the profile directory), or a file path.
cost_profile load_profile(const std::string& name_or_file);

} // namespace ptespec::explore
