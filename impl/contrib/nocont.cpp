// "nocont" -- the kernel before contpte: every entry plain, nothing ever
// folds.  The baseline the cost table is measured against (the seed's
// "baseline" column), registered like any strategy so the properties judge
// it too.
//
// Argument: with no CONT entry anywhere, hardware records an event only in
// the page's own entry, so every mainline path takes its non-contpte branch:
// a read is one plain read, a clear one atomic exchange.  Correct for the
// same reasons the pre-contpte kernel was.
#include <cstddef>

#include "impl/adapter.h"
#include "impl/mainline.h"

namespace ptespec::contrib {

template <class M>
struct nocont : mainline_ops<M, nocont<M>> {
	using W = typename M::word;

	// Both overloads hidden together (see mainline_ops): nothing folds.
	void contpte_try_fold(M&, std::size_t) {}
	void contpte_try_fold(M&, std::size_t, const W&) {}

	// set_ptes as it was before contpte: the value written as given, with
	// no CONT to strip (core-mm never passes it; a non-present value keeps
	// every bit, bit 52 included, as a young migration entry needs with 4K
	// pages and 52-bit physical addresses).
	void set_ptes(M& m, std::size_t i, W pte, std::size_t nr) { this->self().__set_ptes(m, i, pte, nr); }
};

// In-tree, not built in: registry tests pin the seven builtin names.
static const strategy_registrar nocont_registrar(
	make_strategy<nocont>("nocont", "baseline: never folds, plain entries as before contpte (cost baseline)",
			      "in-tree"));

} // namespace ptespec::contrib
