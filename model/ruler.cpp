#include "model/ruler.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/pte.h"

namespace ptespec {

char ruler_char(std::uint64_t pte)
{
	if (pte_none(pte))
		return '.';
	if (!pte_present(pte))
		return 's';
	const bool none = !pte_valid(pte);	// PROT_NONE: its own letters
	const char c = pte_young(pte) ? (pte_dirty(pte) ? (none ? 'x' : 'b') : (none ? 'r' : 'y'))
				      : (pte_dirty(pte) ? (none ? 'w' : 'd') : (none ? 'n' : 'o'));
	return pte_cont(pte) ? static_cast<char>(c - 'a' + 'A') : c;
}

std::string ruler(const std::vector<std::uint64_t>& table, const geometry& geo, std::size_t any_entry)
{
	std::string s = "|";
	const std::size_t first = geo.run_start(any_entry);
	for (std::size_t k = first; k < first + geo.cont_ptes && k < table.size(); k++)
		s += ruler_char(table[k]);
	return s + "|";
}

std::string rulers(const std::vector<std::uint64_t>& table, const geometry& geo)
{
	std::string s;
	for (std::size_t r = 0; r < table.size(); r += geo.cont_ptes)
		s += (s.empty() ? "" : " ") + ruler(table, geo, r);
	return s;
}

std::vector<run_change> changed_runs(const std::vector<std::uint64_t>& before,
				     const std::vector<std::uint64_t>& after, const geometry& geo)
{
	std::vector<run_change> out;
	for (std::size_t r = 0; r < after.size(); r += geo.cont_ptes) {
		std::string a = ruler(before, geo, r), z = ruler(after, geo, r);
		if (a != z)
			out.push_back({r / geo.cont_ptes, std::move(a), std::move(z)});
	}
	return out;
}

std::string_view ruler_legend()
{
	return "one character per entry, '|' between runs (CONT_PTES entries each)\n"
	       "  .  none          s  non-present (swap entry or marker)\n"
	       "  o  old + clean   y  young   d  dirty   b  young + dirty   (the entry's own bits)\n"
	       "  n  r  w  x       the same for a PROT_NONE entry (present, not valid: no access)\n"
	       "  O  Y  D  B       the same with CONT set (N R W X for PROT_NONE)\n";
}

std::string table_ruler(std::string_view label, const std::vector<std::uint64_t>& t, const geometry& geo,
			std::size_t width)
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

} // namespace ptespec
