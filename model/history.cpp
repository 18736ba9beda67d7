#include "model/history.h"

namespace ptespec {

std::string_view to_string(prim_kind k)
{
	switch (k) {
	case prim_kind::read: return "read";
	case prim_kind::write: return "write";
	case prim_kind::exchange: return "xchg";
	case prim_kind::atomic_update: return "cmpxchg";
	case prim_kind::tlbi_page: return "tlbi-page";
	case prim_kind::tlbi_range: return "tlbi-range";
	case prim_kind::tlbi_all: return "tlbi-all";
	}
	return "?";
}

std::string_view to_string(hw_kind k) { return k == hw_kind::access ? "access" : "write"; }

long folio_of(const std::vector<folio_extent>& folios, std::uint64_t pfn)
{
	for (std::size_t i = 0; i < folios.size(); i++)
		if (pfn >= folios[i].first_pfn && pfn < folios[i].first_pfn + folios[i].nr_pages)
			return static_cast<long>(i);
	return -1;
}

} // namespace ptespec
