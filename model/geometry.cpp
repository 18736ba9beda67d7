#include "model/geometry.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "model/errors.h"

namespace ptespec {

geometry geometry::of(granule g)
{
	switch (g) {
	case granule::k4: return {g, 12, cont_ptes_of(g), 3, 12};
	case granule::k16: return {g, 14, cont_ptes_of(g), 3, 14};
	case granule::k64: return {g, 16, cont_ptes_of(g), 3, 16};
	}
	throw internal_error("geometry::of: unknown granule");
}

// CONT_PMDS: 16 with 4K pages, 32 with 16K and 64K.  A table page of
// 8-byte entries, so PMD_SHIFT is page_shift + page_shift - 3.
geometry geometry::pmd_of(granule g)
{
	geometry p = of(g);
	p.cont_ptes = g == granule::k4 ? 16 : 32;
	p.level = 2;
	p.entry_shift = 2 * p.page_shift - 3;
	return p;
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
