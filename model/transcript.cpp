#include "model/transcript.h"

#include <fmt/format.h>

#include "model/event_ledger.h"
#include "model/pte.h"

namespace ptespec {

std::string flags_text(std::uint64_t pte)
{
	if (pte_none(pte))
		return "none";
	if (!pte_present(pte))
		return "non-present: " + nonpresent_kind(pte);
	// The checker's words for a set of flags, so a verdict's message and
	// the history under it name a state alike.
	std::string s = flag_name((pte_young(pte) ? FLAG_YOUNG : 0u) | (pte_dirty(pte) ? FLAG_DIRTY : 0u));
	if (!pte_valid(pte))
		s += ", PROT_NONE";
	return pte_cont(pte) ? s + ", cont" : s;
}

std::string result_text(const call_result& r)
{
	if (r.pte)
		return fmt::format("{:#018x} ({})", *r.pte, flags_text(*r.pte));
	if (r.young)
		return *r.young ? "young" : "old";
	if (r.changed)
		return *r.changed ? "changed" : "unchanged";
	return "";
}

std::string hw_event_text(const hw_event& e)
{
	return fmt::format("hw {} to page #{} recorded in #{}{}", to_string(e.kind), e.page, e.landing,
			   e.page == e.landing ? "" : " (another entry of its run)");
}

std::string fault_text(const fault_step& f)
{
	if (!f.assertion.empty())
		return "stopped at its own check: " + f.assertion;
	if (f.flush)
		return fmt::format("TLB flush of #{}..#{} past a table of {} entries", f.index, f.index + f.nr - 1,
				   f.table_size);
	return fmt::format("entry #{} outside a table of {} entries", f.index, f.table_size);
}

std::string primitive_text(const primitive_step& p)
{
	const std::string range =
		p.nr > 1 ? fmt::format("#{}-#{}", p.index, p.index + p.nr - 1) : fmt::format("#{}", p.index);
	if (p.kind == prim_kind::read)
		return fmt::format("{:<10} {} = {:#018x}", to_string(p.kind), range, p.old_value);
	if (p.kind == prim_kind::tlbi_page || p.kind == prim_kind::tlbi_range || p.kind == prim_kind::tlbi_all)
		return fmt::format("{:<10} {}{}", to_string(p.kind), range, flush_flag_text(p.flags));
	return fmt::format("{:<10} {}: {:#018x} -> {:#018x}", to_string(p.kind), range, p.old_value, p.new_value);
}

std::string wrapped_text(const std::string& text, std::size_t indent, std::size_t width)
{
	std::string out, line(indent, ' ');
	std::size_t at = 0;
	while (at < text.size()) {
		std::size_t end = text.find(' ', at);
		if (end == std::string::npos)
			end = text.size();
		const std::string word = text.substr(at, end - at);
		const bool fresh = line.find_first_not_of(' ') == std::string::npos;
		if (!fresh && line.size() + 1 + word.size() > width) {
			out += line + "\n";
			line = std::string(indent + 4, ' ');
		} else if (!fresh) {
			line += ' ';
		}
		line += word;
		at = end + 1;
	}
	return out + line + "\n";
}

} // namespace ptespec
