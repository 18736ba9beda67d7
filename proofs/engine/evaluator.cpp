#include "proofs/engine/evaluator.h"

#include <algorithm>
#include <utility>

#include "model/errors.h"

namespace ptespec::proofs {

std::optional<std::uint64_t> evaluator::operator()(const z3::expr& e, const valuation& v,
						     std::span<const valuation::change> overrides)
{
	if (!v.complete())
		return std::nullopt;
	const unsigned root = compile(e);
	if (!nodes_[root].known)
		return std::nullopt;
	if (v.serial() != serial_) {
		serial_ = v.serial();
		next(base_epoch_, &state::base_stamp);
	}
	walk(root, v, 0);
	if (overrides.empty())
		return states_[root].base_value;
	next(over_epoch_, &state::over_stamp);
	std::uint64_t touched = 0;
	for (const valuation::change& o : overrides) {
		// A constant that no compiled term has is not in e.
		const unsigned id = o.constant.id();
		if (id >= index_.size() || index_[id] == none)
			continue;
		const unsigned i = index_[id];
		states_[i].over_stamp = over_epoch_;
		states_[i].over_value = o.value & low_bits(nodes_[i].width);
		touched |= nodes_[i].below;
	}
	walk(root, v, touched);
	return value(root);
}

void evaluator::next(unsigned& epoch, unsigned state::*stamp)
{
	if (++epoch == 0) {
		for (state& s : states_)
			s.*stamp = 0;
		epoch = 1;
	}
}

std::uint64_t evaluator::value(unsigned i) const
{
	const state& s = states_[i];
	return s.over_stamp == over_epoch_ ? s.over_value : s.base_value;
}

void evaluator::walk(unsigned root, const valuation& v, std::uint64_t touched)
{
	const bool over = touched != 0;
	auto done = [&](unsigned i) {
		const state& s = states_[i];
		return over ? s.over_stamp == over_epoch_ || (nodes_[i].below & touched) == 0
			    : s.base_stamp == base_epoch_;
	};
	next(walk_epoch_, &state::pushed);
	todo_.clear();
	todo_.push_back(root);
	while (!todo_.empty()) {
		const unsigned i = todo_.back();
		if (done(i)) {
			todo_.pop_back();
			continue;
		}
		const node& n = nodes_[i];
		if (states_[i].pushed != walk_epoch_) {
			states_[i].pushed = walk_epoch_;
			for (unsigned k = 0; k < n.count; k++)
				if (!done(args_[n.first + k]))
					todo_.push_back(args_[n.first + k]);
			continue;
		}
		todo_.pop_back();
		const std::uint64_t r = apply(n, v, over) & low_bits(n.width);
		if (over) {
			states_[i].over_stamp = over_epoch_;
			states_[i].over_value = r;
		} else {
			states_[i].base_stamp = base_epoch_;
			states_[i].base_value = r;
		}
	}
}

std::int64_t evaluator::to_signed(std::uint64_t x, unsigned w)
{
	const unsigned s = 64 - w;
	return static_cast<std::int64_t>(x << s) >> s;
}

std::uint64_t evaluator::apply(const node& n, const valuation& v, bool over) const
{
	auto x = [&](unsigned k) {
		const unsigned a = args_[n.first + k];
		return over ? value(a) : states_[a].base_value;
	};
	auto w = [&](unsigned k) { return nodes_[args_[n.first + k]].width; };
	auto fold = [&](auto op) {
		std::uint64_t r = x(0);
		for (unsigned k = 1; k < n.count; k++)
			r = op(r, x(k));
		return r;
	};
	switch (n.op) {
	case Z3_OP_TRUE: return 1;
	case Z3_OP_FALSE: return 0;
	case Z3_OP_BNUM: return n.aux;
	case Z3_OP_UNINTERPRETED: return v.value(static_cast<unsigned>(n.aux));
	case Z3_OP_NOT: return x(0) ^ 1;
	case Z3_OP_AND:
	case Z3_OP_BAND: return fold([](auto p, auto q) { return p & q; });
	case Z3_OP_OR:
	case Z3_OP_BOR: return fold([](auto p, auto q) { return p | q; });
	case Z3_OP_XOR:
	case Z3_OP_BXOR: return fold([](auto p, auto q) { return p ^ q; });
	case Z3_OP_IMPLIES: return (x(0) ^ 1) | x(1);
	case Z3_OP_IFF:
	case Z3_OP_EQ: return x(0) == x(1);
	case Z3_OP_DISTINCT:
		for (unsigned i = 0; i < n.count; i++)
			for (unsigned j = i + 1; j < n.count; j++)
				if (x(i) == x(j))
					return 0;
		return 1;
	case Z3_OP_ITE: return x(0) ? x(1) : x(2);
	case Z3_OP_BNOT: return ~x(0);
	case Z3_OP_BNEG: return std::uint64_t{0} - x(0);
	// Modular: the bits that wrapping leaves above the width are
	// masked off.
	case Z3_OP_BADD: return fold([](auto p, auto q) { return p + q; });
	case Z3_OP_BSUB: return fold([](auto p, auto q) { return p - q; });
	case Z3_OP_BMUL: return fold([](auto p, auto q) { return p * q; });
	case Z3_OP_EXTRACT: return x(0) >> n.aux;
	case Z3_OP_CONCAT: {
		// The first argument holds the highest bits; the whole is at
		// most 64 bits, so a shift by 64 only ever drops a zero.
		std::uint64_t r = 0;
		for (unsigned k = 0; k < n.count; k++)
			r = (w(k) >= 64 ? 0 : r << w(k)) | x(k);
		return r;
	}
	case Z3_OP_ZERO_EXT: return x(0);
	case Z3_OP_SIGN_EXT: return static_cast<std::uint64_t>(to_signed(x(0), w(0)));
	// A shift by the width or more leaves nothing of the word (all
	// sign bits, for an arithmetic one).
	case Z3_OP_BSHL: return x(1) >= n.width ? 0 : x(0) << x(1);
	case Z3_OP_BLSHR: return x(1) >= n.width ? 0 : x(0) >> x(1);
	case Z3_OP_BASHR:
		return static_cast<std::uint64_t>(to_signed(x(0), n.width) >>
						  std::min<std::uint64_t>(x(1), n.width - 1));
	case Z3_OP_ULEQ: return x(0) <= x(1);
	case Z3_OP_ULT: return x(0) < x(1);
	case Z3_OP_UGEQ: return x(0) >= x(1);
	case Z3_OP_UGT: return x(0) > x(1);
	case Z3_OP_SLEQ: return to_signed(x(0), w(0)) <= to_signed(x(1), w(1));
	case Z3_OP_SLT: return to_signed(x(0), w(0)) < to_signed(x(1), w(1));
	case Z3_OP_SGEQ: return to_signed(x(0), w(0)) >= to_signed(x(1), w(1));
	case Z3_OP_SGT: return to_signed(x(0), w(0)) > to_signed(x(1), w(1));
	default: throw internal_error("evaluator: a node it does not know was marked known");
	}
}

bool evaluator::knows(Z3_decl_kind op, unsigned n)
{
	switch (op) {
	case Z3_OP_TRUE:
	case Z3_OP_FALSE:
	case Z3_OP_BNUM:
	case Z3_OP_UNINTERPRETED: return n == 0;	// a constant, not a function
	case Z3_OP_NOT:
	case Z3_OP_BNOT:
	case Z3_OP_BNEG:
	case Z3_OP_EXTRACT:
	case Z3_OP_ZERO_EXT:
	case Z3_OP_SIGN_EXT: return n == 1;
	case Z3_OP_IMPLIES:
	case Z3_OP_IFF:
	case Z3_OP_EQ:
	case Z3_OP_BSHL:
	case Z3_OP_BLSHR:
	case Z3_OP_BASHR:
	case Z3_OP_ULEQ:
	case Z3_OP_ULT:
	case Z3_OP_UGEQ:
	case Z3_OP_UGT:
	case Z3_OP_SLEQ:
	case Z3_OP_SLT:
	case Z3_OP_SGEQ:
	case Z3_OP_SGT: return n == 2;
	case Z3_OP_ITE: return n == 3;
	case Z3_OP_AND:
	case Z3_OP_OR:
	case Z3_OP_XOR:
	case Z3_OP_DISTINCT:
	case Z3_OP_BAND:
	case Z3_OP_BOR:
	case Z3_OP_BXOR:
	case Z3_OP_BADD:
	case Z3_OP_BSUB:
	case Z3_OP_BMUL:
	case Z3_OP_CONCAT: return n >= 1;
	default: return false;
	}
}

unsigned evaluator::compile(const z3::expr& e)
{
	Z3_context c = e.ctx();
	if (ctx_ == nullptr)
		ctx_ = c;
	else if (ctx_ != c)
		throw internal_error("evaluator: terms of two contexts");
	if (compiled(e.id()))
		return index_[e.id()];
	roots_.push_back(e);	// keeps every term compiled below alive
	std::vector<std::pair<Z3_ast, bool>> todo{{e, false}};
	while (!todo.empty()) {
		const auto [t, expanded] = todo.back();
		const unsigned id = Z3_get_ast_id(c, t);
		if (compiled(id)) {
			todo.pop_back();
			continue;
		}
		const Z3_ast_kind kind = Z3_get_ast_kind(c, t);
		const bool app = kind == Z3_APP_AST || kind == Z3_NUMERAL_AST;
		const Z3_app a = app ? Z3_to_app(c, t) : nullptr;
		const unsigned n = app ? Z3_get_app_num_args(c, a) : 0;
		const Z3_decl_kind op = app ? Z3_get_decl_kind(c, Z3_get_app_decl(c, a)) : Z3_OP_UNINTERPRETED;
		// Below an operator it does not know, nothing is evaluated.
		if (!expanded && app && knows(op, n) && n > 0) {
			todo.back().second = true;
			for (unsigned k = 0; k < n; k++)
				todo.push_back({Z3_get_app_arg(c, a, k), false});
			continue;
		}
		todo.pop_back();
		node nd{op, app ? value_width(c, t) : 0, static_cast<unsigned>(args_.size()), 0, 0, 0, false};
		nd.known = app && nd.width != 0 && knows(op, n);
		if (nd.known) {
			nd.count = n;
			for (unsigned k = 0; k < n; k++) {
				const unsigned arg = index_[Z3_get_ast_id(c, Z3_get_app_arg(c, a, k))];
				args_.push_back(arg);
				nd.known = nd.known && nodes_[arg].known;
				nd.below |= nodes_[arg].below;
			}
			if (op == Z3_OP_BNUM)
				nd.known = nd.known && Z3_get_numeral_uint64(c, t, &nd.aux);
			if (op == Z3_OP_UNINTERPRETED) {
				nd.aux = id;
				nd.below = std::uint64_t{1} << ((id * 0x9e3779b97f4a7c15ull) >> 58);
			}
			if (op == Z3_OP_EXTRACT)
				nd.aux = static_cast<unsigned>(Z3_get_decl_int_parameter(c, Z3_get_app_decl(c, a), 1));
		}
		grow_for(index_, id, none);
		index_[id] = static_cast<unsigned>(nodes_.size());
		nodes_.push_back(nd);
		states_.emplace_back();
	}
	return index_[e.id()];
}

std::optional<std::uint64_t> evaluate(const z3::expr& e, const valuation& v,
				      std::span<const valuation::change> overrides)
{
	evaluator once;
	return once(e, v, overrides);
}

} // namespace ptespec::proofs
