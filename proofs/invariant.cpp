#include "proofs/invariant.h"

#include <string>

#include <fmt/format.h>

#include "model/pte.h"
#include "model/symbolic_machine.h"
#include "proofs/world.h"

namespace ptespec::proofs {

namespace {

// The attributes a run's entries must share: what the checker compares
// (everything but the address, the flags and the write permission, which
// it compares on its own).
constexpr std::uint64_t run_attr_ignore = PTE_AF | PTE_DIRTY | PTE_RDONLY | PTE_WRITE;

// The value of f at the first entry of [first, last) that `which` picks,
// as an ite chain from the back; `none` when it picks none (then nothing
// is compared with it).
template <class P, class F>
z3::expr first_where(std::size_t first, std::size_t last, const z3::expr& none, P which, F f)
{
	z3::expr out = none;
	for (std::size_t k = last; k-- > first;)
		out = z3::ite(which(k), f(k), out);
	return out;
}

// ... at the first valid entry.
template <class F>
z3::expr first_valid(const std::vector<z3::expr>& t, std::size_t first, std::size_t last, const z3::expr& none, F f)
{
	return first_where(first, last, none, [&](std::size_t k) { return pte_valid(t[k]); }, f);
}

} // namespace

z3::expr run_well_formed(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first, bool with_write)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t last = std::min(first + geo.cont_ptes, t.size());
	z3::expr any_cont = ctx.bool_val(false), any_plain = ctx.bool_val(false);
	for (std::size_t k = first; k < last; k++) {
		any_cont = any_cont || (pte_valid(t[k]) && pte_cont(t[k]));
		any_plain = any_plain || (pte_valid(t[k]) && !pte_cont(t[k]));
	}
	// The pfn an entry's run would start at (each entry maps
	// entry_pages pages), its shared attributes and write permission:
	// each valid entry's must equal the first valid one's.
	auto base = [&](std::size_t k) { return pte_pfn(t[k], geo) - ctx.bv_val((k - first) * geo.entry_pages(), 64); };
	auto attrs = [&](std::size_t k) { return pte_pgprot(t[k], geo) & ctx.bv_val(~run_attr_ignore, 64); };
	// Write permission as the checker keys it: DBM, or without DBM the
	// RDONLY bit itself (only DBM lets hardware clear it entry by entry).
	auto write = [&](std::size_t k) {
		return z3::ite(pte_write(t[k]), ctx.bv_val(PTE_WRITE, 64), t[k] & ctx.bv_val(PTE_RDONLY, 64));
	};
	const z3::expr zero = ctx.bv_val(0, 64);
	const z3::expr base0 = first_valid(t, first, last, zero, base);
	const z3::expr attrs0 = first_valid(t, first, last, zero, attrs);
	const z3::expr write0 = first_valid(t, first, last, zero, write);
	z3::expr alike = (base0 & ctx.bv_val(geo.cont_ptes * geo.entry_pages() - 1, 64)) == zero;
	for (std::size_t k = first; k < last; k++)
		alike = alike && z3::implies(pte_valid(t[k]), base(k) == base0 && attrs(k) == attrs0 &&
							     (!with_write || write(k) == write0));
	return z3::implies(any_cont, !any_plain && alike);
}

z3::expr runs_well_formed(const std::vector<z3::expr>& t, const geometry& geo)
{
	z3::expr all = t.front().ctx().bool_val(true);
	for (std::size_t first = 0; first < t.size(); first += geo.cont_ptes)
		all = all && run_well_formed(t, geo, first);
	return all;
}

z3::expr run_whole(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t last = std::min(first + geo.cont_ptes, t.size());
	z3::expr any_cont = ctx.bool_val(false), all_valid = ctx.bool_val(true);
	for (std::size_t k = first; k < last; k++) {
		any_cont = any_cont || (pte_valid(t[k]) && pte_cont(t[k]));
		all_valid = all_valid && pte_valid(t[k]);
	}
	return z3::implies(any_cont, all_valid);
}

z3::expr run_in_one_folio(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first,
			  const std::vector<folio_extent>& folios)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t last = std::min(first + geo.cont_ptes, t.size());
	z3::expr any_cont = ctx.bool_val(false);
	for (std::size_t k = first; k < last; k++)
		any_cont = any_cont || (pte_valid(t[k]) && pte_cont(t[k]));
	// A well-formed run maps the block its first valid entry names.
	const z3::expr base0 = first_valid(t, first, last, ctx.bv_val(0, 64), [&](std::size_t k) {
		return pte_pfn(t[k], geo) - ctx.bv_val((k - first) * geo.entry_pages(), 64);
	});
	return z3::implies(any_cont, folio_covers(folios, base0, geo.cont_ptes * geo.entry_pages()));
}

z3::expr run_writable_by_dbm(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first)
{
	z3::expr all = t.front().ctx().bool_val(true);
	for (std::size_t k = first; k < std::min(first + geo.cont_ptes, t.size()); k++)
		all = all && z3::implies(pte_valid(t[k]), pte_write(t[k]) || pte_rdonly(t[k])) &&
		      z3::implies(pte_present_invalid(t[k]), !pte_write(t[k]));
	return all;
}

z3::expr run_prot_none_block(const std::vector<z3::expr>& t, const geometry& geo, std::size_t first,
			     const std::vector<folio_extent>& folios)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t last = std::min(first + geo.cont_ptes, t.size());
	auto none_cont = [&](std::size_t k) { return pte_present_invalid(t[k]) && pte_cont(t[k]); };
	auto base = [&](std::size_t k) { return pte_pfn(t[k], geo) - ctx.bv_val((k - first) * geo.entry_pages(), 64); };
	const z3::expr base0 = first_where(first, last, ctx.bv_val(0, 64), none_cont, base);
	z3::expr any = ctx.bool_val(false);
	for (std::size_t k = last; k-- > first;)	// from the back, as the term was built before
		any = any || none_cont(k);
	const std::uint64_t block = geo.cont_ptes * geo.entry_pages();
	z3::expr alike = (base0 & ctx.bv_val(block - 1, 64)) == ctx.bv_val(0, 64) && folio_covers(folios, base0, block);
	for (std::size_t k = first; k < last; k++)
		alike = alike && z3::implies(none_cont(k), base(k) == base0);
	return z3::implies(any, alike);
}

sym_world invariant_table(z3::context& ctx, granule g, std::size_t runs, std::vector<folio_extent> folios)
{
	return invariant_table(ctx, geometry::of(g), runs, std::move(folios));
}

sym_world invariant_table(z3::context& ctx, const geometry& geo, std::size_t runs, std::vector<folio_extent> folios)
{
	sym_world w;
	w.geo = geo;
	w.folios = std::move(folios);
	for (std::size_t k = 0; k < runs * w.geo.cont_ptes; k++)
		w.initial.push_back(ctx.bv_const(("e." + std::to_string(k)).c_str(), 64));
	w.assumptions.push_back(runs_well_formed(w.initial, w.geo));
	for (std::size_t first = 0; first < w.initial.size(); first += w.geo.cont_ptes) {
		w.assumptions.push_back(run_whole(w.initial, w.geo, first));
		w.assumptions.push_back(run_in_one_folio(w.initial, w.geo, first, w.folios));
		w.assumptions.push_back(run_writable_by_dbm(w.initial, w.geo, first));
		w.assumptions.push_back(run_prot_none_block(w.initial, w.geo, first, w.folios));
	}
	return w;
}

std::vector<folio_extent> folio_layout(std::size_t c, std::uint64_t entry_pages)
{
	// Each folio in a region of its own, naturally aligned but the shifted
	// one, above pfn 0 (pfn 0 would make a mapping's word look like a swap
	// entry's in the rulers); in units of what one entry maps.
	const std::uint64_t u = entry_pages, region = 64 * c;
	std::vector<folio_extent> out = {
		{1 * region * u, 2 * c * u},
		{2 * region * u, c * u},
		{3 * region * u, c / 2 * u},
		{(3 * region + c / 2) * u, (c - c / 2) * u},
		{(5 * region + 1) * u, 2 * c * u},
	};
	for (std::uint64_t k = 0; k < 4; k++)
		out.push_back({(4 * region + k) * u, u});
	return out;
}

// The invariant of reachable tables over a concrete table: which part
// fails, or "" when it holds.
std::string invariant_broken(z3::context& ctx, const table_t& t, const geometry& geo,
			     const std::vector<folio_extent>& folios)
{
	const std::vector<z3::expr> w = numerals(ctx, t);
	auto holds = [](const z3::expr& e) { return e.simplify().is_true(); };
	for (std::size_t first = 0; first + geo.cont_ptes <= t.size(); first += geo.cont_ptes) {
		if (!holds(run_well_formed(w, geo, first)))
			return fmt::format("the run at #{} is not well formed", first);
		if (!holds(run_whole(w, geo, first)))
			return fmt::format("the run at #{} is folded with an entry cleared", first);
		if (!holds(run_in_one_folio(w, geo, first, folios)))
			return fmt::format("the run at #{} is folded over two folios", first);
		if (!holds(run_writable_by_dbm(w, geo, first)))
			return fmt::format("the run at #{} holds an entry writable without DBM, or a PROT_NONE one with "
					   "PTE_WRITE",
					   first);
		if (!holds(run_prot_none_block(w, geo, first, folios)))
			return fmt::format("the run at #{} holds PROT_NONE entries with CONT off one aligned block of "
					   "one folio",
					   first);
	}
	return "";
}

} // namespace ptespec::proofs
