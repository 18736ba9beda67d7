// ptespec report: the markdown a reviewer reads, its verdicts the ones
// `check` gives for the same strategies, seed and cases, and a chart whose
// folder can move.
#include <filesystem>
#include <regex>

#include "run.h"

namespace ptespec::cli_test {
namespace {

namespace fs = std::filesystem;

std::string without_times(const std::string& s)
{
	return std::regex_replace(s, std::regex("[0-9]+\\.[0-9]+"), "#");
}

// The "cells: N passed, N failed, N undecided" line of an output.
std::string cells_line(const std::string& out)
{
	std::smatch m;
	if (!std::regex_search(out, m, std::regex("cells: [0-9]+ passed, [0-9]+ failed, [0-9]+ undecided")))
		return "";
	return m.str();
}

TEST(cli_report, a_report_of_two_strategies_says_what_check_says_and_draws_a_chart_that_can_move)
{
	char tmpl[] = "/tmp/ptespec-report-XXXXXX";
	ASSERT_NE(mkdtemp(tmpl), nullptr);
	const fs::path dir = fs::path(tmpl) / "r";
	const std::vector<std::string> pick{"--strategy", "nocont", "--strategy", "simple", "--cases", "300"};
	std::vector<std::string> args{"report", "--out", dir.string(), "--folios", "4"};
	args.insert(args.end(), pick.begin(), pick.end());
	const outcome o = run_ptespec(args);
	// simple's trust in full fails per-call within 300 cases on seed 1.
	EXPECT_EQ(o.status, 1) << o.show();
	EXPECT_TRUE(o.out.starts_with("seed 1, 300 cases per pair\n")) << o.out;

	const std::string md = slurp((dir / "report.md").string());
	for (const char* heading : {"## Verdicts", "## Proofs (4k)", "## Cost of exit()"})
		EXPECT_NE(md.find(heading), std::string::npos) << heading << " missing from\n" << md;
	EXPECT_NE(md.find("`ptespec check --strategy nocont --strategy simple --cases 300 --seed 1 --granule 4k`"),
		  std::string::npos)
		<< md;
	EXPECT_NE(md.find("| simple |"), std::string::npos) << md;
	EXPECT_NE(md.find("**fails"), std::string::npos) << "no failing cell in bold:\n" << md;
	EXPECT_EQ(md.find("| mainline |"), std::string::npos) << "a strategy not asked for:\n" << md;
	// simple's failure, re-judged by the proofs from its failing call's table.
	EXPECT_NE(md.find("re-judged by the proofs"), std::string::npos) << md;
	EXPECT_NE(md.find("- simple per-call: "), std::string::npos) << md;

	// The same cells as check's, word for word in the tally.
	std::vector<std::string> check{"check", "--granule", "4k", "--seed", "1"};
	check.insert(check.end(), pick.begin(), pick.end());
	const outcome c = run_ptespec(check);
	EXPECT_EQ(c.status, 1) << c.show();
	ASSERT_FALSE(cells_line(c.out).empty()) << c.out;
	EXPECT_EQ(cells_line(md), cells_line(c.out)) << md << "\n---\n" << c.out;
	EXPECT_EQ(cells_line(o.out), cells_line(c.out)) << o.out;

	// check --report writes the same verdicts and proofs from the table it
	// printed, without a second run, and prints what check prints.
	const fs::path from_check = fs::path(tmpl) / "from-check";
	std::vector<std::string> check_report = check;
	check_report.insert(check_report.end(), {"--report", from_check.string()});
	const outcome cr = run_ptespec(check_report);
	EXPECT_EQ(cr.status, 1) << cr.show();
	EXPECT_NE(cr.out.find("wrote " + (from_check / "report.md").string()), std::string::npos) << cr.out;
	EXPECT_EQ(without_times(cr.out.substr(0, cr.out.find("wrote "))),
		  without_times(c.out.substr(0, cr.out.find("wrote "))));
	const std::string md2 = slurp((from_check / "report.md").string());
	const auto before_cost = [](const std::string& m) { return without_times(m.substr(0, m.find("## Cost of exit()"))); };
	ASSERT_NE(md2.find("## Cost of exit()"), std::string::npos) << md2;
	EXPECT_EQ(before_cost(md2), before_cost(md)) << md2 << "\n---\n" << md;

	// The chart's script names its files relatively: moved, it draws again.
	const std::string gp = slurp((dir / "cost.gp").string());
	EXPECT_EQ(gp.find(dir.string()), std::string::npos) << gp;
	const fs::path moved = fs::path(tmpl) / "moved";
	fs::rename(dir, moved);
	fs::remove(moved / "cost.png");
	const std::string redraw = "cd '" + moved.string() + "' && gnuplot cost.gp 2>/dev/null";
	EXPECT_EQ(std::system(redraw.c_str()), 0);
	EXPECT_TRUE(fs::exists(moved / "cost.png"));
	fs::remove_all(tmpl);
}

} // namespace
} // namespace ptespec::cli_test
