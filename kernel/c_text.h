// Reading C text as the symbolic build's source passes do
// (kernel/if_convert.h, kernel/rmw_loop.h): just enough of C's lexical
// structure -- identifiers, comments, balanced parentheses, macro lines --
// to find a statement and know that rewriting it changes nothing else.
#pragma once

#include <cctype>
#include <cstddef>
#include <optional>
#include <string_view>

namespace ptespec::kernel {

inline bool ident_char(char c)
{
	return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Past whitespace and comments from `at`.
inline std::size_t skip_space(std::string_view s, std::size_t at)
{
	for (;;) {
		while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at])))
			at++;
		if (s.substr(at, 2) == "/*") {
			const std::size_t end = s.find("*/", at + 2);
			if (end == std::string_view::npos)
				return s.size();
			at = end + 2;
		} else if (s.substr(at, 2) == "//") {
			const std::size_t end = s.find('\n', at);
			at = end == std::string_view::npos ? s.size() : end;
		} else {
			return at;
		}
	}
}

// `s[at]` is '(': the index just past its matching ')', none when a string,
// a character constant or the end of the text comes first.
inline std::optional<std::size_t> past_parens(std::string_view s, std::size_t at)
{
	int depth = 0;
	for (std::size_t i = at; i < s.size(); i++) {
		const char c = s[i];
		if (c == '"' || c == '\'')
			return std::nullopt;
		if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0)
			return i + 1;
	}
	return std::nullopt;
}

// A value expression with no side effect of its own: balanced, no
// assignment, no ++ or --, no statement or string.
inline bool plain_expression(std::string_view e)
{
	int depth = 0;
	for (std::size_t i = 0; i < e.size(); i++) {
		const char c = e[i];
		if (c == '(')
			depth++;
		else if (c == ')' && --depth < 0)
			return false;
		if (c == '"' || c == '\'' || c == '{' || c == '}' || c == ';' || c == '\\')
			return false;
		const std::string_view two = e.substr(i, 2);
		if (two == "++" || two == "--")
			return false;
		if (c == '=') {
			const char before = i > 0 ? e[i - 1] : ' ';
			const char after = i + 1 < e.size() ? e[i + 1] : ' ';
			const bool comparison = after == '=' || before == '=' || before == '!' ||
						((before == '<' || before == '>') && !(i > 1 && e[i - 2] == before));
			if (!comparison)
				return false;
		}
	}
	return depth == 0;
}

// The lines of a macro definition (a '#' line and its continuations).
inline bool in_macro(std::string_view s, std::size_t at)
{
	std::size_t line = s.rfind('\n', at);
	line = line == std::string_view::npos ? 0 : line + 1;
	for (;;) {
		const std::size_t first = s.find_first_not_of(" \t", line);
		if (first != std::string_view::npos && s[first] == '#')
			return true;
		if (line < 2 || s[line - 2] != '\\')
			return false;
		const std::size_t prev = s.rfind('\n', line - 2);
		line = prev == std::string_view::npos ? 0 : prev + 1;
	}
}

// Whether `word` stands at `at` as a word of its own (no identifier
// character just before or after it).
inline bool word_at(std::string_view s, std::size_t at, std::string_view word)
{
	return s.substr(at, word.size()) == word && !(at > 0 && ident_char(s[at - 1])) &&
	       !(at + word.size() < s.size() && ident_char(s[at + word.size()]));
}

// The assignment operator at `at` -- `|=`, `&=` or `=` (not `==`) -- or
// empty.
inline std::string_view assignment_op(std::string_view s, std::size_t at)
{
	for (std::string_view op : {"|=", "&=", "="})
		if (s.substr(at, op.size()) == op && s.substr(at, 2) != "==")
			return op;
	return {};
}

} // namespace ptespec::kernel
