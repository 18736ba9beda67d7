#include "model/history.h"

#include <iterator>

#include <fmt/format.h>

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

std::string flush_flag_text(unsigned flags)
{
	std::string out;
	if (flags & flush_local)
		out += " local";
	if (flags & flush_nosync)
		out += " nosync";
	if (flush_stride_log2(flags))
		out += fmt::format(" stride {}", std::size_t{1} << flush_stride_log2(flags));
	if (flush_level_of(flags) >= 0)
		out += fmt::format(" level {}", flush_level_of(flags));
	return out;
}

std::string_view to_string(hw_kind k) { return k == hw_kind::access ? "access" : "write"; }

long folio_of(const std::vector<folio_extent>& folios, std::uint64_t pfn)
{
	// Worlds declare their folios in pfn order, and folios never overlap:
	// a binary search finds the one candidate in log time (the cost model's
	// 65536-folio process asks once per entry).  The scan below stays the
	// answer for any other order -- the search only ever confirms a folio
	// that holds pfn.
	std::size_t lo = 0, hi = folios.size();
	while (lo < hi) {
		const std::size_t mid = lo + (hi - lo) / 2;
		if (pfn < folios[mid].first_pfn)
			hi = mid;
		else if (pfn >= folios[mid].first_pfn + folios[mid].nr_pages)
			lo = mid + 1;
		else
			return static_cast<long>(mid);
	}
	for (std::size_t i = 0; i < folios.size(); i++)
		if (pfn >= folios[i].first_pfn && pfn < folios[i].first_pfn + folios[i].nr_pages)
			return static_cast<long>(i);
	return -1;
}

void apply_step(table_t& t, const step& s)
{
	if (auto* p = std::get_if<primitive_step>(&s)) {
		if (p->kind == prim_kind::write || p->kind == prim_kind::exchange || p->kind == prim_kind::atomic_update)
			t.at(p->index) = p->new_value;
	} else if (auto* hw = std::get_if<hw_event>(&s)) {
		t.at(hw->landing) = hw->new_value;
	}
}

void replay(const history& h, observer& o)
{
	table_t t = h.initial;
	for (const step& s : h.steps) {
		apply_step(t, s);
		if (auto* b = std::get_if<call_begin_step>(&s))
			o.on_call_begin(b->c, t);
		else if (auto* e = std::get_if<call_end_step>(&s))
			o.on_call_end(e->c, e->r, t);
		else if (auto* p = std::get_if<primitive_step>(&s))
			o.on_primitive(*p, t);
		else if (auto* hw = std::get_if<hw_event>(&s))
			o.on_hw_event(*hw, t);
		else if (auto* f = std::get_if<fault_step>(&s))
			o.on_fault(*f, t);
	}
}

void walk_calls(const history& h, const std::function<void(const call_span&)>& on_call,
		const std::function<void(const hw_event&, std::size_t)>& between)
{
	table_t t = h.initial;
	std::vector<call_span> open;
	auto same = [](const call& a, const call& b) {
		return a.kind == b.kind && a.index == b.index && a.nr == b.nr && a.full == b.full && a.pte == b.pte &&
		       a.flags == b.flags;
	};
	// The call ending at step i is the innermost open one that is the same
	// call: a lockless read and the writer interleaved with it may end in
	// either order.  An end with none open (a history recorded from inside
	// a call) is a call of its own.
	auto close = [&](const call& c, std::size_t i, const call_result* r, const fault_step* f) {
		call_span span;
		auto it = open.rbegin();
		while (it != open.rend() && !same(*it->c, c))
			++it;
		if (it == open.rend() && !open.empty())
			it = open.rbegin();
		if (it != open.rend()) {
			span = std::move(*it);
			open.erase(std::next(it).base());
		} else {
			span.first = i;
			span.before = t;
		}
		span.c = &c;
		span.how = r ? call_span::ending::returned : call_span::ending::faulted;
		span.r = r;
		span.fault = f;
		span.last = i;
		span.after = t;
		on_call(span);
	};
	for (std::size_t i = 0; i < h.steps.size(); i++) {
		const step& s = h.steps[i];
		apply_step(t, s);
		if (auto* b = std::get_if<call_begin_step>(&s)) {
			call_span span;
			span.c = &b->c;
			span.first = i;
			span.before = t;
			open.push_back(std::move(span));
		} else if (auto* e = std::get_if<call_end_step>(&s)) {
			close(e->c, i, &e->r, nullptr);
		} else if (auto* hw = std::get_if<hw_event>(&s)) {
			if (!open.empty())
				open.back().hw.push_back(hw);
			else if (between)
				between(*hw, i);
		} else if (auto* f = std::get_if<fault_step>(&s)) {
			close(f->c, i, nullptr, f);
		}
	}
	while (!open.empty()) {
		call_span span = std::move(open.back());
		open.pop_back();
		span.how = call_span::ending::unfinished;
		span.last = h.steps.size();
		span.after = t;
		on_call(span);
	}
}

} // namespace ptespec
