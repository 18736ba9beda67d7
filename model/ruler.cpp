#include "model/ruler.h"

#include "model/pte.h"

namespace ptespec {

char ruler_char(std::uint64_t pte)
{
	if (pte_none(pte))
		return '.';
	if (!pte_valid(pte))
		return 's';
	const char c = pte_young(pte) ? (pte_dirty(pte) ? 'b' : 'y') : (pte_dirty(pte) ? 'd' : 'o');
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

} // namespace ptespec
