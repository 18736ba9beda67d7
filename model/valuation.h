// Values of a path's variables, for the path oracle
// (model/symbolic_machine.h): a model of the path so far, as machine words
// the evaluator (model/evaluator.h) reads without building a term.
//
// The oracle evaluates every new branch condition under such a model and
// tries a few changed copies of it for the other side.  Z3 did both by
// building terms (Z3_model_eval, Z3_substitute), half of all proving time;
// Z3 stays the reference for the terms the evaluator does not know
// (valuation::eval).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include <z3++.h>

namespace ptespec {

// The bits of a w-bit word.
inline std::uint64_t low_bits(unsigned w)
{
	return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
}

// Makes a table indexed by term id long enough for `id` (doubling, new
// slots `fill`): the walks over Z3 terms keep their marks in such tables.
template <class T>
inline void grow_for(std::vector<T>& table, std::size_t id, T fill)
{
	if (id >= table.size())
		table.resize(std::max<std::size_t>(id + 1, 2 * table.size()), fill);
}

// How many bits a valuation gives the value of term t: 1 for a boolean,
// the width of a word of at most 64 bits, 0 for anything else.
inline unsigned value_width(Z3_context c, Z3_ast t)
{
	const Z3_sort s = Z3_get_sort(c, t);
	switch (Z3_get_sort_kind(c, s)) {
	case Z3_BOOL_SORT: return 1;
	case Z3_BV_SORT: {
		const unsigned w = Z3_get_bv_sort_size(c, s);
		return w <= 64 ? w : 0;
	}
	default: return 0;
	}
}

// The value of each uninterpreted constant of a model, keyed by the id of
// the constant's term (booleans 0/1).  A constant the model leaves out
// reads 0 / false: that is what Z3's model completion picks, so this
// agrees with m.eval(e, true).
//
// Copies are cheap: an immutable base shared by every copy, and a small
// overlay of changed constants (a repaired witness changes a few).
class valuation {
public:
	struct change {
		z3::expr constant;
		std::uint64_t value;
	};

	static valuation of(const z3::model& m)
	{
		auto b = std::make_shared<base>(m);
		b->complete = m.num_funcs() == 0;
		for (unsigned k = 0; k < m.num_consts(); k++) {
			const z3::func_decl f = m.get_const_decl(k);
			const z3::expr v = m.get_const_interp(f);
			const z3::sort s = f.range();
			std::uint64_t n = 0;
			if (!s.is_bool() && !(s.is_bv() && s.bv_size() <= 64))
				continue;	// the evaluator gives up on any term of this sort
			if (v.is_true())
				n = 1;
			else if (!v.is_false() && !(v.is_numeral() && v.is_numeral_u64(n)))
				b->complete = false;	// a term, not a value (not from a solver)
			// An id names a term only while it lives: the term is kept.
			const z3::expr c = f();
			b->values.emplace(c.id(), constant{c, n});
		}
		valuation out;
		out.base_ = std::move(b);
		out.serial_ = next_serial();
		return out;
	}

	// Names these values: two valuations with the same serial agree on
	// every constant (a copy keeps it; with() makes a new one), so what was
	// evaluated under one holds under the other.
	std::uint64_t serial() const { return serial_; }

	// The value of the constant whose term has id `id`.
	std::uint64_t value(unsigned id) const
	{
		if (const change* c = overlaid(id))
			return c->value;
		const auto it = base_->values.find(id);
		return it == base_->values.end() ? 0 : it->second.value;
	}

	// Whether every interpretation of the model is recorded here as a
	// value.  A solver's model with no functions always is; the evaluator
	// answers nothing under any other, and no changed copy of one is made
	// (path_solver::repair).
	bool complete() const { return base_->complete; }

	// This valuation with `changes` made.
	valuation with(std::vector<change> changes) const
	{
		std::sort(changes.begin(), changes.end(),
			  [](const change& a, const change& b) { return a.constant.id() < b.constant.id(); });
		valuation out;
		out.base_ = base_;
		out.serial_ = next_serial();
		out.overlay_.reserve(overlay_.size() + changes.size());
		// A merge of two sorted lists; a constant in both takes its new value.
		auto old = overlay_.begin();
		for (change& c : changes) {
			const unsigned id = c.constant.id();
			for (; old != overlay_.end() && old->constant.id() < id; ++old)
				out.overlay_.push_back(*old);
			if (old != overlay_.end() && old->constant.id() == id)
				++old;
			out.overlay_.push_back(std::move(c));
		}
		out.overlay_.insert(out.overlay_.end(), old, overlay_.end());
		// Each lookup searches the overlay: a long path of repairs would
		// make every one slow.
		if (out.overlay_.size() > max_overlay)
			out.flatten();
		return out;
	}

	// A Z3 model with these values: the base model with the changed
	// constants replaced (its function interpretations are not copied:
	// change only a complete valuation).
	z3::model to_model(z3::context& ctx) const
	{
		if (overlay_.empty())
			return base_->model;
		z3::model out(ctx);
		const z3::model& m = base_->model;
		// (add_const_interp takes its arguments by non-const reference.)
		for (unsigned k = 0; k < m.num_consts(); k++) {
			z3::func_decl f = m.get_const_decl(k);
			z3::expr val = m.get_const_interp(f);
			if (!overlaid(f().id()))
				out.add_const_interp(f, val);
		}
		for (const change& c : overlay_) {
			z3::func_decl f = c.constant.decl();
			z3::expr val = literal(c.constant, c.value);
			out.add_const_interp(f, val);
		}
		return out;
	}

	// Z3's own evaluation of `e` under this valuation with `overrides` made
	// too: for the terms the evaluator does not know.
	z3::expr eval(const z3::expr& e, std::span<const change> overrides = {}) const
	{
		z3::context& ctx = e.ctx();
		z3::expr_vector from(ctx), to(ctx);
		for (const change& c : overrides) {
			from.push_back(c.constant);
			to.push_back(literal(c.constant, c.value));
		}
		for (const change& c : overlay_) {
			const bool overridden = std::any_of(overrides.begin(), overrides.end(), [&](const change& o) {
				return o.constant.id() == c.constant.id();
			});
			if (!overridden) {
				from.push_back(c.constant);
				to.push_back(literal(c.constant, c.value));
			}
		}
		if (from.empty())
			return base_->model.eval(e, true);
		z3::expr probe = e;
		return base_->model.eval(probe.substitute(from, to), true);
	}

private:
	valuation() = default;	// made by of() and with() only

	struct constant {
		z3::expr term;
		std::uint64_t value;
	};
	struct base {
		explicit base(z3::model m) : model(std::move(m)) {}
		z3::model model;	// agrees with `values`
		std::unordered_map<unsigned, constant> values;
		bool complete = true;
	};
	static constexpr std::size_t max_overlay = 32;

	static std::uint64_t next_serial()
	{
		static std::atomic<std::uint64_t> last{0};
		return ++last;
	}

	static z3::expr literal(const z3::expr& c, std::uint64_t v)
	{
		return c.is_bool() ? c.ctx().bool_val(v != 0) : c.ctx().bv_val(v, c.get_sort().bv_size());
	}

	const change* overlaid(unsigned id) const
	{
		const auto it = std::lower_bound(overlay_.begin(), overlay_.end(), id,
						 [](const change& c, unsigned k) { return c.constant.id() < k; });
		return it != overlay_.end() && it->constant.id() == id ? &*it : nullptr;
	}

	// The overlay folded into a base of its own.
	void flatten()
	{
		auto b = std::make_shared<base>(to_model(overlay_.front().constant.ctx()));
		b->values = base_->values;
		b->complete = base_->complete;
		for (const change& c : overlay_)
			b->values.insert_or_assign(c.constant.id(), constant{c.constant, c.value});
		base_ = std::move(b);
		overlay_.clear();
	}

	std::shared_ptr<const base> base_;
	std::vector<change> overlay_;	// sorted by constant id
	std::uint64_t serial_ = 0;
};

} // namespace ptespec
