#include "kernel/if_convert.h"

#include "kernel/c_text.h"

#include <cctype>
#include <optional>
#include <string_view>

namespace ptespec::kernel {

namespace {

struct assignment {
	std::string target, op, value;
	std::size_t end;	// past the ';' (and the '}' of a block)
};

// `V op E;` or `{ V op E; }` at `at`.
std::optional<assignment> single_assignment(std::string_view s, std::size_t at)
{
	bool block = false;
	if (at < s.size() && s[at] == '{') {
		block = true;
		at = skip_space(s, at + 1);
	}
	std::size_t i = at;
	while (i < s.size() && ident_char(s[i]))
		i++;
	if (i == at || std::isdigit(static_cast<unsigned char>(s[at])))
		return std::nullopt;
	assignment a;
	a.target = std::string(s.substr(at, i - at));
	if (a.target == "return" || a.target == "break" || a.target == "continue" || a.target == "goto")
		return std::nullopt;
	i = skip_space(s, i);
	a.op = std::string(assignment_op(s, i));
	if (a.op.empty())
		return std::nullopt;
	i += a.op.size();
	const std::size_t semi = s.find(';', i);
	if (semi == std::string_view::npos)
		return std::nullopt;
	const std::string_view value = s.substr(i, semi - i);
	if (!plain_expression(value))
		return std::nullopt;
	a.value = std::string(value);
	a.end = semi + 1;
	if (block) {
		const std::size_t close = skip_space(s, a.end);
		if (close >= s.size() || s[close] != '}')
			return std::nullopt;
		a.end = close + 1;
	}
	return a;
}

} // namespace

if_conversion if_convert(const std::string& source)
{
	const std::string_view s = source;
	if_conversion out;
	std::size_t copied = 0;
	for (std::size_t at = s.find("if"); at != std::string_view::npos; at = s.find("if", at + 2)) {
		if (!word_at(s, at, "if") || (at > 0 && s[at - 1] == '#'))
			continue;
		if (at < copied || in_macro(s, at))
			continue;
		const std::size_t open = skip_space(s, at + 2);
		if (open >= s.size() || s[open] != '(')
			continue;
		const std::optional<std::size_t> close = past_parens(s, open);
		if (!close)
			continue;
		const std::string_view cond = s.substr(open + 1, *close - open - 2);
		if (!plain_expression(cond))
			continue;
		const std::optional<assignment> a = single_assignment(s, skip_space(s, *close));
		if (!a)
			continue;
		// `if (C) V = E; else ...` keeps its decision.
		const std::size_t next = skip_space(s, a->end);
		if (s.substr(next, 4) == "else" && (next + 4 >= s.size() || !ident_char(s[next + 4])))
			continue;
		const std::string_view whole = s.substr(at, a->end - at);
		if (whole.find('\\') != std::string_view::npos)
			continue;
		std::string value = a->op == "=" ? "(" + a->value + ")"
						 : a->target + " " + a->op.substr(0, 1) + " (" + a->value + ")";
		out.text.append(s.substr(copied, at - copied));
		out.text += a->target + " = ptespec_select((" + std::string(cond) + "), [&]() { return " + value + "; }, " +
			    a->target + ");";
		// The same lines as before: a WARN after it still names its own.
		for (char c : whole)
			if (c == '\n')
				out.text += '\n';
		copied = a->end;
		out.converted++;
	}
	out.text.append(s.substr(copied));
	return out;
}

} // namespace ptespec::kernel
