#include "model/geometry.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "model/errors.h"

namespace ptespec {

geometry geometry::of(granule g)
{
	switch (g) {
	case granule::k4: return {g, 12, cont_ptes_of(g)};
	case granule::k16: return {g, 14, cont_ptes_of(g)};
	case granule::k64: return {g, 16, cont_ptes_of(g)};
	}
	throw internal_error("geometry::of: unknown granule");
}

std::string_view to_string(granule g)
{
	switch (g) {
	case granule::k4: return "4k";
	case granule::k16: return "16k";
	case granule::k64: return "64k";
	}
	return "?";
}

granule parse_granule(std::string_view text)
{
	std::string t(text);
	std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
	if (t == "4k")
		return granule::k4;
	if (t == "16k")
		return granule::k16;
	if (t == "64k")
		return granule::k64;
	throw usage_error("granule '" + std::string(text) + "': expected 4k, 16k or 64k");
}

} // namespace ptespec
