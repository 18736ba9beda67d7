// The path oracle's evaluation of a branch condition under a valuation
// (valuation.h), as Z3's m.eval(e, true) would, building no term:
// booleans (0/1) and words of at most 64 bits, over the boolean
// connectives, equality, ite and the bit-vector operators below.  For any
// other operator or width there is no answer, and the caller asks Z3.
//
// The oracle evaluates thousands of conditions that share most of their
// terms, under few valuations, and a repair tries changes of a handful of
// constants.  So a term is compiled once into a node (operator, width,
// arguments: no Z3 call when evaluating), values are kept per node for as
// long as the valuation is the same, and an evaluation with overrides
// recomputes only nodes that may sit above an overridden constant: each
// node carries one bit per constant below it, hashed to 64.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <z3++.h>

#include "proofs/engine/valuation.h"

namespace ptespec::proofs {

// One evaluator serves one context and must not outlive it: it keeps the
// terms it compiled alive, since an id names a term only while it lives.
class evaluator {
public:
	std::optional<std::uint64_t> operator()(const z3::expr& e, const valuation& v,
						std::span<const valuation::change> overrides = {});

private:
	static constexpr unsigned none = ~0u;

	struct node {
		Z3_decl_kind op;
		unsigned width;	// 1 for a boolean
		unsigned first, count;	// its arguments: args_[first, first + count)
		std::uint64_t aux;	// a numeral's value, a constant's term id, an extract's low bit
		std::uint64_t below;	// a bit per constant below it
		bool known;	// the evaluator knows it and every term below it
	};
	// A node's values: under the valuation `serial_` (base) and with the
	// current overrides made; each valid when its stamp is the epoch.
	struct state {
		unsigned base_stamp = 0, over_stamp = 0, pushed = 0;
		std::uint64_t base_value = 0, over_value = 0;
	};

	void next(unsigned& epoch, unsigned state::*stamp);

	// The value of node i: with the overrides where they reach it.
	std::uint64_t value(unsigned i) const;

	// Computes the nodes below `root` that have no value yet: under the
	// valuation (touched 0), or with overrides of the constants whose bits
	// are `touched`, where every node whose bits miss them keeps its value
	// under the valuation (computed first, by a walk with touched 0).
	void walk(unsigned root, const valuation& v, std::uint64_t touched);

	static std::int64_t to_signed(std::uint64_t x, unsigned w);

	// The value of node n from its arguments' (masked by the caller).
	std::uint64_t apply(const node& n, const valuation& v, bool over) const;

	// Whether apply() knows operator op with n arguments.
	static bool knows(Z3_decl_kind op, unsigned n);

	bool compiled(unsigned id) const { return id < index_.size() && index_[id] != none; }

	// The node of e, compiling e and the terms below it that have none.
	unsigned compile(const z3::expr& e);

	Z3_context ctx_ = nullptr;
	std::vector<z3::expr> roots_;
	std::vector<unsigned> index_;	// per term id: its node, or none
	std::vector<node> nodes_;	// every node after its arguments
	std::vector<unsigned> args_;
	std::vector<state> states_;	// per node
	std::vector<unsigned> todo_;
	std::uint64_t serial_ = 0;	// the valuation of the base values
	unsigned base_epoch_ = 0, over_epoch_ = 0, walk_epoch_ = 0;
};

// An evaluation with nothing kept, for a caller that evaluates once (the
// oracle keeps an evaluator: its nodes and values serve the next question).
std::optional<std::uint64_t> evaluate(const z3::expr& e, const valuation& v,
				      std::span<const valuation::change> overrides = {});

} // namespace ptespec::proofs
