// helpers/<law>: the helper algebra of tests/model/pte_test.cpp, proved for
// all 2^64 words by running model/pte.h on a Z3 word.  The unit tests check
// each law on sampled words; here the same template code is evaluated on a
// symbolic one, so the law holds for every word.

#include <fmt/format.h>

#include "model/pte.h"
#include "proofs/engine/ground.h"
#include "proofs/obligations.h"

namespace ptespec::proofs {

namespace {

// p and q agree outside `mask`.
z3::expr only_changes(const z3::expr& p, const z3::expr& q, std::uint64_t mask)
{
	const z3::expr keep = p.ctx().bv_val(~mask, 64);
	return (p & keep) == (q & keep);
}

struct law {
	const char* name;
	// The law for all words p, b at geometry g.
	z3::expr (*holds)(const z3::expr& p, const z3::expr& b, const geometry& g);
};

const law laws[] = {
	{"young-of-mkyoung", [](const z3::expr& p, const z3::expr&, const geometry&) { return pte_young(pte_mkyoung(p)); }},
	{"old-of-mkold", [](const z3::expr& p, const z3::expr&, const geometry&) { return !pte_young(pte_mkold(p)); }},
	{"dirty-of-mkdirty", [](const z3::expr& p, const z3::expr&, const geometry&) { return pte_dirty(pte_mkdirty(p)); }},
	{"clean-of-mkclean",
	 [](const z3::expr& p, const z3::expr&, const geometry&) {
		 const z3::expr q = pte_mkclean(p);
		 return !pte_dirty(q) && !pte_sw_dirty(q) && !pte_hw_dirty(q);
	 }},
	{"write-of-mkwrite", [](const z3::expr& p, const z3::expr&, const geometry&) { return pte_write(pte_mkwrite(p)); }},
	{"wrprotect-keeps-dirty-and-young",
	 [](const z3::expr& p, const z3::expr&, const geometry&) {
		 const z3::expr q = pte_wrprotect(p);
		 return !pte_write(q) && !pte_hw_dirty(q) && pte_dirty(q) == pte_dirty(p) && pte_young(q) == pte_young(p);
	 }},
	{"mkdirty-hw-dirty-only-when-writable",
	 [](const z3::expr& p, const z3::expr&, const geometry&) {
		 const z3::expr q = pte_mkdirty(p);
		 return z3::ite(pte_write(p), pte_hw_dirty(q) && pte_sw_dirty(q),
				!pte_hw_dirty(q) && pte_sw_dirty(q) && pte_rdonly(q) == pte_rdonly(p));
	 }},
	{"cont-of-mkcont-mknoncont",
	 [](const z3::expr& p, const z3::expr&, const geometry&) {
		 return pte_cont(pte_mkcont(p)) && !pte_cont(pte_mknoncont(p)) &&
			only_changes(p, pte_mkcont(p), PTE_CONT) && only_changes(p, pte_mknoncont(p), PTE_CONT);
	 }},
	{"or-flags-is-the-or",
	 [](const z3::expr& a, const z3::expr& b, const geometry&) {
		 const z3::expr r = pte_or_flags(a, b);
		 return pte_young(r) == (pte_young(a) || pte_young(b)) && pte_dirty(r) == (pte_dirty(a) || pte_dirty(b)) &&
			only_changes(a, r, PTE_FLAG_BITS) && z3::implies(!pte_young(b) && !pte_dirty(b), r == a);
	 }},
	{"pfn-prot-round-trip",
	 [](const z3::expr& p, const z3::expr&, const geometry& g) {
		 return pfn_pte(pte_pfn(p, g), pte_pgprot(p, g), g) == p &&
			(pte_pgprot(p, g) & p.ctx().bv_val(g.addr_mask(), 64)) == p.ctx().bv_val(0, 64);
	 }},
	{"advance-pfn-moves-pfn-keeps-prot",
	 [](const z3::expr& p, const z3::expr&, const geometry& g) {
		 const z3::expr q = pte_advance_pfn(p, 1, g);
		 const z3::expr below_max = z3::ult(pte_pfn(p, g), p.ctx().bv_val(g.max_pfn(), 64));
		 return z3::implies(below_max, pte_pfn(q, g) == pte_pfn(p, g) + p.ctx().bv_val(1, 64) &&
						       pte_pgprot(q, g) == pte_pgprot(p, g));
	 }},
	{"same-mapping-ignores-flags-and-cont",
	 [](const z3::expr& p, const z3::expr&, const geometry&) {
		 return pte_same_mapping(p, pte_mkcont(pte_mkdirty(pte_mkyoung(p)))) &&
			pte_same_mapping(p, pte_mkclean(pte_mkold(pte_mknoncont(p))));
	 }},
};

std::string name_of(const law& l) { return fmt::format("helpers/{}", l.name); }

} // namespace

std::vector<std::string> helper_names()
{
	std::vector<std::string> out;
	for (const law& l : laws)
		out.push_back(name_of(l));
	return out;
}

std::vector<proof_result> prove_helpers(granule g, const prove_options& o)
{
	std::vector<proof_result> out;
	for (const law& l : laws) {
		if (!o.wants(name_of(l)))
			continue;
		stopwatch clock;
		z3::context ctx;
		proof_result r;
		r.obligation = name_of(l);
		r.gran = g;
		r.paths = 1;
		r.formulas = 1;
		z3::solver s(ctx);
		z3::params prm(ctx);
		prm.set("timeout", o.solver.timeout_ms);
		s.set(prm);
		const z3::expr p = ctx.bv_const("p", 64);
		const z3::expr b = ctx.bv_const("b", 64);
		s.add(!l.holds(p, b, geometry::of(g)));
		const z3::check_result res = s.check();
		r.verdict = res == z3::unsat ? proof_verdict::proved
			    : res == z3::sat ? proof_verdict::refuted
					     : proof_verdict::unknown;
		if (res == z3::sat) {
			const z3::model m = s.get_model();
			r.ce_text = fmt::format("    p = {:#x}, b = {:#x}\n", ground_value(m.eval(p, true)),
						ground_value(m.eval(b, true)));
		}
		r.detail = "all 2^64 words";
		r.seconds = clock.seconds();
		out.push_back(std::move(r));
	}
	return out;
}

} // namespace ptespec::proofs
