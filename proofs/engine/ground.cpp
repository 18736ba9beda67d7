#include "proofs/engine/ground.h"

#include <algorithm>
#include <cstddef>
#include <string>

#include "model/errors.h"

namespace ptespec::proofs {

std::uint64_t ground_value(const z3::expr& w)
{
	std::uint64_t v = 0;
	if (!w.is_numeral() || !w.is_numeral_u64(v))
		throw internal_error("symbolic word is not ground: " + w.to_string());
	return v;
}

bool ground_truth(const z3::expr& b)
{
	if (b.is_true())
		return true;
	if (b.is_false())
		return false;
	throw internal_error("symbolic boolean is not ground: " + b.to_string());
}

std::vector<bool> ground_truths(const z3::model& m, const std::vector<z3::expr>& bs)
{
	std::vector<bool> out;
	out.reserve(bs.size());
	constexpr std::size_t chunk = 4096;
	for (std::size_t at = 0; at < bs.size(); at += chunk) {
		const std::size_t n = std::min(chunk, bs.size() - at);
		z3::context& ctx = bs[at].ctx();
		z3::expr_vector bits(ctx);
		for (std::size_t k = 0; k < n; k++)
			bits.push_back(z3::ite(bs[at + k], ctx.bv_val(1, 1), ctx.bv_val(0, 1)));
		const z3::expr word = n == 1 ? bits[0] : z3::concat(bits);
		const z3::expr v = m.eval(word, true);
		if (!v.is_numeral())
			throw internal_error("symbolic booleans are not ground: " + v.to_string());
		// Most significant first: the first of bs is the string's first
		// character once padded to n digits.
		std::string digits = Z3_get_numeral_binary_string(ctx, v);
		if (digits.size() > n)
			throw internal_error("ground_truths: a numeral wider than its word");
		digits.insert(0, n - digits.size(), '0');
		for (char d : digits)
			out.push_back(d == '1');
	}
	return out;
}

} // namespace ptespec::proofs
