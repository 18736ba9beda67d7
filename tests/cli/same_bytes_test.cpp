// The same command with the same seed prints the same bytes, timing aside:
// a counterexample, a table or a count a developer pastes into a mail is
// the one the next reader gets.  Times are the only figures that may move
// (every decimal fraction is masked; counts are whole numbers and stay).
#include <regex>

#include "run.h"

namespace ptespec::cli_test {
namespace {

std::string without_times(const std::string& s)
{
	return std::regex_replace(s, std::regex("[0-9]+\\.[0-9]+"), "#");
}

void same_twice(const std::vector<std::string>& args)
{
	const outcome a = run_ptespec(args), b = run_ptespec(args);
	EXPECT_EQ(a.status, b.status) << a.show() << "\n---\n" << b.show();
	EXPECT_FALSE(a.out.empty()) << a.show();
	EXPECT_EQ(without_times(a.out), without_times(b.out)) << a.out << "\n---\n" << b.out;
}

TEST(cli_same_bytes, test_with_a_failing_cell_twice)
{
	same_twice({"test", "--strategy", "simple", "--strategy", "mainline", "--cases", "300", "--seed", "7"});
}

TEST(cli_same_bytes, check_twice)
{
	same_twice({"check", "--strategy", "simple", "--granule", "4k", "--cases", "200", "--seed", "3"});
}

TEST(cli_same_bytes, prove_with_a_refutation_twice)
{
	same_twice({"prove", "--strategy", "simple", "--granule", "4k", "--obligation", "exit/"});
}

TEST(cli_same_bytes, explore_with_a_violation_twice)
{
	same_twice({"explore", "--strategy", "simple", "--cont-ptes", "4", "--hw-events", "1"});
}

TEST(cli_same_bytes, demo_cost_and_list_twice)
{
	same_twice({"demo", "--seed", "11"});
	same_twice({"cost", "--all", "--folios", "4"});
	same_twice({"list"});
}

// Cells run side by side in child processes and come back through a wire:
// any number of jobs prints what one job does, failing cells' counterexamples
// and their JSON included.
void same_for_one_and_two_jobs(std::vector<std::string> args)
{
	std::vector<std::string> one = args, two = args;
	one.insert(one.end(), {"--jobs", "1"});
	two.insert(two.end(), {"--jobs", "2"});
	const outcome a = run_ptespec(one), b = run_ptespec(two);
	EXPECT_EQ(a.status, b.status) << a.show() << "\n---\n" << b.show();
	EXPECT_NE(a.out.find("counterexample"), std::string::npos) << "the comparison needs a failing cell\n" << a.out;
	EXPECT_EQ(without_times(a.out), without_times(b.out)) << a.out << "\n---\n" << b.out;
}

TEST(cli_same_bytes, check_with_one_job_and_with_two)
{
	same_for_one_and_two_jobs({"check", "--strategy", "simple", "--strategy", "gather-writeback", "--granule", "4k",
				   "--cases", "300", "--seed", "3", "--obligation", "exit/"});
	// The JSON document over the core sweep alone (the text above has both).
	same_for_one_and_two_jobs({"check", "--strategy", "simple", "--granule", "4k", "--cases", "300", "--seed", "3",
				   "--obligation", "exit/", "--json", "--sweep", "core"});
}

TEST(cli_same_bytes, test_with_one_job_and_with_two)
{
	same_for_one_and_two_jobs({"test", "--strategy", "simple", "--strategy", "robust", "--cases", "300", "--seed", "7"});
	same_for_one_and_two_jobs({"test", "--strategy", "simple", "--cases", "300", "--seed", "7", "--json", "--sweep",
				   "core"});
}

// A control for the comparison: two seeds do give two transcripts, so the
// masking above does not hide everything.
TEST(cli_same_bytes, two_seeds_differ)
{
	const outcome a = run_ptespec({"demo", "--seed", "1"}), b = run_ptespec({"demo", "--seed", "2"});
	EXPECT_NE(without_times(a.out), without_times(b.out));
}

} // namespace
} // namespace ptespec::cli_test
