// Values of a path's variables, for the path oracle (path_oracle.h): a
// model of the path so far, as machine words the evaluator (evaluator.h)
// reads without building a term.
//
// The oracle evaluates every new branch condition under such a model and
// tries a few changed copies of it for the other side.  Z3 did both by
// building terms (Z3_model_eval, Z3_substitute), half of all proving time;
// Z3 stays the reference for the terms the evaluator does not know
// (valuation::eval).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include <z3++.h>

namespace ptespec::proofs {

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

	static valuation of(const z3::model& m);

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
	valuation with(std::vector<change> changes) const;

	// A Z3 model with these values: the base model with the changed
	// constants replaced (its function interpretations are not copied:
	// change only a complete valuation).
	z3::model to_model(z3::context& ctx) const;

	// Z3's own evaluation of `e` under this valuation with `overrides` made
	// too: for the terms the evaluator does not know.
	z3::expr eval(const z3::expr& e, std::span<const change> overrides = {}) const;

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

	static std::uint64_t next_serial();
	static z3::expr literal(const z3::expr& c, std::uint64_t v);

	const change* overlaid(unsigned id) const
	{
		const auto it = std::lower_bound(overlay_.begin(), overlay_.end(), id,
						 [](const change& c, unsigned k) { return c.constant.id() < k; });
		return it != overlay_.end() && it->constant.id() == id ? &*it : nullptr;
	}

	// The overlay folded into a base of its own.
	void flatten();

	std::shared_ptr<const base> base_;
	std::vector<change> overlay_;	// sorted by constant id
	std::uint64_t serial_ = 0;
};

} // namespace ptespec::proofs
