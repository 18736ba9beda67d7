#include "cli/ruler.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/ruler.h"

namespace ptespec::cli {

std::string_view ruler_legend()
{
	return "one character per entry, '|' between runs (CONT_PTES entries each)\n"
	       "  .  none          s  non-present (swap entry or marker)\n"
	       "  o  old + clean   y  young   d  dirty   b  young + dirty   (the entry's own bits)\n"
	       "  O  Y  D  B       the same with CONT set\n";
}

std::string table_ruler(std::string_view label, const table_t& t, const geometry& geo, std::size_t width)
{
	// Lines break at run boundaries when a run fits on a line, so '|'
	// stays where the runs are.
	if (width >= geo.cont_ptes)
		width -= width % geo.cont_ptes;
	width = std::max<std::size_t>(width, 1);
	const std::size_t label_width = std::max<std::size_t>(label.size(), 10);
	std::string out;
	for (std::size_t first = 0; first < t.size(); first += width) {
		const std::size_t last = std::min(first + width, t.size());
		std::string line;
		for (std::size_t k = first; k < last; k++) {
			if (geo.run_aligned(k))
				line += '|';
			line += ruler_char(t[k]);
		}
		if (geo.run_aligned(last) || last == t.size())
			line += '|';
		out += fmt::format("{:<{}} {:>5} {}\n", first == 0 ? label : "", label_width, fmt::format("#{}", first),
				   line);
	}
	return out;
}

} // namespace ptespec::cli
