#include "proofs/world.h"

#include <string>

#include "model/pte.h"

namespace ptespec::proofs {

z3::context& shared_context()
{
	static z3::context* ctx = new z3::context;
	return *ctx;
}

std::vector<z3::expr> numerals(z3::context& ctx, const table_t& t)
{
	std::vector<z3::expr> out;
	for (std::uint64_t v : t)
		out.push_back(ctx.bv_val(v, 64));
	return out;
}

sym_world folded_runs(z3::context& ctx, granule g, std::size_t runs, std::size_t cleared)
{
	sym_world w;
	w.geo = geometry::of(g);
	const std::size_t n = runs * w.geo.cont_ptes;
	// A naturally aligned folio somewhere above pfn 0 (pfn 0 would make a
	// mapping's word look like a swap entry's in the rulers).
	const std::uint64_t base = 8 * n;
	w.folios = {{base, n}};

	// The bits every entry must have are constants in the term, not an
	// assumption: then pte_valid() and pte_cont() of an entry simplify to
	// true without a solver call, and the formulas stay small.
	const std::uint64_t must = PTE_VALID | PTE_TYPE | PTE_CONT;
	const z3::expr attr = (ctx.bv_const("attr", 64) & ctx.bv_val(~must, 64)) | ctx.bv_val(must, 64);
	const std::uint64_t shared_mask = ~(w.geo.addr_mask() | PTE_FLAG_BITS);
	for (std::size_t k = 0; k < n; k++) {
		if (k < cleared) {
			w.initial.push_back(ctx.bv_val(0, 64));
			continue;
		}
		const z3::expr flags = ctx.bv_const(("flags." + std::to_string(k)).c_str(), 64);
		const z3::expr addr = ctx.bv_val((base + k) << w.geo.page_shift, 64);
		w.initial.push_back((attr & ctx.bv_val(shared_mask, 64)) | addr |
				    (flags & ctx.bv_val(PTE_FLAG_BITS, 64)));
	}
	return w;
}

} // namespace ptespec::proofs
