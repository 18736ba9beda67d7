#include "proofs/claims.h"

#include <functional>

#include <fmt/format.h>

#include "model/errors.h"
#include "model/pte.h"
#include "proofs/invariant.h"

namespace ptespec::proofs {

z3::expr flags_equal(const sym_flags& a, const sym_flags& b) { return a.y == b.y && a.d == b.d; }

namespace {

// Whether valid word v grants write only through DBM, as arm64 builds
// every user protection (the invariant's (dbm)).
z3::expr writable_by_dbm(const z3::expr& v) { return pte_write(v) || pte_rdonly(v); }

// Every entry of c's range is none.
z3::expr range_none(const call& c, const std::vector<z3::expr>& t)
{
	z3::context& ctx = t.front().ctx();
	z3::expr none = ctx.bool_val(true);
	for (std::size_t j = 0; j < c.nr; j++)
		none = none && t[c.index + j] == ctx.bv_val(0, 64);
	return none;
}

const z3::expr& needs_value(const call& c, const std::optional<z3::expr>& value)
{
	if (!value)
		throw internal_error(fmt::format("step/: {} needs a symbolic value", describe(c)));
	return *value;
}

z3::expr set_ptes_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
			const geometry& geo, const z3::expr& v)
{
	z3::expr maps = pte_valid(v) && !pte_cont(v) && writable_by_dbm(v);
	if (c.nr > 1)
		maps = maps && folio_covers(folios, pte_pfn(v, geo), c.nr);
	z3::expr value_rule = maps;
	if (c.nr == 1)
		value_rule = value_rule || (!pte_present(v) && v != v.ctx().bv_val(0, 64));
	return range_none(c, t) && value_rule;
}

z3::expr commit_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
		      const geometry& geo, const z3::expr& v)
{
	return range_none(c, t) && pte_present(v) && z3::implies(pte_valid(v), writable_by_dbm(v)) &&
	       z3::implies(pte_present_invalid(v), !pte_write(v)) && folio_covers(folios, pte_pfn(v, geo), c.nr);
}

z3::expr access_flags_rules(const call& c, const std::vector<z3::expr>& t, const geometry& geo, const z3::expr& v)
{
	const z3::expr& e = t[c.index];
	const z3::expr rules = pte_valid(e) && pte_valid(v) && pte_young(v) && writable_by_dbm(v) &&
			       pte_same_mapping(pte_clear_bits(v, PTE_WRITE), pte_clear_bits(e, PTE_WRITE)) &&
			       pte_cont(v) == pte_cont(e) && z3::implies(pte_write(e), pte_write(v));
	if (c.flags)
		return rules && pte_hw_dirty(v) && pte_sw_dirty(v);
	const sym_flags read = ref_flags(t, geo)[c.index];
	return rules && pte_write(v) == pte_write(e) && z3::implies(pte_dirty(v), read.d);
}

// The batches' rule: present entries mapping consecutive pages of one
// folio; fork's, entries that grant write; MADV_FREE's, a whole folio.
z3::expr batch_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
		     const geometry& geo)
{
	z3::context& ctx = t.front().ctx();
	z3::expr rules = folio_covers(folios, pte_pfn(t[c.index], geo), c.nr);
	for (std::size_t j = 0; j < c.nr; j++)
		rules = rules && pte_present(t[c.index + j]) &&
			pte_same_mapping(t[c.index + j], pte_advance_pfn(t[c.index], j, geo));
	// Fork wrprotects only what grants write (a COW mapping's
	// writable entries: never PROT_NONE's).
	if (c.kind == call_kind::wrprotect_ptes)
		for (std::size_t j = 0; j < c.nr; j++)
			rules = rules && pte_write(t[c.index + j]);
	// MADV_FREE clears a large folio only when the range maps all of
	// it (a folio it maps in part is split, or left alone).
	if (c.kind == call_kind::clear_young_dirty_ptes) {
		z3::expr whole = ctx.bool_val(false);
		for (const folio_extent& f : folios)
			if (f.nr_pages == c.nr)
				whole = whole || pte_pfn(t[c.index], geo) == ctx.bv_val(f.first_pfn, 64);
		rules = rules && whole;
	}
	return rules;
}

// A present entry with PTE_WRITE and PTE_DIRTY has RDONLY clear: arm64's
// helpers never build one without (pte_mkdirty, pte_mkwrite_novma and
// pte_modify clear RDONLY of a writable sw-dirty value; pte_wrprotect
// takes PTE_WRITE, pte_mkclean PTE_DIRTY away), and hardware only clears
// RDONLY.
z3::expr dirty_writable_is_hw_dirty(const z3::expr& v)
{
	return z3::implies(pte_write(v) && pte_sw_dirty(v), !pte_rdonly(v));
}

// A present value mapping a hugepage of n entries as the hugetlb callers
// write one: its hugetlb folio's first page or block (n entries of what
// each maps, naturally aligned) with CONT (arch_make_huge_pte), valid and
// writable only through DBM or PROT_NONE without PTE_WRITE, a writable
// sw-dirty value hw-dirty too (dirty_writable_is_hw_dirty).
z3::expr hugepage_mapping(const z3::expr& v, std::size_t n, const std::vector<folio_extent>& folios,
			  const geometry& geo)
{
	z3::context& ctx = v.ctx();
	const std::uint64_t pages = n * geo.entry_pages();
	z3::expr hugetlb_folio = ctx.bool_val(false);
	for (const folio_extent& f : folios)
		if (f.nr_pages == pages && f.first_pfn % pages == 0)
			hugetlb_folio = hugetlb_folio || pte_pfn(v, geo) == ctx.bv_val(f.first_pfn, 64);
	return pte_present(v) && pte_cont(v) && hugetlb_folio && z3::implies(pte_valid(v), writable_by_dbm(v)) &&
	       z3::implies(pte_present_invalid(v), !pte_write(v)) && dirty_writable_is_hw_dirty(v);
}

// A hugepage of n entries from `first` as the hugetlb callers leave one:
// every entry none; every entry the one non-present value set_huge_pte_at
// wrote (a migration entry, a marker); or entry 0 a hugepage_mapping and
// entry k mapping the folio's k-th page or block with entry 0's attributes
// and write permission -- its young and dirty its own (hardware records
// them entry by entry), a writable sw-dirty entry hw-dirty too.
z3::expr hugepage_as_left(const std::vector<z3::expr>& t, std::size_t first, std::size_t n,
			  const std::vector<folio_extent>& folios, const geometry& geo)
{
	z3::context& ctx = t.front().ctx();
	const z3::expr zero = ctx.bv_val(0, 64);
	const z3::expr& e = t[first];
	z3::expr none = ctx.bool_val(true), same = !pte_present(e) && e != zero;
	z3::expr mapped = hugepage_mapping(e, n, folios, geo);
	for (std::size_t k = 0; k < n; k++) {
		const z3::expr& x = t[first + k];
		none = none && x == zero;
		same = same && x == e;
		if (k > 0)
			mapped = mapped && pte_valid(x) == pte_valid(e) && pte_present(x) && pte_cont(x) &&
				 pte_write(x) == pte_write(e) && pte_same_mapping(x, pte_advance_entries(e, k, geo)) &&
				 dirty_writable_is_hw_dirty(x);
	}
	return none || same || mapped;
}

// The value a hugetlb caller writes into a hugepage of n entries: a
// hugepage_mapping, or a non-present value other than none (a migration
// entry, a marker).
z3::expr hugepage_value(const z3::expr& v, std::size_t n, const std::vector<folio_extent>& folios,
			const geometry& geo)
{
	return hugepage_mapping(v, n, folios, geo) || (!pte_present(v) && v != v.ctx().bv_val(0, 64));
}

// The hugetlb callers' rules (mm/hugetlb_callers.h): the table is a
// hugetlb VMA's, every hugepage of it as the callers leave one; and per
// call, what its callers hand it.
z3::expr hugetlb_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
		       const geometry& geo, const std::optional<z3::expr>& value)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t n = geo.cont_ptes;
	const z3::expr zero = ctx.bv_val(0, 64);
	z3::expr rules = ctx.bool_val(true);
	for (std::size_t first = 0; first + n <= t.size(); first += n)
		rules = rules && hugepage_as_left(t, first, n, folios, geo);
	const z3::expr& e = t[c.index];
	switch (c.kind) {
	case call_kind::huge_ptep_get:
		return rules;
	case call_kind::huge_ptep_get_and_clear:	// unmap (present), mremap (anything but none)
		return rules && e != zero;
	case call_kind::huge_ptep_clear_flush:	// migration, a copy on write: a present hugepage
	case call_kind::huge_ptep_modify_prot_start:	// mprotect: a present one
		return rules && pte_present(e);
	case call_kind::huge_pte_clear:	// unmap: a non-present one
		return rules && !pte_present(e) && e != zero;
	case call_kind::huge_ptep_set_wrprotect:	// fork: a valid writable one
		return rules && pte_valid(e) && pte_write(e);
	case call_kind::set_huge_pte_at: {	// a fault or a marker into none; migration's entry and its undo
		const z3::expr& v = needs_value(c, value);
		return rules && !pte_present(e) && hugepage_value(v, n, folios, geo);
	}
	case call_kind::huge_ptep_modify_prot_commit: {	// over what its start cleared
		const z3::expr& v = needs_value(c, value);
		return rules && e == zero && pte_present(v) && hugepage_value(v, n, folios, geo);
	}
	case call_kind::huge_ptep_set_access_flags: {	// a fault on a valid hugepage
		const z3::expr& v = needs_value(c, value);
		return rules && access_flags_rules(c, t, geo, v) && dirty_writable_is_hw_dirty(v);
	}
	default:
		return rules;
	}
}

} // namespace

z3::expr caller_rules(const call& c, const std::vector<z3::expr>& t, const std::vector<folio_extent>& folios,
		      const geometry& geo, const std::optional<z3::expr>& value)
{
	z3::context& ctx = t.front().ctx();
	z3::expr rules = ctx.bool_val(true);
	switch (c.kind) {
	case call_kind::set_ptes:
		return set_ptes_rules(c, t, folios, geo, needs_value(c, value));
	case call_kind::modify_prot_commit_ptes:
		return commit_rules(c, t, folios, geo, needs_value(c, value));
	case call_kind::ptep_set_access_flags:
		return access_flags_rules(c, t, geo, needs_value(c, value));
	case call_kind::ptep_get_and_clear:
	case call_kind::ptep_get_and_clear_full:
	case call_kind::ptep_test_and_clear_young:
	case call_kind::ptep_clear_flush_young:
		return pte_present(t[c.index]);
	case call_kind::get_and_clear_full_ptes:
	case call_kind::clear_full_ptes:
	case call_kind::wrprotect_ptes:
	case call_kind::modify_prot_start_ptes:
	case call_kind::test_and_clear_young_ptes:
	case call_kind::clear_flush_young_ptes:
	case call_kind::clear_young_dirty_ptes:
		return batch_rules(c, t, folios, geo);
	case call_kind::clear_non_present_ptes:
		for (std::size_t j = 0; j < c.nr; j++)
			rules = rules && !pte_present(t[c.index + j]) && t[c.index + j] != ctx.bv_val(0, 64);
		return rules;
	default:
		if (is_hugetlb_call(c.kind))
			return hugetlb_rules(c, t, folios, geo, value);
		return rules;
	}
}

z3::expr same_folio(const std::vector<folio_extent>& folios, const geometry& geo, const z3::expr& a, const z3::expr& b)
{
	z3::context& ctx = a.ctx();
	const z3::expr pa = pte_pfn(a, geo), pb = pte_pfn(b, geo);
	z3::expr same = ctx.bool_val(false), in_any = ctx.bool_val(false);
	for (const folio_extent& f : folios) {
		same = same || (in_folio(f, pa) && in_folio(f, pb));
		in_any = in_any || in_folio(f, pa);
	}
	return same || (!in_any && pa == pb);
}

ledger_state read_off(const std::vector<z3::expr>& t, const geometry& geo)
{
	return {ref_flags(t, geo), std::vector<sym_flags>(t.size(), no_flags(t.front().ctx()))};
}

namespace {

// precise for a call that returns an entry: the value maps what the entry
// mapped (a non-present one reads back exactly), and each flag it reports
// of a present entry was pending on a page of that entry's folio, or came
// from an event of this call in that folio.
z3::expr precise_report(const sym_step& st, const sym_world& w, const ledger_state& at_begin)
{
	const auto& q = st.before;
	const z3::expr& first = q[st.c.index];
	const z3::expr& got = *st.result.pte;
	sym_flags allowed = no_flags(first.ctx());
	for (std::size_t p = 0; p < q.size(); p++) {
		const z3::expr here = pte_present(q[p]) && same_folio(w.folios, w.geo, first, q[p]);
		const sym_flags may = at_begin.pending[p] | at_begin.optional[p];
		allowed = allowed | sym_flags{here && may.y, here && may.d};
	}
	for (const sym_event& e : st.events) {
		const z3::expr here = e.fired && same_folio(w.folios, w.geo, first, q[e.entry]);
		allowed = allowed | sym_flags{here, here && e.write};
	}
	const z3::expr value = z3::ite(pte_present(first), pte_same_mapping(got, first), got == first);
	return value && z3::implies(pte_present(first), subset(own_flags(got), allowed));
}

// The permissions a word grants (model/permission.h): read by being valid;
// write by DBM or a clear RDONLY; user; user and privileged execution by a
// clear UXN, PXN.
struct sym_perms {
	z3::expr read, write, user, uexec, pexec;
};

sym_perms perms_of(const z3::expr& e)
{
	const z3::expr v = pte_valid(e);
	return {v, v && (pte_write(e) || !pte_rdonly(e)), v && pte_any(e, PTE_USER), v && !pte_any(e, PTE_UXN),
		v && !pte_any(e, PTE_PXN)};
}

// permission at a call's end: entry `after` grants nothing `asked` does not.
z3::expr grants_within(const z3::expr& after, const sym_perms& asked)
{
	const sym_perms a = perms_of(after);
	return z3::implies(a.read, asked.read) && z3::implies(a.write, asked.write) &&
	       z3::implies(a.user, asked.user) && z3::implies(a.uexec, asked.uexec) &&
	       z3::implies(a.pexec, asked.pexec);
}

// What call c asks entry p to grant at its end, as the checker's asks_after
// has it: what it granted before, but a mapping call installs its value's
// (pte_advance_pfn changes no permission), wrprotect_ptes takes write away
// in its range, and ptep_set_access_flags may add write when its value
// grants it.
sym_perms asked_of(const call& c, std::size_t p, const z3::expr& before, const std::optional<z3::expr>& value)
{
	const bool inside = p >= c.index && p < range_end(c);
	sym_perms was = perms_of(before);
	if (!inside)
		return was;
	if (semantics_of(c).maps && value)
		return perms_of(*value);
	if (c.kind == call_kind::wrprotect_ptes || c.kind == call_kind::huge_ptep_set_wrprotect)
		was.write = before.ctx().bool_val(false);
	if ((c.kind == call_kind::ptep_set_access_flags || c.kind == call_kind::huge_ptep_set_access_flags) && value)
		was.write = was.write || (was.read && perms_of(*value).write);
	return was;
}

// progress for ptep_set_access_flags(i, v, dirty): at its end entry i
// grants the access to a walker that reads it alone and manages no
// access/dirty state itself -- valid, AF set when v is young, and RDONLY
// clear (DBM alone is no grant to such a walker) when a write fault asks
// for a write (dirty, v writable and dirty): the checker's judge_progress.
z3::expr grants_the_access(const z3::expr& after, const z3::expr& v, bool write_fault)
{
	z3::expr ok = pte_valid(after) && z3::implies(pte_young(v), pte_young(after));
	if (write_fault)
		ok = ok && z3::implies(pte_write(v) && pte_dirty(v), pte_hw_dirty(after));
	return ok;
}

// (reportable) at a call's end: every flag a mapped page shows is one a
// report of it may carry.  Asked twice.  As precise, of the page's folio --
// what the checker judges a read of the page right after the call by: a
// flag some present page of the folio may report (pages with no folio
// counted as one folio, which asks less than the checker, so a refutation
// is always one it confirms).  And, as a part of the invariant, of the page
// itself: the next call's ledger is read off the table page by page, which
// speaks for the checker's only where each page's flags are its own to
// report.  A clean that consumes a flag and leaves it showing breaks both.
// The page's own claim implies its folio's; of_folio = false leaves the
// folio's out (it costs a proof of mainline more than half again; prove_step
// asks it only of a strategy that breaks the page's own).
void claim_reportable(const std::vector<z3::expr>& t, const sym_world& w, const call_ledger& led,
		      const std::vector<sym_flags>& visible, bool of_folio, std::vector<claim>& claims)
{
	z3::context& ctx = t.front().ctx();
	const std::size_t n = t.size();
	std::vector<sym_flags> may(n, no_flags(ctx));
	for (std::size_t p = 0; p < n; p++) {
		may[p] = led.pending_after[p] | led.optional_after[p];
		claims.push_back({property::precise, z3::implies(pte_present(t[p]), subset(visible[p], may[p])), {}, true});
	}
	if (!of_folio)
		return;
	// What the present pages of each folio may report, and those of no folio.
	std::vector<z3::expr> pfn, in_any;
	std::vector<std::vector<z3::expr>> in(w.folios.size());
	for (std::size_t p = 0; p < n; p++) {
		pfn.push_back(pte_pfn(t[p], w.geo));
		z3::expr any = ctx.bool_val(false);
		for (std::size_t f = 0; f < w.folios.size(); f++) {
			in[f].push_back(in_folio(w.folios[f], pfn[p]));
			any = any || in[f][p];
		}
		in_any.push_back(any);
	}
	auto folio_may = [&](const std::function<z3::expr(std::size_t)>& member) {
		sym_flags f = no_flags(ctx);
		for (std::size_t q = 0; q < n; q++) {
			const z3::expr here = pte_present(t[q]) && member(q);
			f = f | sym_flags{here && may[q].y, here && may[q].d};
		}
		return f;
	};
	std::vector<sym_flags> by_folio;
	for (std::size_t f = 0; f < w.folios.size(); f++)
		by_folio.push_back(folio_may([&](std::size_t q) { return in[f][q]; }));
	const sym_flags of_none = folio_may([&](std::size_t q) { return !in_any[q]; });
	for (std::size_t p = 0; p < n; p++) {
		sym_flags allowed{!in_any[p] && of_none.y, !in_any[p] && of_none.d};
		for (std::size_t f = 0; f < w.folios.size(); f++)
			allowed = allowed | sym_flags{in[f][p] && by_folio[f].y, in[f][p] && by_folio[f].d};
		claims.push_back({property::precise, z3::implies(pte_present(t[p]), subset(visible[p], allowed)),
				  {call{call_kind::ptep_get, p}}});
	}
}

} // namespace

ledger_state call_claims(const sym_step& st, const sym_world& w, const ledger_state& at_begin, bool invariant,
			 std::vector<claim>& claims, bool reportable_of_folio)
{
	const geometry& geo = w.geo;
	const call& c = st.c;
	const call_semantics sem = semantics_of(c);
	const auto& q = st.before;
	const auto& t = st.after;
	z3::context& ctx = q.front().ctx();
	const std::size_t end = range_end(c);
	auto inside = [&](std::size_t p) { return p >= c.index && p < end; };

	z3::expr same = ctx.bool_val(true);
	for (std::size_t p = 0; p < t.size(); p++)
		if (!inside(p))
			same = same &&
			       z3::ite(pte_present(q[p]), pte_present(t[p]) && pte_same_mapping(q[p], t[p]), q[p] == t[p]);
	claims.push_back({property::isolation, same, {}});
	if (st.stores_well_formed)
		claims.push_back({property::well_formed, *st.stores_well_formed, {}});
	const std::optional<z3::expr> value = w.argument(st.ordinal);
	z3::expr granted = ctx.bool_val(true);
	for (std::size_t p = 0; p < t.size(); p++)
		granted = granted && grants_within(t[p], asked_of(c, p, q[p], value));
	claims.push_back({property::permission, granted, {}});
	if ((c.kind == call_kind::ptep_set_access_flags || c.kind == call_kind::huge_ptep_set_access_flags) && value)
		claims.push_back({property::progress, grants_the_access(t[c.index], *value, c.flags != 0), {}});

	const sym_flags rf = reported_flags(st.result, q[c.index]);
	const call_ledger led = settle_call(
		c, geo, q, t, at_begin.pending, rf, st.events,
		[&w](const z3::expr& a, const z3::expr& b) { return same_folio(w.folios, w.geo, a, b); }, value,
		&at_begin.optional);
	claims.push_back({property::no_loss, led.no_loss, {}});
	if (sem.reports)
		claims.push_back({property::per_call, led.per_call, {}});
	if (sem.reports && st.result.pte)
		claims.push_back({property::precise, precise_report(st, w, at_begin), {}});
	// A hugetlb call that takes a hugepage out leaves every entry of it
	// none (the checker's judge_hugepage_cleared).
	if (is_hugetlb_call(c.kind) && sem.unmaps) {
		z3::expr cleared = ctx.bool_val(true);
		for (std::size_t p = c.index; p < end; p++)
			cleared = cleared && t[p] == ctx.bv_val(0, 64);
		claims.push_back({property::mapping, cleared, {}});
	}
	if (sem.batch) {
		z3::expr took = ctx.bool_val(true);
		sym_flags acc = no_flags(ctx);
		// A batch's entries are present (caller_rules); a hugepage's
		// may be none or non-present, and only the present ones count, as
		// the checker judges it.
		const bool huge = is_hugetlb_call(c.kind);
		for (std::size_t p = c.index; p < end; p++) {
			const z3::expr cleared = !pte_present(t[p]) && pte_present(st.taken[p]);
			const sym_flags own = own_flags(st.taken[p]);
			if (!huge) {
				took = took && cleared;
				acc = acc | own;
				continue;
			}
			const z3::expr was = pte_present(q[p]);
			took = took && z3::implies(was, cleared);
			acc = acc | sym_flags{was && own.y, was && own.d};
		}
		claims.push_back({property::batch_or, took && flags_equal(rf, acc), {}});
	}

	// The invariant after the call: each run well formed and in one folio,
	// and every pending flag of a mapped page visible to its reference read
	// (a read of the page is the witness that shows a flag gone).
	for (std::size_t first = 0; first < t.size(); first += geo.cont_ptes) {
		claims.push_back({property::well_formed, run_well_formed(t, geo, first), {}});
		if (invariant) {
			// A hugetlb call leaves every hugepage as the callers expect
			// the next one to find it (hugetlb_rules): the hugetlb part of
			// the invariant.
			if (is_hugetlb_call(c.kind))
				claims.push_back({property::well_formed,
						  hugepage_as_left(t, first, geo.cont_ptes, w.folios, geo), {}, true});
			claims.push_back({property::well_formed, run_whole(t, geo, first), {}, true});
			claims.push_back({property::well_formed, run_writable_by_dbm(t, geo, first), {}, true});
			claims.push_back({property::well_formed, run_prot_none_block(t, geo, first, w.folios), {}, true});
		}
		// (folio) is the invariant's: a run over two folios is no
		// failure until a flag of one shows on the other's pages, which
		// (reportable) asks.
		if (invariant)
			claims.push_back({property::precise, run_in_one_folio(t, geo, first, w.folios), {}, true});
	}
	const std::vector<sym_flags> visible = ref_flags(t, geo);
	for (std::size_t p = 0; p < t.size(); p++)
		claims.push_back({property::per_call,
				  z3::implies(pte_present(t[p]), subset(led.pending_after[p], visible[p])),
				  {call{call_kind::ptep_get, p}}});
	if (invariant)
		claim_reportable(t, w, led, visible, reportable_of_folio, claims);
	return {led.pending_after, led.optional_after};
}

} // namespace ptespec::proofs
