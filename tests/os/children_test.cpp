// Jobs in child processes: results come back in the order asked whatever
// order the children end in, and each way a child can end is told apart.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "os/children.h"

namespace ptespec::os {
namespace {

using namespace std::chrono_literals;

std::vector<child_end> run_all(const std::vector<child_job>& jobs, unsigned parallel, double wall = 60)
{
	std::vector<child_end> out;
	std::vector<std::size_t> order;
	run_children(jobs, parallel, wall, [&](std::size_t k, child_end e) {
		order.push_back(k);
		out.push_back(std::move(e));
	});
	for (std::size_t k = 0; k < order.size(); k++)
		EXPECT_EQ(order[k], k) << "heard out of job order";
	return out;
}

TEST(children, results_come_back_in_job_order_when_the_heaviest_starts_first_and_the_first_ends_last)
{
	// Job 0 is light and slow: it starts last and ends last, yet is heard first.
	std::vector<child_job> jobs;
	jobs.push_back({[](int) {
				std::this_thread::sleep_for(300ms);
				return std::string("zero");
			},
			0});
	for (int k = 1; k < 5; k++)
		jobs.push_back({[k](int) { return "job " + std::to_string(k) + " in " + std::to_string(::getpid()); },
				double(k)});
	const std::vector<child_end> ends = run_all(jobs, 2);
	ASSERT_EQ(ends.size(), 5u);
	EXPECT_EQ(ends[0].out, "zero");
	for (int k = 1; k < 5; k++) {
		EXPECT_EQ(ends[k].how, child_end::kind::returned);
		EXPECT_EQ(ends[k].out.rfind("job " + std::to_string(k) + " in ", 0), 0u) << ends[k].out;
		// Each ran in a process of its own, not this one.
		EXPECT_EQ(ends[k].out.find(" in " + std::to_string(::getpid())), std::string::npos);
	}
}

TEST(children, a_large_result_arrives_whole)
{
	const std::string big(3 << 20, 'x');
	const std::vector<child_end> ends = run_all({{[&](int) { return big; }, 0}}, 1);
	ASSERT_EQ(ends.size(), 1u);
	EXPECT_EQ(ends[0].out.size(), big.size());
}

TEST(children, a_throw_a_crash_an_exit_and_a_timeout_are_each_told_apart)
{
	std::vector<child_job> jobs{
		{[](int) -> std::string { throw std::runtime_error("no such table"); }, 0},
		{[](int) -> std::string {
			 ::raise(SIGKILL);
			 return "";
		 },
		 0},
		{[](int) -> std::string { _exit(7); }, 0},
		{[](int) -> std::string {
			 std::this_thread::sleep_for(30s);
			 return "late";
		 },
		 0},
	};
	const std::vector<child_end> ends = run_all(jobs, 4, 1.0);
	ASSERT_EQ(ends.size(), 4u);
	EXPECT_EQ(ends[0].how, child_end::kind::raised);
	EXPECT_EQ(ends[0].out, "no such table");
	EXPECT_EQ(ends[1].how, child_end::kind::signalled);
	EXPECT_EQ(ends[1].code, SIGKILL);
	EXPECT_EQ(describe(ends[1], 1.0), "died of signal 9 (Killed)");
	EXPECT_EQ(ends[2].how, child_end::kind::bad_status);
	EXPECT_EQ(ends[2].code, 7);
	EXPECT_EQ(ends[3].how, child_end::kind::timed_out);
	EXPECT_LT(ends[3].seconds, 20.0);
}

TEST(children, an_exception_from_the_listener_ends_the_run_and_reaches_the_caller)
{
	std::vector<child_job> jobs;
	for (int k = 0; k < 4; k++)
		jobs.push_back({[](int) { return std::string("r"); }, 0});
	EXPECT_THROW(run_children(jobs, 2, 60,
				  [](std::size_t k, child_end) {
					  if (k == 1)
						  throw std::logic_error("stop");
				  }),
		     std::logic_error);
}

TEST(children, the_parent_hears_the_last_line_a_running_child_said)
{
	std::vector<std::string> said;
	run_children(
		{{[](int fd) {
			  for (int k = 1; k <= 8; k++) {
				  const std::string line = "at " + std::to_string(k) + "\n";
				  [[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
				  std::this_thread::sleep_for(100ms);
			  }
			  return std::string("done");
		  },
		  0}},
		1, 60, [](std::size_t, child_end) {},
		[&](std::size_t, const std::vector<running_child>& now) {
			for (const running_child& c : now)
				if (!c.said.empty())
					said.push_back(c.said);
		});
	ASSERT_FALSE(said.empty());
	for (const std::string& s : said)
		EXPECT_EQ(s.rfind("at ", 0), 0u) << s;	// whole lines only
}

} // namespace
} // namespace ptespec::os
