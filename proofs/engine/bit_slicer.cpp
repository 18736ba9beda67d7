#include "proofs/engine/bit_slicer.h"

namespace ptespec::proofs {

z3::expr bit_slicer::truth(const z3::expr& b)
{
	const unsigned id = b.id();
	if (auto it = truths_.find(id); it != truths_.end())
		return it->second;
	const z3::expr out = slice_truth(b);
	keep_.push_back(b);	// an id names a term only while it lives
	truths_.emplace(id, out);
	return out;
}

z3::expr bit_slicer::slice_truth(const z3::expr& b)
{
	if (!b.is_app())
		return b;
	const z3::func_decl d = b.decl();
	const unsigned n = b.num_args();
	switch (d.decl_kind()) {
	case Z3_OP_TRUE: return true_;
	case Z3_OP_FALSE: return false_;
	case Z3_OP_NOT: return not_(truth(b.arg(0)));
	case Z3_OP_AND: {
		z3::expr out = true_;
		for (unsigned k = 0; k < n && !out.is_false(); k++)
			out = and_(out, truth(b.arg(k)));
		return out;
	}
	case Z3_OP_OR: {
		z3::expr out = false_;
		for (unsigned k = 0; k < n && !out.is_true(); k++)
			out = or_(out, truth(b.arg(k)));
		return out;
	}
	case Z3_OP_IMPLIES: return or_(not_(truth(b.arg(0))), truth(b.arg(1)));
	case Z3_OP_XOR: return not_(iff(truth(b.arg(0)), truth(b.arg(1))));
	case Z3_OP_ITE: return ite(truth(b.arg(0)), truth(b.arg(1)), truth(b.arg(2)));
	case Z3_OP_EQ:
		if (n == 2)
			return equal(b.arg(0), b.arg(1));
		return b;
	case Z3_OP_DISTINCT:
		if (n == 2)
			return not_(equal(b.arg(0), b.arg(1)));
		return b;
	default: return b;
	}
}

z3::expr bit_slicer::equal(const z3::expr& x, const z3::expr& y)
{
	if (x.is_bool())
		return iff(truth(x), truth(y));
	if (!x.is_bv())
		return x == y;
	z3::expr out = true_;
	for (unsigned i = 0; i < x.get_sort().bv_size() && !out.is_false(); i++)
		out = and_(out, iff(bit(x, i), bit(y, i)));
	return out;
}

z3::expr bit_slicer::bit(const z3::expr& w, unsigned i)
{
	const std::uint64_t key = (static_cast<std::uint64_t>(w.id()) << 8) | i;
	if (auto it = bits_.find(key); it != bits_.end())
		return it->second;
	const z3::expr out = slice_bit(w, i);
	keep_.push_back(w);
	bits_.emplace(key, out);
	return out;
}

z3::expr bit_slicer::slice_bit(const z3::expr& w, unsigned i)
{
	const unsigned width = w.get_sort().bv_size();
	std::uint64_t v = 0;
	if (w.is_numeral() && width <= 64 && w.is_numeral_u64(v))
		return (v >> i) & 1 ? true_ : false_;
	if (!w.is_app() || w.num_args() == 0)
		return extracted(w, i);
	const z3::func_decl d = w.decl();
	const unsigned n = w.num_args();
	switch (d.decl_kind()) {
	case Z3_OP_BAND: {
		z3::expr out = true_;
		for (unsigned k = 0; k < n && !out.is_false(); k++)
			out = and_(out, bit(w.arg(k), i));
		return out;
	}
	case Z3_OP_BOR: {
		z3::expr out = false_;
		for (unsigned k = 0; k < n && !out.is_true(); k++)
			out = or_(out, bit(w.arg(k), i));
		return out;
	}
	case Z3_OP_BXOR: {
		z3::expr out = false_;
		for (unsigned k = 0; k < n; k++)
			out = not_(iff(out, bit(w.arg(k), i)));
		return out;
	}
	case Z3_OP_BNOT: return not_(bit(w.arg(0), i));
	case Z3_OP_ITE: return ite(truth(w.arg(0)), bit(w.arg(1), i), bit(w.arg(2), i));
	case Z3_OP_EXTRACT: {
		const unsigned lo = static_cast<unsigned>(Z3_get_decl_int_parameter(ctx_, d, 1));
		return bit(w.arg(0), lo + i);
	}
	case Z3_OP_CONCAT: {
		// The last argument holds the lowest bits.
		unsigned at = i;
		for (unsigned k = n; k-- > 0;) {
			const unsigned wk = w.arg(k).get_sort().bv_size();
			if (at < wk)
				return bit(w.arg(k), at);
			at -= wk;
		}
		return extracted(w, i);
	}
	case Z3_OP_ZERO_EXT: {
		const z3::expr a = w.arg(0);
		return i < a.get_sort().bv_size() ? bit(a, i) : false_;
	}
	case Z3_OP_BSHL:
	case Z3_OP_BLSHR: {
		std::uint64_t s = 0;
		if (!w.arg(1).is_numeral() || !w.arg(1).is_numeral_u64(s))
			return extracted(w, i);
		if (d.decl_kind() == Z3_OP_BSHL)
			return i < s ? false_ : bit(w.arg(0), i - static_cast<unsigned>(s));
		return i + s < width ? bit(w.arg(0), i + static_cast<unsigned>(s)) : false_;
	}
	default: return extracted(w, i);
	}
}

z3::expr bit_slicer::extracted(const z3::expr& w, unsigned i)
{
	return z3::expr(ctx_, Z3_mk_extract(ctx_, i, i, w)) == ctx_.bv_val(1, 1);
}

z3::expr bit_slicer::not_(const z3::expr& x)
{
	if (x.is_true())
		return false_;
	if (x.is_false())
		return true_;
	if (x.is_app() && x.decl().decl_kind() == Z3_OP_NOT)
		return x.arg(0);
	return !x;
}

z3::expr bit_slicer::and_(const z3::expr& x, const z3::expr& y)
{
	if (x.is_false() || y.is_false())
		return false_;
	if (x.is_true() || z3::eq(x, y))
		return y;
	if (y.is_true())
		return x;
	return x && y;
}

z3::expr bit_slicer::or_(const z3::expr& x, const z3::expr& y)
{
	if (x.is_true() || y.is_true())
		return true_;
	if (x.is_false() || z3::eq(x, y))
		return y;
	if (y.is_false())
		return x;
	return x || y;
}

z3::expr bit_slicer::iff(const z3::expr& x, const z3::expr& y)
{
	if (z3::eq(x, y))
		return true_;
	if (x.is_true())
		return y;
	if (x.is_false())
		return not_(y);
	if (y.is_true())
		return x;
	if (y.is_false())
		return not_(x);
	return x == y;
}

z3::expr bit_slicer::ite(const z3::expr& c, const z3::expr& a, const z3::expr& b)
{
	if (c.is_true() || z3::eq(a, b))
		return a;
	if (c.is_false())
		return b;
	if (a.is_true())
		return or_(c, b);
	if (a.is_false())
		return and_(not_(c), b);
	if (b.is_true())
		return or_(not_(c), a);
	if (b.is_false())
		return and_(c, a);
	return z3::ite(c, a, b);
}

} // namespace ptespec::proofs
