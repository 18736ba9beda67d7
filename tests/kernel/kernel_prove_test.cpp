// `ptespec --kernel DIR prove`: a kernel tree's own C proved by the
// symbolic build (the tree compiled a second time, as C++ with the proofs'
// words).  Its own binary, in the unsanitized tier: the time goes into Z3.

#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/run.h"
#include "tests/kernel/cli_env.h"
#include "tests/kernel/tree_util.h"

namespace ptespec {
namespace {

using namespace cli_test;
using namespace kernel_test;

// The symbolic build: the tree's own sources compiled a second time, as
// C++ with the proofs' words, and proved.  Per obligation: `a`'s verdict
// and path count beside `b`'s, and whether each refutation replayed.
struct proved_pair {
	std::string a_verdict, b_verdict;
	long a_paths = -1, b_paths = -1;
	bool replays_confirmed = true;
};
std::map<std::string, proved_pair> prove_both(const std::string& kernel_arg, const std::string& a, const std::string& b,
					      int* status)
{
	const outcome o = run_ptespec({"--kernel", kernel_arg, "prove", "--strategy", a, "--strategy", b, "--granule", "4k",
				       "--json"});
	*status = o.status;
	std::map<std::string, proved_pair> out;
	const nlohmann::json j = nlohmann::json::parse(o.out);
	for (const nlohmann::json& r : j.at("results")) {
		const std::string who = r.at("strategy").get<std::string>();
		if (who != a && who != b)
			continue;
		proved_pair& p = out[r.at("obligation").get<std::string>()];
		(who == a ? p.a_verdict : p.b_verdict) = r.at("verdict").get<std::string>();
		(who == a ? p.a_paths : p.b_paths) = r.at("paths").get<long>();
		if (r.at("verdict") == "refuted")
			p.replays_confirmed = p.replays_confirmed && r.at("replay").dump().find("confirmed") != std::string::npos;
	}
	return out;
}

// Every default obligation of the template mainline, proved on the C
// mainline's own code with the same number of paths: the symbolic build
// takes the decisions the template takes (flag tests if-converted, pfns
// concrete), no more.
TEST(kernel_cli, prove_proves_the_trees_own_code_path_for_path_as_the_template_mainline)
{
	int status = -1;
	const auto both = prove_both(PTESPEC_TEST_TREE, tree_name, "mainline", &status);
	EXPECT_EQ(status, 0);
	EXPECT_GE(both.size(), 6u);
	for (const auto& [ob, p] : both) {
		EXPECT_EQ(p.a_verdict, "proved") << ob;
		EXPECT_EQ(p.b_verdict, "proved") << ob;
		EXPECT_EQ(p.a_paths, p.b_paths) << ob;
	}
}

// A tree's cmpxchg retry loops run as one atomic update each
// (kernel/rmw_loop.h), so a young clear over a run of 16 entries is a few
// paths, not one per way each loop may retry: step/ of the young clear ends
// on the tree's own C at the default budgets.  The test tree's helper
// returns bool, as the mm tree's does (an int answer is decided per entry,
// its own multiplier).  Its wrappers size the run from PTE_CONT alone, as
// the mm tree's batched young calls do: refuted, and the refutation
// replays on the C build; read through pte_valid_cont, proved.
TEST(kernel_cli, step_of_the_young_clear_ends_on_the_trees_own_retry_loops)
{
	auto young_tree = [](const std::string& what) {
		const fs::path t = copy_tree(what);
		edit(t, "arch/arm64/include/asm/pgtable.h", "static inline int __ptep_test_and_clear_young(",
		     "static inline bool __ptep_test_and_clear_young(");
		return t;
	};
	auto prove = [](const fs::path& t, const std::string& name) {
		return run_ptespec({"--kernel", name + "=" + t.string(), "prove", "--strategy", name, "--granule", "4k",
				    "--obligation", "step/ptep_test_and_clear_young"});
	};
	const outcome wide = prove(young_tree("young-cont"), "young-cont");
	EXPECT_EQ(wide.status, 1) << wide.show();
	EXPECT_NE(wide.out.find("step/ptep_test_and_clear_young-cont16        4k    refuted"), std::string::npos)
		<< wide.show();
	EXPECT_NE(wide.out.find("replay: confirmed"), std::string::npos) << wide.show();

	const fs::path fixed = young_tree("young-valid-cont");
	edit(fixed, "arch/arm64/include/asm/pgtable.h",
	     "\tif (likely(nr == 1 && !pte_cont(__ptep_get(ptep))))\n\t\treturn __ptep_test_and_clear_young(",
	     "\tpte_t first = __ptep_get(ptep);\n\n\tif (likely(nr == 1 && !pte_valid_cont(first)))\n\t\treturn "
	     "__ptep_test_and_clear_young(");
	edit(fixed, "arch/arm64/mm/contpte.c",
	     "\tif (pte_cont(__ptep_get(ptep + nr - 1)))\n\t\t*end = ALIGN(*end, CONT_PTE_SIZE);\n\n\tif "
	     "(pte_cont(__ptep_get(ptep))) {",
	     "\tpte_t last = __ptep_get(ptep + nr - 1), first = __ptep_get(ptep);\n\n\tif (pte_valid_cont(last))\n"
	     "\t\t*end = ALIGN(*end, CONT_PTE_SIZE);\n\n\tif (pte_valid_cont(first)) {");
	const outcome valid = prove(fixed, "young-valid-cont");
	EXPECT_EQ(valid.status, 0) << valid.show();
	EXPECT_NE(valid.out.find("step/ptep_test_and_clear_young-cont16        4k    proved"), std::string::npos)
		<< valid.show();
}

// The control: the thread's simple strategy rendered in C is refuted by
// the very obligations that refute its template twin, and each
// refutation replays on the C build's concrete module.
TEST(kernel_cli, prove_refutes_the_c_simple_where_it_refutes_the_template_simple)
{
	int status = -1;
	const auto both = prove_both("c-simple=" + variant_tree("simple").string(), "c-simple", "simple", &status);
	EXPECT_EQ(status, 1);
	std::size_t refuted = 0;
	for (const auto& [ob, p] : both) {
		EXPECT_EQ(p.a_verdict, p.b_verdict) << ob;
		EXPECT_TRUE(p.replays_confirmed) << ob;
		refuted += p.a_verdict == "refuted";
	}
	EXPECT_GT(refuted, 0u);
}

// check proves a tree only for the obligations --obligation names.
TEST(kernel_cli, check_proves_a_tree_for_the_obligations_it_names)
{
	const outcome o = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "check", "--strategy", tree_name, "--granule", "4k",
				       "--cases", "300", "--obligation", "exit/", "--sweep", "core"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("holds+partly"), std::string::npos) << o.show();
	EXPECT_NE(o.out.find("exit/run-"), std::string::npos) << o.show();
}

// The tree's hugetlbpage.c is in its C build only: prove says which calls
// no obligation covers, and asking for their step/ obligations proves
// nothing (and claims nothing).
TEST(kernel_cli, prove_names_the_trees_hugetlb_calls_as_covered_by_no_obligation)
{
	const outcome o = run_ptespec({"--kernel", PTESPEC_TEST_TREE, "prove", "--strategy", tree_name, "--granule", "4k",
				       "--obligation", "step/huge_ptep_get-"});
	EXPECT_EQ(o.status, 0) << o.show();
	EXPECT_NE(unwrapped(o.out).find("not in its symbolic build, so covered by no obligation: huge_ptep_get, "
					"huge_ptep_get_and_clear"),
		  std::string::npos)
		<< o.show();
	EXPECT_NE(o.out.find("0 passed, 0 failed, 0 undecided"), std::string::npos) << o.show();
}

}  // namespace
}  // namespace ptespec
