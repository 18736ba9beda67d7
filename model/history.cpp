#include "model/history.h"

#include "model/observer.h"

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

void replay(const history& h, observer& o)
{
	table_t t = h.initial;
	for (const step& s : h.steps) {
		if (auto* b = std::get_if<call_begin_step>(&s)) {
			o.on_call_begin(b->c, t);
		} else if (auto* e = std::get_if<call_end_step>(&s)) {
			o.on_call_end(e->c, e->r, t);
		} else if (auto* p = std::get_if<primitive_step>(&s)) {
			if (p->kind != prim_kind::read && p->kind != prim_kind::tlbi_page &&
			    p->kind != prim_kind::tlbi_range && p->kind != prim_kind::tlbi_all)
				t.at(p->index) = p->new_value;
			o.on_primitive(*p, t);
		} else if (auto* hw = std::get_if<hw_event>(&s)) {
			t.at(hw->landing) = hw->new_value;
			o.on_hw_event(*hw, t);
		} else if (auto* f = std::get_if<fault_step>(&s)) {
			o.on_fault(*f, t);
		}
	}
}

} // namespace ptespec
