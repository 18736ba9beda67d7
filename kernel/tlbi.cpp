// Decoding a tree's TLBI instructions (kernel/tlbi.h).

#include "kernel/tlbi.h"

#include <algorithm>

namespace ptespec::kernel {

namespace {

// The TTL granule field's code for a page size: 4K 1, 16K 2, 64K 3.
unsigned granule_code(unsigned page_shift)
{
	return page_shift == 12 ? 1u : page_shift == 14 ? 2u : 3u;
}

struct op_shape {
	bool range = false;	// R...: by range
	bool by_va = false;	// VA...: by address
	bool any_asid = false;	// VAA...: every ASID
	bool last_level = false;	// ...L...: leaf entries only
	bool whole = false;	// ASIDE1 / VMALLE1
	bool by_asid = false;	// ASIDE1
	bool broadcast = false;	// ...IS / ...OS
	bool other_regime = false;	// EL2, stage 2
};

std::optional<op_shape> shape_of(std::string_view op)
{
	op_shape s;
	if (op.ends_with("nxs"))
		op.remove_suffix(3);
	if (op.ends_with("is") || op.ends_with("os")) {
		s.broadcast = true;
		op.remove_suffix(2);
	}
	if (op.starts_with("r") && !op.starts_with("rv") && !op.starts_with("ripa"))
		return std::nullopt;
	if (op.starts_with("ripas2") || op.starts_with("ipas2") || op.ends_with("e2") || op.ends_with("s12e1") ||
	    op == "alle2" || op == "alle3" || op.ends_with("e3"))
		return s.other_regime = true, s;
	if (op.starts_with("r")) {
		s.range = true;
		op.remove_prefix(1);
	}
	if (op == "vmalle1" || op == "alle1") {
		s.whole = true;
		return s.range ? std::nullopt : std::optional(s);
	}
	if (op == "aside1") {
		s.whole = s.by_asid = true;
		return s.range ? std::nullopt : std::optional(s);
	}
	if (op == "vae1" || op == "vale1" || op == "vaae1" || op == "vaale1") {
		s.by_va = true;
		s.any_asid = op.starts_with("vaa");
		s.last_level = op == "vale1" || op == "vaale1";
		return s;
	}
	return std::nullopt;
}

} // namespace

std::optional<tlbi_effect> decode_tlbi(std::string_view op, std::uint64_t operand, unsigned page_shift,
				       std::size_t entries, unsigned entry_shift)
{
	const unsigned order = entry_shift > page_shift ? entry_shift - page_shift : 0;	// pages per entry, log2
	const std::optional<op_shape> shape = shape_of(op);
	if (!shape)
		return std::nullopt;
	tlbi_effect e;
	e.flags = (shape->broadcast ? 0u : PTESPEC_FLUSH_LOCAL) | (shape->last_level ? PTESPEC_FLUSH_LAST_LEVEL : 0u);
	if (shape->other_regime) {
		e.reaches_nothing = true;
		return e;
	}
	const std::uint64_t asid = operand >> 48;
	if ((shape->by_asid || (shape->by_va && !shape->any_asid)) && asid != PTESPEC_USER_ASID)
		e.reaches_nothing = true;
	if (shape->whole) {
		e.kind = PTESPEC_FLUSH_ALL;
		e.first = 0;
		e.nr = entries;
		return e;
	}
	std::uint64_t first_page = 0, pages = 1;	// in pages of the address space
	if (shape->range) {
		const std::uint64_t baddr = operand & ((1ULL << 37) - 1), ttl = (operand >> 37) & 3,
				    num = (operand >> 39) & 31, scale = (operand >> 44) & 3, tg = (operand >> 46) & 3;
		if (tg != granule_code(page_shift))
			e.reaches_nothing = true;
		if (ttl != 0)
			e.flags |= PTESPEC_FLUSH_LEVEL(ttl);
		first_page = baddr;
		pages = (num + 1) << (5 * scale + 1);
		e.kind = PTESPEC_FLUSH_RANGE;
	} else {
		const std::uint64_t va = (operand & ((1ULL << 44) - 1)) << 12, ttl = (operand >> 44) & 0xf;
		if (ttl >> 2) {
			if ((ttl >> 2) != granule_code(page_shift))
				e.reaches_nothing = true;
			e.flags |= PTESPEC_FLUSH_LEVEL(ttl & 3);
		}
		first_page = va >> page_shift;
	}
	// The table's pages are those from PTESPEC_VA_BASE; what falls outside
	// it invalidates nothing the model holds.
	// An entry is reached when the TLBI names any page of it.
	const std::uint64_t base = PTESPEC_VA_BASE >> page_shift;
	const std::uint64_t lo = first_page < base ? base : first_page;
	const std::uint64_t hi = first_page + pages < first_page ? ~0ULL : first_page + pages;
	if (hi <= lo || ((lo - base) >> order) >= entries) {
		e.reaches_nothing = true;
		return e;
	}
	e.first = static_cast<std::size_t>((lo - base) >> order);
	const std::uint64_t last = (hi - 1 - base) >> order;
	e.nr = static_cast<std::size_t>(std::min<std::uint64_t>(last - e.first + 1, entries - e.first));
	if (e.kind == PTESPEC_FLUSH_RANGE && e.nr == 1)
		e.kind = PTESPEC_FLUSH_PAGE;
	return e;
}

std::optional<std::string> host_tlbi_macros(const std::string& header)
{
	static constexpr std::string_view replacement[] = {
		"#define __TLBI_0(op, arg) ptespec_tlbi(#op, 0)",
		"#define __TLBI_1(op, arg) ptespec_tlbi(#op, (unsigned long long)(arg))",
	};
	std::string out;
	std::size_t at = 0, replaced = 0;
	bool continued = false;	// the line before ends a replaced definition's '\\'
	while (at < header.size()) {
		std::size_t end = header.find('\n', at);
		end = end == std::string::npos ? header.size() : end + 1;
		const std::string_view line(header.data() + at, end - at);
		std::string_view body = line;
		while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
			body.remove_suffix(1);
		std::string_view code = body;
		while (!code.empty() && (code.front() == ' ' || code.front() == '\t'))
			code.remove_prefix(1);
		const bool ends_continued = !body.empty() && body.back() == '\\';
		if (continued) {
			out += '\n';	// a line of a replaced definition, kept as a blank line
		} else if (code.starts_with("#define __TLBI_0(") || code.starts_with("#define __TLBI_1(")) {
			out += replacement[code[15] - '0'];
			out += '\n';
			replaced++;
			continued = ends_continued;
			at = end;
			continue;
		} else {
			out += line;
		}
		continued = continued && ends_continued;
		at = end;
	}
	if (replaced == 0)
		return std::nullopt;
	return out;
}

bool dsb_completes_broadcast(int option)
{
	return option == PTESPEC_DSB_sy || option == PTESPEC_DSB_ish || option == PTESPEC_DSB_osh;
}

bool dsb_completes_local(int option)
{
	return dsb_completes_broadcast(option) || option == PTESPEC_DSB_nsh;
}

namespace {

// e after what `done` holds: a page or range adjacent to the last one, with
// the same flags, extends it.
void append_merged(std::vector<tlbi_effect>& done, const tlbi_effect& e)
{
	tlbi_effect* last = done.empty() ? nullptr : &done.back();
	if (last && last->kind != PTESPEC_FLUSH_ALL && e.kind != PTESPEC_FLUSH_ALL && last->flags == e.flags &&
	    last->first + last->nr == e.first) {
		last->nr += e.nr;
		last->kind = PTESPEC_FLUSH_RANGE;
		return;
	}
	done.push_back(e);
}

} // namespace

std::vector<tlbi_effect> tlbi_queue::complete(int option)
{
	std::vector<tlbi_effect> done, left;
	for (const tlbi_effect& e : pending_) {
		const bool local = e.flags & PTESPEC_FLUSH_LOCAL;
		if (!(local ? dsb_completes_local(option) : dsb_completes_broadcast(option)))
			left.push_back(e);
		else if (!e.reaches_nothing)
			append_merged(done, e);
	}
	pending_ = std::move(left);
	return done;
}

std::vector<tlbi_effect> tlbi_queue::abandon()
{
	std::vector<tlbi_effect> out;
	for (tlbi_effect e : pending_)
		if (!e.reaches_nothing) {
			e.flags |= PTESPEC_FLUSH_NOSYNC;
			append_merged(out, e);
		}
	pending_.clear();
	return out;
}

} // namespace ptespec::kernel
