#include "kernel/rmw_loop.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "kernel/c_text.h"

namespace ptespec::kernel {

namespace {

std::string_view trim(std::string_view e)
{
	while (!e.empty() && std::isspace(static_cast<unsigned char>(e.front())))
		e.remove_prefix(1);
	while (!e.empty() && std::isspace(static_cast<unsigned char>(e.back())))
		e.remove_suffix(1);
	return e;
}

bool identifier(std::string_view e)
{
	return !e.empty() && !std::isdigit(static_cast<unsigned char>(e.front())) &&
	       std::all_of(e.begin(), e.end(), ident_char);
}

// The call `name(...)` that is the whole of e: its arguments' text.
std::optional<std::string_view> call_of(std::string_view e, std::string_view name)
{
	e = trim(e);
	if (!e.starts_with(name) || (name.size() < e.size() && ident_char(e[name.size()])))
		return std::nullopt;
	const std::size_t open = skip_space(e, name.size());
	if (open >= e.size() || e[open] != '(')
		return std::nullopt;
	const std::optional<std::size_t> close = past_parens(e, open);
	if (!close || *close != e.size())
		return std::nullopt;
	return e.substr(open + 1, *close - open - 2);
}

// `v` or `pte_val(v)`: v.
std::optional<std::string> variable_of(std::string_view e)
{
	e = trim(e);
	if (const std::optional<std::string_view> inner = call_of(e, "pte_val"))
		e = trim(*inner);
	if (!identifier(e))
		return std::nullopt;
	return std::string(e);
}

// The identifiers e reads (a member name after . or -> is not one).
std::vector<std::string> identifiers(std::string_view e)
{
	std::vector<std::string> out;
	for (std::size_t i = 0; i < e.size();) {
		if (!ident_char(e[i])) {
			i++;
			continue;
		}
		std::size_t j = i;
		while (j < e.size() && ident_char(e[j]))
			j++;
		std::size_t before = i;
		while (before > 0 && std::isspace(static_cast<unsigned char>(e[before - 1])))
			before--;
		const bool member = before > 0 && (e[before - 1] == '.' || (before > 1 && e.substr(before - 2, 2) == "->"));
		if (!member && !std::isdigit(static_cast<unsigned char>(e[i])))
			out.emplace_back(e.substr(i, j - i));
		i = j;
	}
	return out;
}

// The arguments of a call's text, split at the commas outside parentheses.
std::vector<std::string_view> arguments(std::string_view a)
{
	std::vector<std::string_view> out;
	int depth = 0;
	std::size_t from = 0;
	for (std::size_t i = 0; i < a.size(); i++) {
		if (a[i] == '(')
			depth++;
		else if (a[i] == ')')
			depth--;
		else if (a[i] == ',' && depth == 0) {
			out.push_back(trim(a.substr(from, i - from)));
			from = i + 1;
		}
	}
	out.push_back(trim(a.substr(from)));
	return out;
}

// One statement of a loop body: what it assigns and what it reads.
struct statement {
	std::string target;
	std::vector<std::string> reads;
	std::string_view value;
	std::size_t end = 0;	// past its ';' (and the '}' of a braced if)
};

// `V op E;` at `at` (V a variable or pte_val(variable), op = |= &=), before
// `limit`.
std::optional<statement> assignment_at(std::string_view s, std::size_t at, std::size_t limit)
{
	std::size_t i = at;
	while (i < limit && ident_char(s[i]))
		i++;
	if (s.substr(at, i - at) == "pte_val") {
		const std::size_t open = skip_space(s, i);
		const std::optional<std::size_t> close = open < limit && s[open] == '(' ? past_parens(s, open) : std::nullopt;
		if (!close)
			return std::nullopt;
		i = *close;
	}
	const std::optional<std::string> target = variable_of(s.substr(at, i - at));
	if (!target)
		return std::nullopt;
	i = skip_space(s, i);
	const std::string_view op = assignment_op(s, i);
	if (op.empty())
		return std::nullopt;
	i += op.size();
	const std::size_t semi = s.find(';', i);
	if (semi == std::string_view::npos || semi >= limit || !plain_expression(s.substr(i, semi - i)))
		return std::nullopt;
	statement st{*target, identifiers(s.substr(i, semi - i)), trim(s.substr(i, semi - i)), semi + 1};
	if (op != "=")
		st.reads.push_back(st.target);
	return st;
}

// An assignment, or `if (C) V op E;` / `if (C) { V op E; }` (which keeps V
// where C is false, so reads it).
std::optional<statement> statement_at(std::string_view s, std::size_t at, std::size_t limit)
{
	if (!word_at(s, at, "if"))
		return assignment_at(s, at, limit);
	const std::size_t open = skip_space(s, at + 2);
	const std::optional<std::size_t> close = open < limit && s[open] == '(' ? past_parens(s, open) : std::nullopt;
	if (!close || !plain_expression(s.substr(open + 1, *close - open - 2)))
		return std::nullopt;
	std::size_t i = skip_space(s, *close);
	const bool braced = i < limit && s[i] == '{';
	if (braced)
		i = skip_space(s, i + 1);
	std::optional<statement> st = assignment_at(s, i, limit);
	if (!st)
		return std::nullopt;
	if (braced) {
		const std::size_t end = skip_space(s, st->end);
		if (end >= limit || s[end] != '}')
			return std::nullopt;
		st->end = end + 1;
	}
	for (std::string& r : identifiers(s.substr(open + 1, *close - open - 2)))
		st->reads.push_back(std::move(r));
	st->reads.push_back(st->target);
	return st;
}

// The '}' that closes the '{' at `open`; none past a string, a character
// constant or the end.
std::optional<std::size_t> closing_brace(std::string_view s, std::size_t open)
{
	int depth = 0;
	for (std::size_t i = open; i < s.size(); i++) {
		const std::size_t past = skip_space(s, i);
		if (past != i) {
			i = past - 1;
			continue;
		}
		if (s[i] == '"' || s[i] == '\'')
			return std::nullopt;
		if (s[i] == '{')
			depth++;
		else if (s[i] == '}' && --depth == 0)
			return i;
	}
	return std::nullopt;
}

constexpr std::string_view cmpxchg_names[] = {"cmpxchg_relaxed", "cmpxchg_acquire", "cmpxchg_release", "cmpxchg"};

// Whether the body [from, to) and the loop test `cond` make the idiom of
// the header: then true.
bool is_rmw_loop(std::string_view s, std::size_t from, std::size_t to, std::string_view cond)
{
	std::vector<statement> body;
	for (std::size_t at = skip_space(s, from); at < to; at = skip_space(s, body.back().end)) {
		std::optional<statement> st = statement_at(s, at, to);
		if (!st)
			return false;
		body.push_back(std::move(*st));
	}
	if (body.empty())
		return false;
	// The last: X = cmpxchg...(P, O, N), the only exchange in the body.
	const statement& last = body.back();
	std::optional<std::string_view> args;
	for (std::string_view name : cmpxchg_names)
		if (!args)
			args = call_of(last.value, name);
	if (!args)
		return false;
	const std::vector<std::string_view> a = arguments(*args);
	const std::optional<std::string> old = a.size() == 3 ? variable_of(a[1]) : std::nullopt;
	const std::string_view text = s.substr(from, to - from);
	if (!old || text.find("xchg") != text.rfind("xchg"))
		return false;
	// The test: X != O.
	const std::size_t ne = cond.find("!=");
	if (ne == std::string_view::npos || cond.find("!=", ne + 2) != std::string_view::npos)
		return false;
	const std::optional<std::string> l = variable_of(cond.substr(0, ne)), r = variable_of(cond.substr(ne + 2));
	if (!l || !r || std::set<std::string>{*l, *r} != std::set<std::string>{last.target, *old})
		return false;
	// Nothing but X carried over: each variable the body assigns is
	// assigned before the body reads it.
	std::set<std::string> assigned_in_body, assigned_so_far;
	for (const statement& st : body)
		assigned_in_body.insert(st.target);
	for (const statement& st : body) {
		for (const std::string& read : st.reads)
			if (read != last.target && assigned_in_body.count(read) && !assigned_so_far.count(read))
				return false;
		assigned_so_far.insert(st.target);
	}
	return true;
}

} // namespace

rmw_marking mark_rmw_loops(const std::string& source)
{
	const std::string_view s = source;
	rmw_marking out;
	std::size_t copied = 0;
	for (std::size_t at = s.find("do"); at != std::string_view::npos; at = s.find("do", at + 2)) {
		if (!word_at(s, at, "do"))
			continue;
		if (at < copied || in_macro(s, at))
			continue;
		const std::size_t open = skip_space(s, at + 2);
		if (open >= s.size() || s[open] != '{')
			continue;
		const std::optional<std::size_t> close = closing_brace(s, open);
		if (!close)
			continue;
		const std::size_t w = skip_space(s, *close + 1);
		if (!word_at(s, w, "while"))
			continue;
		const std::size_t paren = skip_space(s, w + 5);
		const std::optional<std::size_t> past = paren < s.size() && s[paren] == '(' ? past_parens(s, paren)
											   : std::nullopt;
		if (!past || skip_space(s, *past) >= s.size() || s[skip_space(s, *past)] != ';')
			continue;
		const std::string_view cond = s.substr(paren + 1, *past - paren - 2);
		if (!is_rmw_loop(s, open + 1, *close, cond))
			continue;
		// On the same lines: a WARN after it still names its own.
		out.text.append(s.substr(copied, open + 1 - copied));
		out.text += " ptespec_rmw_begin();";
		out.text.append(s.substr(open + 1, paren + 1 - (open + 1)));
		out.text += "ptespec_rmw_again(";
		out.text.append(cond);
		out.text += ")";
		copied = *past - 1;
		out.marked++;
	}
	out.text.append(s.substr(copied));
	return out;
}

} // namespace ptespec::kernel
