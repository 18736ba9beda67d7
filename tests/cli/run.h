// Runs the built ptespec program and captures what it says, so a test can
// assert on the exit code and on each stream separately.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace ptespec::cli_test {

struct outcome {
	int status = -1;	// exit code, or -1 if the program did not exit
	std::string out, err;
	std::string show() const { return "exit " + std::to_string(status) + "\nstdout:\n" + out + "stderr:\n" + err; }
};

inline std::string slurp(const std::string& path)
{
	std::ifstream f(path);
	std::stringstream s;
	s << f.rdbuf();
	return s.str();
}

// `ptespec args...` once; stdout and stderr go to files, not pipes, so a
// chatty program cannot block on a full pipe while we wait for it.
inline outcome run_ptespec_once(const std::vector<std::string>& args)
{
	char dir_tmpl[] = "/tmp/ptespec-cli-XXXXXX";
	const char* dir = mkdtemp(dir_tmpl);
	if (!dir)
		ADD_FAILURE() << "mkdtemp failed";
	const std::string out_path = std::string(dir ? dir : "/tmp") + "/out";
	const std::string err_path = std::string(dir ? dir : "/tmp") + "/err";

	std::vector<std::string> all{PTESPEC_BIN};
	all.insert(all.end(), args.begin(), args.end());
	std::vector<char*> argv;
	for (auto& a : all)
		argv.push_back(a.data());
	argv.push_back(nullptr);

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid = 0;
	outcome o;
	if (posix_spawn(&pid, PTESPEC_BIN, &fa, nullptr, argv.data(), environ) != 0) {
		ADD_FAILURE() << "cannot start " << PTESPEC_BIN;
	} else {
		int ws = 0;
		waitpid(pid, &ws, 0);
		o.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
		o.out = slurp(out_path);
		o.err = slurp(err_path);
	}
	posix_spawn_file_actions_destroy(&fa);
	std::remove(out_path.c_str());
	std::remove(err_path.c_str());
	if (dir)
		rmdir(dir);
	return o;
}

// True when the run was ended by LeakSanitizer's own failure at exit: its
// tracer thread, which stops the process to scan it for leaks, crashed
// (seen once in CI, in a test that had passed there many times before).
// That says nothing about the program; a leak it finds is reported as
// "detected memory leaks" instead, which this does not match.
inline bool leak_scan_itself_failed(const outcome& o)
{
	return o.status == -1 && o.err.find("LeakSanitizer has encountered a fatal error") != std::string::npos &&
	       o.err.find("detected memory leaks") == std::string::npos;
}

// `ptespec args...`, run again (up to twice) when the leak scan at exit
// failed by itself, so the test judges what the program did.
inline outcome run_ptespec(const std::vector<std::string>& args)
{
	outcome o = run_ptespec_once(args);
	for (int again = 0; again < 2 && leak_scan_itself_failed(o); again++)
		o = run_ptespec_once(args);
	return o;
}

// The first "reproduce: ptespec ..." line of `out`, run as printed (its
// words split at spaces, as a shell would split them: the lines carry no
// quotes).  An empty outcome with status -2 when there is no such line.
inline outcome run_reproduce_line(const std::string& out)
{
	const std::string mark = "reproduce: ptespec ";
	const std::size_t at = out.find(mark);
	if (at == std::string::npos)
		return outcome{-2, "", "no reproduce line in the output"};
	const std::size_t from = at + mark.size();
	const std::string line = out.substr(from, out.find('\n', from) - from);
	std::vector<std::string> words;
	for (std::size_t b = 0, e; b < line.size(); b = e + 1) {
		e = std::min(line.find(' ', b), line.size());
		words.push_back(line.substr(b, e - b));
	}
	return run_ptespec(words);
}

// The output with its wrapped lines joined: a newline and the indent that
// continues a paragraph become one space, so a phrase is found wherever
// the width broke it.
inline std::string unwrapped(const std::string& s)
{
	std::string out;
	for (std::size_t i = 0; i < s.size(); i++) {
		if (s[i] == '\n' && i + 1 < s.size() && s[i + 1] == ' ') {
			out += ' ';
			while (i + 1 < s.size() && s[i + 1] == ' ')
				i++;
			continue;
		}
		out += s[i];
	}
	return out;
}

// Bad usage: exit 2, nothing on stdout, exactly one line on stderr.
inline void expect_one_line_usage_error(const outcome& o, const std::string& needle)
{
	EXPECT_EQ(o.status, 2) << o.show();
	EXPECT_EQ(o.out, "") << o.show();
	ASSERT_FALSE(o.err.empty()) << o.show();
	EXPECT_EQ(o.err.back(), '\n') << o.show();
	EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.show();
	EXPECT_TRUE(o.err.starts_with("ptespec: ")) << o.show();
	EXPECT_NE(o.err.find(needle), std::string::npos) << "expected '" << needle << "' in\n" << o.show();
}

inline std::vector<std::string> lines_of(const std::string& s)
{
	std::vector<std::string> v;
	std::stringstream in(s);
	for (std::string l; std::getline(in, l);)
		v.push_back(l);
	return v;
}

} // namespace ptespec::cli_test
