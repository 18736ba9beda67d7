// `ptespec --kernel DIR`: what a user sees -- the test tree judged holding
// everything, a tree's own WARN and its out-of-range access as failing
// verdicts naming what happened, and every error path one line, exit 2.

#include <stdlib.h>

#include <algorithm>
#include <regex>

#include <gtest/gtest.h>

#include "tests/cli/run.h"
#include "tests/kernel/cli_env.h"
#include "tests/kernel/tree_util.h"

namespace ptespec {
namespace {

using namespace cli_test;
using namespace kernel_test;

TEST(kernel_cli, the_test_tree_holds_everything_sampled_and_says_no_proof_was_attempted)
{
	// Every granule, core-mm's callers: the kernel sweep on a tree is
	// check_with_mprotect_...'s.
	const outcome o = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "check", "--strategy", tree_name, "--granule",
				       "all", "--cases", "400", "--sweep", "core"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("cells: 30 passed, 0 failed, 0 undecided"), std::string::npos) << o.show();
	EXPECT_EQ(o.out.find("proved  "), std::string::npos) << o.show();
	// Each cell says it was only sampled, not the legend alone, and the
	// header does not promise proofs that were never run.
	EXPECT_NE(o.out.find("(sampled)"), std::string::npos) << o.show();
	std::size_t rows = 0;
	for (std::size_t at = o.out.find("\n" + tree_name); at != std::string::npos;
	     at = o.out.find("\n" + tree_name, at + 1)) {
		const std::string row = o.out.substr(at + 1, o.out.find('\n', at + 1) - at - 1);
		rows++;
		std::size_t bare = 0, sampled = 0;
		for (std::size_t h = row.find("holds"); h != std::string::npos; h = row.find("holds", h + 1))
			(row.compare(h, 15, "holds (sampled)") == 0 ? sampled : bare)++;
		EXPECT_EQ(bare, 0u) << row;
		EXPECT_EQ(sampled, 10u) << row;
	}
	EXPECT_EQ(rows, 3u) << o.show();
	EXPECT_NE(o.out.find("proofs: none"), std::string::npos) << o.show();
	EXPECT_EQ(o.out.find("any number of hardware events"), std::string::npos) << o.show();
}

// The tree asks system_supports_bbml2_noabort() and skips contpte_convert's
// flush, as mainline does: judged by the BBML2 rule it holds as well, over
// core-mm's everyday callers (the kernel sweep finds the young widening the
// tree shares with mainline: check_with_mprotect_... below).
TEST(kernel_cli, the_test_tree_holds_everything_under_bbml2)
{
	const outcome o = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "check", "--strategy", tree_name, "--cases", "400",
				       "--hardware", "bbml2", "--sweep", "core"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("hardware bbml2"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("cells: 10 passed, 0 failed, 0 undecided"), std::string::npos) << o.show();
}

TEST(kernel_cli, list_names_the_tree_and_where_its_functions_come_from)
{
	const outcome o = run_ptespec({"--kernel", "mine=" + std::string(PTESPEC_TEST_TREE), "list", "--functions"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("mine"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("contpte_try_fold"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("ptep_get_and_clear_full"), std::string::npos) << o.show();
}

// An if-converted value is computed where C would not compute it: one that
// reads the table would change what the machine sees (here, at entry 0,
// read outside the table), so the path ends undecided (exit 4) before the
// read, instead of being judged.
TEST(kernel_cli, an_if_converted_value_that_reads_the_table_leaves_the_proof_undecided)
{
	const fs::path t = copy_tree("select-reads");
	edit(t, "arch/arm64/mm/contpte.c", "\tif (young)\n\t\torig_pte = pte_mkyoung(orig_pte);",
	     "\tif (young)\n\t\torig_pte = pte_mkyoung(__ptep_get(ptep - 1));");
	const outcome o = run_ptespec({"--kernel", "select-reads=" + t.string(), "prove", "--strategy", "select-reads",
				       "--granule", "4k", "--obligation", "exit/batch"});
	EXPECT_EQ(o.status, 4) << o.show();
	EXPECT_NE(o.out.find("inside a value the symbolic build computes on both sides"), std::string::npos) << o.show();
}

// Valid C that is no C++ (a variable named `class`): the tree is judged by
// sampling, and prove says why it was not proved.
TEST(kernel_cli, a_tree_the_symbolic_build_cannot_compile_is_not_proved_and_says_why)
{
	const fs::path t = copy_tree("not-cxx");
	edit(t, "arch/arm64/mm/contpte.c", "\tbool young = false, dirty = false;",
	     "\tint class = 0;\n\tbool young = class, dirty = false;");
	EXPECT_EQ(run_ptespec({"--kernel", "not-cxx=" + t.string(), "list"}).status, 0);
	const outcome o = run_ptespec({"--kernel", "not-cxx=" + t.string(), "prove", "--strategy", "not-cxx", "--granule",
				       "4k"});
	EXPECT_EQ(o.status, 4) << o.show();
	EXPECT_NE(o.out.find("not-cxx          not proved: --kernel"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("arch/arm64/mm/contpte.c:"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("(in the symbolic build, which compiles the tree as C++ for the proofs)"), std::string::npos)
		<< o.show();
}

// Two shapes of real pgtable.h files that mix a pte word with a plain
// integer: `cond ? PTE_NG : 0` (PTE_MAYBE_NG) and a pmd value updated by a
// pte constant.  C takes both; the symbolic build must too, or the tree is
// not proved at all.
TEST(kernel_cli, a_word_beside_a_plain_integer_in_the_trees_headers_still_proves)
{
	const fs::path t = copy_tree("mixed");
	edit(t, "arch/arm64/include/asm/pgtable.h",
	     "extern int __ptep_set_access_flags(struct vm_area_struct *vma,",
	     "static inline bool mixed_use_ng(void)\n{\n\treturn true;\n}\n"
	     "#define PTE_MAYBE_NG\t(mixed_use_ng() ? PTE_NG : 0)\n"
	     "static inline pmd_t mixed_pmd_mkng(pmd_t pmd)\n{\n\tpmd_val(pmd) |= PTE_MAYBE_NG;\n"
	     "\tpmd_val(pmd) &= ~PTE_CONT;\n\treturn pmd;\n}\n\n"
	     "extern int __ptep_set_access_flags(struct vm_area_struct *vma,");
	const outcome o = run_ptespec({"--kernel", "mixed=" + t.string(), "prove", "--strategy", "mixed", "--granule", "4k",
				       "--obligation", "exit/batch-cont16"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("exit/batch-cont16"), std::string::npos) << o.show();
	EXPECT_EQ(o.out.find("not proved"), std::string::npos) << o.show();
}

// check --mprotect samples the callers that change protections too
// (mprotect, NUMA balancing, guard pages): the tree, like the template
// mainline, repaints a whole unfolded run with CONT in
// modify_prot_commit_ptes while the TLB may still hold its page
// translations (mprotect flushes only after the commit): well-formed; and
// its young clears widen from a PROT_NONE CONT entry over the run's hole
// (the young widening of docs/findings.md, which the tree's contpte.c
// shares): isolation, and here no-loss and per-call as well (a young entry
// in the hole loses its AF to the widened call); and its set_ptes strips
// bit 52 from a young migration entry (4K pages, 52-bit physical
// addresses): mapping.  Every counterexample's reproduce line carries the
// flag.
TEST(kernel_cli, check_with_mprotect_finds_the_repaint_before_the_flush)
{
	const outcome o = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "check", "--strategy", tree_name, "--granule", "4k",
				       "--cases", "3000", "--seed", "8", "--mprotect"});
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("seed 8, with mprotect"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("cells: 5 passed, 5 failed, 0 undecided"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("bit 52 lost"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("fails well-formed"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("modify_prot_commit_ptes"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("fails isolation"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("outside its range"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find(" --mprotect\n"), std::string::npos) << o.show();
}

// A copy of the test tree with one edit in `file`, judged by `test` on one
// property under the name `what`.
// Whose TLB maintenance the tree is compiled with: its own tlbflush.h, or,
// with the header taken out of the copy, the shim's flush API.
enum class tlbflush { own, shim };

outcome test_edited_tree(const std::string& what, const std::string& file, const std::string& from,
			 const std::string& to, const std::string& prop, tlbflush flush = tlbflush::own,
			 const std::string& sweep = "core", const std::string& granule = "4k")
{
	const fs::path t = copy_tree(what + (flush == tlbflush::shim ? "-shim" : ""));
	if (flush == tlbflush::shim)
		fs::remove(t / "arch/arm64/include/asm/tlbflush.h");
	edit(t, file, from, to);
	// Core-mm's callers are enough for each contpte edit, and half the time.
	return run_ptespec({"--kernel", what + "=" + t.string(), "test", "--strategy", what, "--property", prop, "--sweep",
			    sweep, "--granule", granule});
}

// A control only the WARN path catches: set_ptes hands a single page to
// contpte_set_ptes, whose VM_WARN_ON(nr == 1) fires.  Nothing else is
// wrong: the pages are mapped as they should be.
TEST(kernel_cli, a_warn_that_fires_fails_well_formed_naming_the_file_and_line)
{
	const outcome o = test_edited_tree(
		"warn", "arch/arm64/include/asm/pgtable.h",
		"if (likely(nr == 1)) {\n\t\tcontpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));\n\t\t__set_ptes",
		"if (0) {\n\t\tcontpte_try_unfold(mm, addr, ptep, __ptep_get(ptep));\n\t\t__set_ptes", "well-formed");
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("arch/arm64/mm/contpte.c:"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("WARN_ON(nr == 1) fired"), std::string::npos) << o.show();
}

// A batch loop that runs one entry too far reaches past its range, and
// at the table's end past the table: isolation, never an internal error.
TEST(kernel_cli, a_loop_one_past_its_range_fails_isolation)
{
	const outcome o = test_edited_tree("past", "arch/arm64/include/asm/pgtable.h",
					   "\t\t__ptep_get_and_clear(mm, addr, ptep);\n\t\tif (--nr == 0)",
					   "\t\t__ptep_get_and_clear(mm, addr, ptep);\n\t\tif (nr-- == 0)", "isolation");
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("fails"), std::string::npos) << o.show();
	EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.show();
}

// contpte_convert's invalidation with one TLBI per run (stride
// CONT_PTE_SIZE), on a tree without its own tlbflush.h: the shim passes
// the stride on, and a fold leaves the old page translations of the run
// cached while it repaints with CONT.
TEST(kernel_cli, a_convert_flushing_one_page_per_run_fails_well_formed_naming_the_stride)
{
	const outcome o = test_edited_tree("stride", "arch/arm64/mm/contpte.c",
					   "__flush_tlb_range(&vma, start_addr, addr, PAGE_SIZE, 3, TLBF_NOWALKCACHE);",
					   "__flush_tlb_range(&vma, start_addr, addr, CONT_PTE_SIZE, 3, TLBF_NOWALKCACHE);",
					   "well-formed", tlbflush::shim);
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("break-before-make"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find(" stride 16"), std::string::npos) << o.show();
}

// The tree's own tlbflush.h is compiled and its TLBIs judged: the 2026 API
// takes (stride, tlb_level, flags), so a flush written in the older order
// (stride, last_level, tlb_level) asks for level 1 (true) and flags 3 --
// leaf only and *no DSB*: the invalidation never completes before the
// repaint.  The shim's flush API, which takes both orders, judges the same
// edit correct; only the tree's own header shows what it means.
TEST(kernel_cli, a_flush_in_the_old_argument_order_fails_well_formed_only_through_the_trees_own_header)
{
	const char* from = "__flush_tlb_range(&vma, start_addr, addr, PAGE_SIZE, 3, TLBF_NOWALKCACHE);";
	const char* to = "__flush_tlb_range(&vma, start_addr, addr, PAGE_SIZE, true, 3);";
	const outcome own = test_edited_tree("order", "arch/arm64/mm/contpte.c", from, to, "well-formed");
	EXPECT_EQ(own.status, 1) << own.show();
	EXPECT_NE(own.out.find("changed CONT between valid values without break-before-make"), std::string::npos)
		<< own.show();
	const outcome shim = test_edited_tree("order", "arch/arm64/mm/contpte.c", from, to, "well-formed", tlbflush::shim);
	EXPECT_EQ(shim.status, 0) << shim.show();
}

// A page count where the tree's helper expects an end address: the
// helper rounds the end up to a page and invalidates the run's first page
// only; the fold repaints the second while some CPU may hold it unfolded.
// Which run folds first depends on the seed; the entry is always the
// second of its run (at 4K, 16 to a run).
TEST(kernel_cli, a_page_count_passed_as_the_end_fails_well_formed)
{
	const outcome o = test_edited_tree("count", "arch/arm64/mm/contpte.c",
					   "__flush_tlb_range(&vma, start_addr, addr, PAGE_SIZE, 3, TLBF_NOWALKCACHE);",
					   "__flush_tlb_range(&vma, start_addr, start_addr + CONT_PTES, PAGE_SIZE, 3, "
					   "TLBF_NOWALKCACHE);",
					   "well-formed");
	EXPECT_EQ(o.status, 1) << o.show();
	const std::regex violation(R"(#(\d+) changed CONT between valid values)");
	std::smatch m;
	ASSERT_TRUE(std::regex_search(o.out, m, violation)) << o.show();
	EXPECT_EQ(std::stoul(m[1].str()) % 16, 1u) << o.show();
}

// The tree's helpers themselves are judged: a range flush that leaves out
// its closing DSB breaks every break-before-make that relies on it.
TEST(kernel_cli, a_tlbflush_h_whose_range_flush_skips_its_dsb_fails_well_formed)
{
	const outcome o = test_edited_tree("nodsb", "arch/arm64/include/asm/tlbflush.h",
					   "\t\tif (local)\n\t\t\tdsb(nsh);\n\t\telse\n\t\t\tdsb(ish);",
					   "\t\tif (local)\n\t\t\tdsb(nsh);", "well-formed");
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("break-before-make"), std::string::npos) << o.show();
}

// The tree's arch/arm64/mm/hugetlbpage.c is compiled and its calls are the
// strategy's hugetlb calls: the test tree's hold over the hugetlb callers
// at every granule, and list says where they come from.
TEST(kernel_cli, the_test_trees_hugetlb_calls_hold_the_hugetlb_sweep_at_every_granule)
{
	const outcome o = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "test", "--strategy", tree_name, "--granule", "all",
				       "--cases", "400", "--sweep", "hugetlb"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("27 passed, 0 failed, 0 undecided (3 n/a)"), std::string::npos) << o.show();
	const outcome l = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "list", "--functions"});
	EXPECT_NE(l.out.find("tree (its hugetlbpage.c)"), std::string::npos) << l.show();
}

// The tree's huge_ptep_get_and_clear as arm64 had it before 2025: the run
// sized from CONT in entry 0, which a non-present value does not carry.
// mremap of a migrating or uffd-wp-marked hugepage clears entry 0 alone
// and leaves the other entries behind; core-mm's callers never reach it.
TEST(kernel_cli, a_huge_get_and_clear_sized_from_cont_fails_mapping_through_the_hugetlb_callers)
{
	const char* from = "return take_out(mm, addr, ptep, n, pgsize);";
	const char* to = "return take_out(mm, addr, ptep, pte_cont(__ptep_get(ptep)) ? CONT_PTES : 1, pgsize);";
	const outcome o =
		test_edited_tree("hsize", "arch/arm64/mm/hugetlbpage.c", from, to, "mapping", tlbflush::own, "hugetlb");
	EXPECT_EQ(o.status, 1) << o.show();
	// A migration entry or a uffd-wp marker, as the seed draws.
	EXPECT_NE(o.out.find("(non-present: "), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("entries should all be none after it"), std::string::npos) << o.show();
	const outcome core = test_edited_tree("hsize", "arch/arm64/mm/hugetlbpage.c", from, to, "mapping");
	EXPECT_EQ(core.status, 0) << core.show();
	// At the default sweeps it is the third sweep's failure, and the
	// reproduce line (the hugetlb sweep with its own cases) fails again --
	// with 64K pages, where the tree's set_ptes keeps a migration entry's
	// bit 52 (at 4K the kernel sweep fails mapping first: findings.md, 2).
	const outcome all =
		test_edited_tree("hsize", "arch/arm64/mm/hugetlbpage.c", from, to, "mapping", tlbflush::own, "all", "64k");
	EXPECT_EQ(all.status, 1) << all.show();
	EXPECT_NE(all.out.find("  sweep: hugetlb (the hugetlb callers over hugepages)"), std::string::npos) << all.show();
	EXPECT_NE(all.out.find("--sweep hugetlb"), std::string::npos) << all.show();
	const outcome again = run_reproduce_line(all.out);
	EXPECT_EQ(again.status, 1) << again.show();
}

// The tree's flush_hugetlb_tlb_range (its asm/hugetlb.h) naming level 0,
// as arm64's did before its 2025 fix: hugetlb's mprotect writes each
// hugepage back without a break and relies on that flush, so with 4K pages
// the old translations stay cached.  Through the shim's flush API (a TLBI
// per page, as a CPU without range invalidation issues them) it fails; the
// tree's own tlbflush.h on the model's CPU, which has FEAT_TLBIRANGE,
// issues range TLBIs, whose TTL has no level 0: they invalidate.
TEST(kernel_cli, a_hugetlb_range_flush_at_level_0_fails_well_formed_where_tlbis_go_page_by_page)
{
	const char* from = "__flush_tlb_range(vma, start, end, PAGE_SIZE, 3, TLBF_NONE);";
	const char* to = "__flush_tlb_range(vma, start, end, PAGE_SIZE, 0, TLBF_NONE);";
	const outcome shim =
		test_edited_tree("hlevel", "arch/arm64/include/asm/hugetlb.h", from, to, "well-formed", tlbflush::shim, "hugetlb");
	EXPECT_EQ(shim.status, 1) << shim.show();
	EXPECT_NE(shim.out.find("flush_hugetlb_tlb_range(#"), std::string::npos) << shim.show();
	EXPECT_NE(unwrapped(shim.out).find("in some CPU's TLB"), std::string::npos) << shim.show();
	EXPECT_NE(unwrapped(shim.out).find("level 0 issued no TLBI for it"), std::string::npos) << shim.show();
	const outcome own =
		test_edited_tree("hlevel", "arch/arm64/include/asm/hugetlb.h", from, to, "well-formed", tlbflush::own, "hugetlb");
	EXPECT_EQ(own.status, 0) << own.show();
}

// A CONT_PMD hugepage's blocks sit at level 2.  The tree's range flush
// naming a pte's level for them leaves them cached after hugetlb's
// mprotect, through its own TLBIs (page by page or by range: the TTL names
// level 3 either way); the counterexample's world is a pmd table.
TEST(kernel_cli, a_cont_pmd_range_flush_at_a_ptes_level_fails_well_formed_in_a_pmd_table)
{
	const outcome o = test_edited_tree("hpmd", "arch/arm64/include/asm/hugetlb.h",
					   "__flush_tlb_range(vma, start, end, PMD_SIZE, 2, TLBF_NONE);",
					   "__flush_tlb_range(vma, start, end, PMD_SIZE, 3, TLBF_NONE);", "well-formed",
					   tlbflush::own, "hugetlb");
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(unwrapped(o.out).find("a pmd table of 3 CONT_PMD hugepages"), std::string::npos) << o.show();
	EXPECT_NE(unwrapped(o.out).find("in some CPU's TLB"), std::string::npos) << o.show();
	EXPECT_NE(unwrapped(o.out).find("level 3 issued no TLBI for it"), std::string::npos) << o.show();
}

// The tree's own pte_batch_hint feeds core-mm's batching: one that
// forgets the entry's place in its run vouches for entries past the run.
TEST(kernel_cli, a_batch_hint_counting_from_the_run_start_fails_per_call)
{
	const outcome o = test_edited_tree("hint", "arch/arm64/include/asm/pgtable.h",
					   "return pte_valid_cont(pte) ? CONT_PTES - slot : 1;",
					   "return pte_valid_cont(pte) ? CONT_PTES : 1;", "per-call");
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_NE(o.out.find("pte_batch_hint(#"), std::string::npos) << o.show();
	// The reproduce line names the tree with --kernel NAME=DIR and runs as
	// printed.
	EXPECT_NE(o.out.find("reproduce: ptespec --kernel hint="), std::string::npos) << o.show();
	const outcome again = run_reproduce_line(o.out);
	EXPECT_EQ(again.status, 1) << again.show();
	EXPECT_NE(again.out.find("pte_batch_hint(#"), std::string::npos) << again.show();
}

// The mm tree's pgtable.h of 2026 wraps __ptep_set_access_flags around
// fault.c's sized form; the adapter then provides that form, and the
// wrapper is the tree's own.  Before, such a tree was refused as a
// redefinition.
TEST(kernel_cli, a_tree_that_wraps_set_access_flags_around_the_sized_form_is_taken)
{
	const outcome o = test_edited_tree("anysz", "arch/arm64/include/asm/pgtable.h",
					   "extern int __ptep_set_access_flags(struct vm_area_struct *vma,\n"
					   "\t\t\t\t   unsigned long address, pte_t *ptep,\n"
					   "\t\t\t\t   pte_t entry, int dirty);\n",
					   "extern int __ptep_set_access_flags_anysz(struct vm_area_struct *vma,\n"
					   "\t\t\t\t   unsigned long address, pte_t *ptep,\n"
					   "\t\t\t\t   pte_t entry, int dirty, unsigned long pgsize);\n"
					   "static inline int __ptep_set_access_flags(struct vm_area_struct *vma,\n"
					   "\t\t\t\t   unsigned long address, pte_t *ptep,\n"
					   "\t\t\t\t   pte_t entry, int dirty)\n"
					   "{\n\treturn __ptep_set_access_flags_anysz(vma, address, ptep, entry, dirty, PAGE_SIZE);\n}\n",
					   "progress");
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("1 passed, 0 failed"), std::string::npos) << o.show();
}

TEST(kernel_cli, a_directory_that_is_not_there)
{
	expect_one_line_usage_error(run_ptespec({"--kernel", "/nonexistent/linux", "list"}), "not a directory");
}

TEST(kernel_cli, a_tree_without_contpte_c)
{
	const fs::path t = copy_tree("no-contpte");
	fs::remove(t / "arch/arm64/mm/contpte.c");
	expect_one_line_usage_error(run_ptespec({"--kernel", t.string(), "list"}), "arch/arm64/mm/contpte.c is missing");
}

TEST(kernel_cli, a_hugetlbpage_c_without_its_header_is_refused)
{
	const fs::path t = copy_tree("nohugeh");
	fs::remove(t / "arch/arm64/include/asm/hugetlb.h");
	const outcome o = run_ptespec({"--kernel", t.string(), "list"});
	EXPECT_EQ(o.status, 2) << o.show();
	EXPECT_NE(o.err.find("arch/arm64/mm/hugetlbpage.c is there but arch/arm64/include/asm/hugetlb.h is missing"),
		  std::string::npos)
		<< o.show();
	EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.show();
}

TEST(kernel_cli, a_tree_that_does_not_compile_shows_the_first_error_with_file_and_line)
{
	const fs::path t = copy_tree("syntax");
	edit(t, "arch/arm64/mm/contpte.c", "bool young = false;", "bool young = false false;");
	expect_one_line_usage_error(run_ptespec({"--kernel", t.string(), "list"}),
				    "does not compile against ptespec's shims: arch/arm64/mm/contpte.c:");
}

TEST(kernel_cli, a_symbol_the_shims_lack_is_named_with_the_line_that_uses_it)
{
	const fs::path t = copy_tree("symbol");
	edit(t, "arch/arm64/mm/contpte.c", "\tif (young) {\n", "\tif (young && !system_supports_tlb_range_frobbing()) {\n");
	const outcome o = run_ptespec({"--kernel", t.string(), "list"});
	expect_one_line_usage_error(o, "arch/arm64/mm/contpte.c:");
	EXPECT_NE(o.err.find("uses 'system_supports_tlb_range_frobbing', which neither the tree's own headers nor "
			     "ptespec's shims define"),
		  std::string::npos)
		<< o.show();
}

// As in a tree whose contpte.c and pgtable.h come from different commits.
TEST(kernel_cli, a_prototype_the_tree_contradicts_names_both_declarations)
{
	const fs::path t = copy_tree("conflict");
	edit(t, "arch/arm64/mm/contpte.c", "bool contpte_test_and_clear_young_ptes(struct vm_area_struct *vma,",
	     "int contpte_test_and_clear_young_ptes(struct vm_area_struct *vma,");
	const outcome o = run_ptespec({"--kernel", t.string(), "list"});
	expect_one_line_usage_error(o, "conflicting types for");
	EXPECT_NE(o.err.find("(the other declaration: arch/arm64/include/asm/pgtable.h:"), std::string::npos) << o.show();
}

TEST(kernel_cli, a_header_the_shims_lack_is_named)
{
	const fs::path t = copy_tree("header");
	edit(t, "arch/arm64/mm/contpte.c", "#include <linux/efi.h>", "#include <linux/efi.h>\n#include <linux/hugetlb_frob.h>");
	expect_one_line_usage_error(run_ptespec({"--kernel", t.string(), "list"}),
				    "includes a header ptespec's shims do not provide");
}

TEST(kernel_cli, a_tree_with_another_bit_layout_is_refused)
{
	const fs::path t = copy_tree("bits");
	edit(t, "arch/arm64/include/asm/pgtable-hwdef.h", "(_AT(pteval_t, 1) << 52)", "(_AT(pteval_t, 1) << 50)");
	expect_one_line_usage_error(run_ptespec({"--kernel", t.string(), "list"}), "defines PTE_CONT as 0x4000000000000");
}

TEST(kernel_cli, no_c_compiler_is_said_so)
{
	const char* path = getenv("PATH");
	const std::string saved = path ? path : "";
	setenv("PATH", "/nonexistent", 1);
	// CC unset: a CC that names nothing is refused as such (bad_input_test).
	const char* cc = getenv("CC");
	const std::string saved_cc = cc ? cc : "";
	unsetenv("CC");
	const fs::path t = copy_tree("no-cc");	// a fresh tree: its modules are not cached
	edit(t, "arch/arm64/mm/contpte.c", "bool young = false;", "bool young = false; /* no compiler */");
	const outcome o = run_ptespec({"--kernel", t.string(), "list"});
	setenv("PATH", saved.c_str(), 1);
	if (cc)
		setenv("CC", saved_cc.c_str(), 1);
	expect_one_line_usage_error(o, "no C compiler found");
}

TEST(kernel_cli, bad_arguments_are_one_line_each)
{
	expect_one_line_usage_error(run_ptespec({"--kernel", "=" + std::string(PTESPEC_TEST_TREE), "list"}),
				    "expected NAME=DIR with a name before '='");
	expect_one_line_usage_error(run_ptespec({"--kernel", "a b=" + std::string(PTESPEC_TEST_TREE), "list"}),
				    "the name may hold letters, digits");
	expect_one_line_usage_error(run_ptespec({"list", "--kernel", PTESPEC_TEST_TREE}),
				    "--kernel goes before the command");
	expect_one_line_usage_error(
		run_ptespec({"--kernel", PTESPEC_TEST_TREE, "--kernel", PTESPEC_TEST_TREE, "list"}),
		"already registered");
	expect_one_line_usage_error(run_ptespec({"--kernel", "mainline=" + std::string(PTESPEC_TEST_TREE), "list"}),
				    "already registered");
}

} // namespace
} // namespace ptespec
