// Every kind of bad input, through the program: exit 2, nothing on stdout,
// one line on stderr naming the input and what was expected, within 5 s --
// never a crash, a hang, a silently wrong answer.  One row per
// class; the files a row needs (a truncated plugin, a zero-cost profile)
// are made in a scratch directory, named in the rows by @name.
//
// Last, Ctrl-C and SIGTERM during `prove`: the prover's children end with
// it.

#include <dirent.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

namespace fs = std::filesystem;

struct bad_input {
	const char* name;	// the class, as the test is called
	std::vector<std::string> args;
	std::string needle;	// what the one line must say
	std::vector<std::string> env = {};	// NAME=VALUE, set for this run alone
};

// The kernel tree the kernel tests judge, for the rows about its build.
const std::string kernel_tree = (std::filesystem::path(__FILE__).parent_path().parent_path() / "kernel" / "tree").string();

// gtest shows a failing row by this, not by its bytes.
void PrintTo(const bad_input& b, std::ostream* os)
{
	*os << b.name;
}

// The scratch files, made once.
const fs::path& scratch()
{
	static const fs::path dir = [] {
		const fs::path d = fs::path(::testing::TempDir()) / ("ptespec-bad-input-" + std::to_string(::getpid()));
		fs::create_directories(d / "dir.so");
		// Half a real plugin: its program headers point past the end.
		std::ifstream in(PLAIN_PLUGIN, std::ios::binary);
		std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
		std::ofstream(d / "truncated.so", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
		// Its ELF header alone.
		std::ofstream(d / "header-only.so", std::ios::binary) << bytes.substr(0, 64);
		std::ofstream(d / "empty.so");
		std::ofstream(d / "garbage.so") << "\x7f" "ELG and then nothing a loader could use\n";
		std::ofstream(d / "zero.json") << R"({"weights": {"read": 0, "write": 0, "atomic": 0, "tlbi_page": 0, )"
					       << R"("tlbi_range": 0, "tlbi_all": 0, "page": 0}})";
		// One bad weight each; the other six are good.
		const auto weights = [&](const std::string& file, const std::string& read) {
			std::ofstream(d / file) << R"({"weights": {"read": )" << read
						<< R"(, "write": 1, "atomic": 1, "tlbi_page": 1, "tlbi_range": 1, "tlbi_all": 1, "page": 1}})";
		};
		weights("overflow.json", "1e999");
		weights("huge-integer.json", std::string(400, '9'));
		weights("nan.json", "NaN");
		weights("negative.json", "-1");
		weights("past-max.json", "1e300");
		weights("string.json", R"("")");
		std::ofstream(d / "name-number.json") << R"({"name": 5, "weights": {"read": 1, "write": 1, "atomic": 1, )"
						       << R"("tlbi_page": 1, "tlbi_range": 1, "tlbi_all": 1, "page": 1}})";
		std::ofstream(d / "empty.json");
		std::ofstream(d / "garbage.json") << "weights: read=1\n";
		std::ofstream(d / "a-file") << "not a directory\n";
		return d;
	}();
	return dir;
}

std::string expand(const std::string& arg)
{
	std::string out;
	for (std::size_t at = 0; at < arg.size();) {
		const std::size_t a = arg.find('@', at);
		if (a == std::string::npos) {
			out += arg.substr(at);
			break;
		}
		out += arg.substr(at, a - at);
		std::size_t end = a + 1;
		while (end < arg.size() && (std::isalnum(static_cast<unsigned char>(arg[end])) || arg[end] == '.' ||
					    arg[end] == '-'))
			end++;
		out += (scratch() / arg.substr(a + 1, end - a - 1)).string();
		at = end;
	}
	return out;
}

const bad_input rows[] = {
	// Plugin files: checked before they are mapped.
	{"plugin_truncated", {"--plugin", "@truncated.so", "list"}, "cannot load: truncated or corrupt: the file has"},
	{"plugin_header_only", {"--plugin", "@header-only.so", "list"}, "cannot load: truncated or corrupt"},
	{"plugin_empty_file", {"--plugin", "@empty.so", "list"}, "cannot load: an empty file"},
	{"plugin_garbage", {"--plugin", "@garbage.so", "list"}, "cannot load: not an ELF file"},
	{"plugin_directory", {"--plugin", "@dir.so", "list"}, "cannot load: a directory"},
	{"plugin_missing", {"--plugin", "@nope.so", "list"}, "No such file or directory"},
	{"plugin_empty_name", {"--plugin", "", "list"}, "--plugin '': expected a FILE"},

	// Enumerations bounded before they start.
	{"explore_initial_flagged_huge", {"explore", "--strategy", "mainline", "--initial-flagged", "99"},
	 "--initial-flagged 99: more than 65536 initial states for exit's 16 entries; expected at most 65536"},
	{"explore_initial_flagged_past_128", {"explore", "--strategy", "mainline", "--initial-flagged", "1000"},
	 "--initial-flagged 1000: expected a whole number of entries from 0 to 128"},
	{"explore_hw_events_too_many", {"explore", "--strategy", "mainline", "--hw-events", "7"},
	 "--hw-events 7: expected a whole number of events from 0 to 6"},
	{"explore_hw_events_unbudgeted", {"explore", "--strategy", "mainline", "--hw-events", "4"},
	 "--hw-events 4: expected 0 to 3 without a time limit"},
	{"explore_hw_events_exponent", {"explore", "--strategy", "mainline", "--hw-events", "1e30"},
	 "--hw-events '1e30': expected a whole number"},
	{"explore_cont_ptes_not_power_of_two", {"explore", "--strategy", "mainline", "--cont-ptes", "3"},
	 "--cont-ptes 3: expected a power of two from 2 to 128"},
	{"explore_cont_ptes_huge", {"explore", "--strategy", "mainline", "--cont-ptes", "18446744073709551616"},
	 "--cont-ptes 18446744073709551616: expected a whole number from 2 to 128"},
	{"explore_initial_all_too_big", {"explore", "--strategy", "mainline", "--initial", "all"},
	 "--initial all: 4^16 initial states for exit's 16 entries; expected at most 8 entries"},

	// Counts: whole numbers in a stated range, never wrapped.
	{"test_cases_word", {"test", "--all", "--cases", "abc"}, "--cases 'abc': expected a whole number of cases from 1 to 1000000"},
	{"test_cases_zero", {"test", "--all", "--cases", "0"}, "--cases 0: expected a whole number of cases from 1 to 1000000"},
	{"test_cases_negative", {"test", "--all", "--cases", "-5"}, "--cases -5: expected"},
	{"test_cases_huge", {"test", "--all", "--cases", "99999999999"}, "--cases 99999999999: expected"},
	{"test_cases_octal_looking", {"test", "--all", "--cases", "010"}, "--cases '010': expected"},
	{"check_cases_word", {"check", "--all", "--cases", "1.5"}, "--cases '1.5': expected a whole number"},
	{"report_cases_zero", {"report", "--cases", "0"}, "--cases 0: expected"},
	{"cost_folios_negative", {"cost", "--all", "--folios", "-1"}, "--folios -1: expected a whole number of folios from 1 to 65536"},
	{"cost_folios_too_many", {"cost", "--all", "--folios", "65537"}, "--folios 65537: expected"},
	{"cost_folios_word", {"cost", "--all", "--folios", "many"}, "--folios 'many': expected"},
	{"report_folios_negative", {"report", "--folios", "-1"}, "--folios -1: expected"},
	{"report_strategy_unknown", {"report", "--strategy", "nosuch"}, "--strategy 'nosuch': unknown; expected one of:"},
	{"report_strategy_twice", {"report", "--strategy", "simple", "--strategy", "simple"},
	 "--strategy 'simple' given twice; expected each strategy once"},
	{"prove_jobs_word", {"prove", "--all", "--jobs", "abc"}, "--jobs 'abc': expected a whole number from 1 to 64"},
	{"prove_jobs_too_many", {"prove", "--all", "--jobs", "65"}, "--jobs 65: expected a whole number from 1 to 64"},
	{"prove_timeout_negative", {"prove", "--all", "--timeout-ms", "-1"}, "--timeout-ms -1: expected a whole number of milliseconds"},
	{"prove_timeout_zero", {"prove", "--all", "--timeout-ms", "0"}, "--timeout-ms 0: expected"},
	{"prove_timeout_exponent", {"prove", "--all", "--timeout-ms", "1e30"}, "--timeout-ms '1e30': expected"},
	{"prove_run_seconds_zero", {"prove", "--all", "--run-seconds", "0"}, "--run-seconds 0: expected"},
	{"prove_run_seconds_over_a_day", {"prove", "--all", "--run-seconds", "86401"}, "--run-seconds 86401: expected"},
	{"prove_max_paths_word", {"prove", "--all", "--max-paths", "many"}, "--max-paths 'many': expected"},
	{"check_max_paths_zero", {"check", "--all", "--max-paths", "0"}, "--max-paths 0: expected"},
	{"prove_probes_word", {"prove", "--all", "--probes", "some"}, "--probes 'some': expected"},
	{"check_probes_too_many", {"check", "--all", "--probes", "10001"}, "--probes 10001: expected"},

	// Seeds: decimal or 0x-hex, 0..2^64-1, in every command.
	{"test_seed_negative", {"test", "--all", "--seed", "-1"}, "--seed '-1': expected a decimal or 0x-hex number"},
	{"test_seed_octal", {"test", "--all", "--seed", "010"}, "--seed '010': expected"},
	{"test_seed_empty", {"test", "--all", "--seed", ""}, "--seed '': expected"},
	{"test_seed_too_big", {"test", "--all", "--seed", "18446744073709551616"}, "--seed '18446744073709551616': expected"},
	{"test_seed_hex_without_digits", {"test", "--all", "--seed", "0x"}, "--seed '0x': expected"},
	{"check_seed_negative", {"check", "--all", "--seed", "-1"}, "--seed '-1': expected"},
	{"check_seed_word", {"check", "--all", "--seed", "abc"}, "--seed 'abc': expected"},
	{"report_seed_negative", {"report", "--seed", "-1"}, "--seed '-1': expected"},
	{"demo_seed_octal", {"demo", "--seed", "010"}, "--seed '010': expected a decimal or 0x-hex number"},
	{"demo_seed_twice", {"demo", "--seed", "1", "--seed", "2"}, "--seed given 2 times ('1', '2'); expected it once"},

	// Seconds: finite, not negative, bounded.
	{"explore_time_nan", {"explore", "--strategy", "mainline", "--time-limit", "nan"},
	 "--time-limit 'nan': expected a number of seconds from 0 (no limit) to 86400"},
	{"explore_time_inf", {"explore", "--strategy", "mainline", "--time-limit", "inf"}, "--time-limit 'inf': expected"},
	{"explore_time_negative", {"explore", "--strategy", "mainline", "--time-limit", "-1"}, "--time-limit -1: expected"},
	{"explore_time_huge", {"explore", "--strategy", "mainline", "--time-limit", "1e30"}, "--time-limit 1e30: expected"},

	// Empty values, and `--flag=` that would take the next word.
	{"strategy_equals_nothing", {"test", "--strategy=", "--all"}, "--strategy=: an empty value; expected --strategy=NAME"},
	{"granule_equals_nothing", {"prove", "--granule=", "--all"}, "--granule=: an empty value"},
	{"flag_equals_nothing", {"list", "--json="}, "--json=: a value after '='; expected --json alone"},
	{"flag_with_a_value", {"list", "--json=maybe"}, "--json 'maybe': expected --json alone"},
	{"strategy_empty", {"test", "--strategy", ""}, "--strategy '': unknown; expected one of: "},
	{"property_empty", {"test", "--all", "--property", ""}, "--property '': expected one of"},
	{"obligation_empty", {"prove", "--all", "--obligation", ""}, "--obligation '': expected the start"},
	{"granule_empty", {"prove", "--all", "--granule", ""}, "--granule '': expected 4k, 16k, 64k or all"},
	{"out_empty", {"report", "--out", ""}, "--out '': expected a DIR"},
	{"check_report_empty", {"check", "--report", ""}, "--report '': expected a DIR"},
	{"check_report_two_granules", {"check", "--all", "--granule", "4k", "--granule", "16k", "--report", "/tmp/x"},
	 "--report with more than one granule: expected one"},
	{"check_report_with_an_obligation", {"check", "--all", "--obligation", "exit/", "--report", "/tmp/x"},
	 "--report with --obligation: expected"},
	{"jobs_zero", {"test", "--all", "--jobs", "0"}, "--jobs 0: expected"},
	{"sweep_word", {"test", "--all", "--sweep", "most"}, "--sweep 'most': expected core, kernel, both, hugetlb or all"},
	{"sweep_with_mprotect", {"check", "--all", "--sweep", "core", "--mprotect"},
	 "--sweep with --mprotect: expected one or the other"},
	{"sweep_with_swarm", {"report", "--out", "/tmp", "--sweep", "kernel", "--swarm"},
	 "--sweep with --swarm: expected one or the other"},
	{"jobs_too_many", {"check", "--all", "--jobs", "65"}, "--jobs 65: expected"},
	{"caller_empty", {"test", "--all", "--caller", ""}, "--caller '': expected a caller name"},
	{"kernel_empty", {"--kernel", "", "list"}, "--kernel '': expected a kernel tree's top directory"},
	{"time_limit_empty", {"explore", "--strategy", "mainline", "--time-limit", ""}, "--time-limit '': expected"},
	{"scenario_empty", {"cost", "--all", "--scenario", ""}, "--scenario '': expected one of"},
	{"value_missing", {"explore", "--strategy"}, "--strategy: no value given; expected --strategy NAME"},
	{"required_missing", {"explore"}, "explore: no strategy chosen; expected --strategy NAME"},

	// Unknown names, in the same words in every command.
	{"test_strategy_unknown", {"test", "--strategy", "nope"}, "--strategy 'nope': unknown; expected one of: mainline"},
	{"explore_strategy_unknown", {"explore", "--strategy", "nope"}, "--strategy 'nope': unknown; expected one of: mainline"},
	{"cost_strategy_unknown", {"cost", "--strategy", "nope"}, "--strategy 'nope': unknown; expected one of: mainline"},
	{"property_unknown", {"test", "--all", "--property", "speed"}, "--property 'speed': expected one of batch-or"},
	{"obligation_unknown", {"prove", "--all", "--obligation", "zzz"}, "--obligation 'zzz': expected the start"},
	{"check_obligation_unknown", {"check", "--all", "--obligation", "zzz"}, "--obligation 'zzz': expected the start"},
	{"explore_scenario_unknown", {"explore", "--strategy", "mainline", "--scenario", "teardown"},
	 "--scenario 'teardown': expected one of all, exit, exit-per-entry"},
	{"explore_scenario_of_cost", {"explore", "--strategy", "mainline", "--scenario", "dontneed"},
	 "--scenario 'dontneed': expected one of all, exit"},
	{"cost_scenario_of_explore", {"cost", "--all", "--scenario", "dontneed-start"},
	 "--scenario 'dontneed-start': expected one of exit, exit-per-entry, munmap (or dontneed), fork, madv-free "
	 "(the cost model unmaps whole folios"},
	{"test_granule_unknown", {"test", "--all", "--granule", "8k"}, "--granule '8k': expected 4k, 16k, 64k or all"},
	{"explore_granule_unknown", {"explore", "--strategy", "mainline", "--granule", "8k"}, "--granule '8k': expected 4k, 16k or 64k"},
	{"cost_granule_unknown", {"cost", "--all", "--granule", "8k"}, "--granule '8k': expected 4k, 16k or 64k"},
	{"hardware_unknown", {"test", "--all", "--hardware", "bbml3"},
	 "--hardware 'bbml3': expected default, or a comma-separated list of bbml2, no-hafdbs, one-cpu, each once"},
	{"hardware_twice_in_the_list", {"check", "--all", "--hardware", "bbml2,bbml2"},
	 "--hardware 'bbml2,bbml2': expected default, or a comma-separated list of bbml2, no-hafdbs, one-cpu, each once"},
	{"hardware_empty_item", {"demo", "--hardware", "bbml2,"},
	 "--hardware 'bbml2,': expected default, or a comma-separated list of bbml2, no-hafdbs, one-cpu, each once"},
	{"hardware_the_proofs_do_not_model", {"prove", "--all", "--hardware", "bbml2,no-hafdbs"},
	 "--hardware 'bbml2,no-hafdbs': the proofs model hardware that manages access/dirty itself"},
	{"report_granule_unknown", {"report", "--proof-granule", "8k"}, "--proof-granule '8k': expected 4k, 16k or 64k"},
	{"explore_initial_unknown", {"explore", "--strategy", "mainline", "--initial", "dense"},
	 "--initial 'dense': expected one of sparse, all"},

	// What the user typed is quoted with its control bytes escaped: an
	// escape sequence in an argument never reaches the terminal.
	{"escape_sequence_in_a_value", {"test", "--strategy", "\x1b[31mx"}, "--strategy '\\x1b[31mx': unknown; expected one of:"},
	{"c1_control_in_a_value", {"test", "--strategy", "a\xc2\x9b" "1m"}, "--strategy 'a\\xc2\\x9b1m': unknown"},
	{"bare_high_byte_in_a_value", {"test", "--strategy", "\x9b" "1m\xff"}, "--strategy '\\x9b1m\\xff': unknown"},
	{"escape_sequence_in_an_option", {"test", "--\x1b[2J"}, "test: unknown option '--\\x1b[2J'"},
	{"utf8_in_a_value_is_kept", {"test", "--strategy", "caf\xc3\xa9"}, "--strategy 'caf\xc3\xa9': unknown"},

	// A once-only flag given twice.
	{"seed_twice", {"test", "--all", "--seed", "1", "--seed", "2"}, "--seed given 2 times ('1', '2'); expected it once"},
	{"strategy_twice", {"test", "--strategy", "mainline", "--strategy", "mainline"},
	 "--strategy 'mainline' given twice; expected each strategy once"},
	{"property_twice", {"test", "--all", "--property", "precise", "--property", "precise"},
	 "--property 'precise' given twice; expected each property once"},
	{"hw_events_twice", {"explore", "--strategy", "mainline", "--hw-events", "1", "--hw-events", "2"},
	 "--hw-events given 2 times"},

	// Files other than plugins.
	{"profile_all_zero", {"cost", "--all", "--profile", "@zero.json"},
	 "zero.json': its weights give the nocont baseline of exit a cost of 0"},
	{"profile_missing", {"cost", "--all", "--profile", "@nope.json"}, "nope.json': cannot read"},
	{"profile_directory", {"cost", "--all", "--profile", "@dir.so"}, "dir.so': not valid JSON"},
	{"profile_empty_file", {"cost", "--all", "--profile", "@empty.json"}, "empty.json': not valid JSON"},
	{"profile_garbage", {"cost", "--all", "--profile", "@garbage.json"}, "garbage.json': not valid JSON"},
	{"profile_weight_past_double", {"cost", "--all", "--profile", "@overflow.json"},
	 "overflow.json': weight \"read\" is 1e999, out of the range of a double; expected a number from 0 to 1e12"},
	{"profile_weight_huge_integer", {"cost", "--all", "--profile", "@huge-integer.json"},
	 "huge-integer.json': weight \"read\" is 99999999999999999999..., out of the range of a double; expected"},
	{"profile_weight_nan", {"cost", "--all", "--profile", "@nan.json"}, "nan.json': not valid JSON (at byte"},
	{"profile_weight_negative", {"cost", "--all", "--profile", "@negative.json"},
	 "negative.json': weight \"read\" is -1; expected a number from 0 to 1e12"},
	{"profile_weight_past_max", {"cost", "--all", "--profile", "@past-max.json"},
	 "past-max.json': weight \"read\" is 1e+300; expected a number from 0 to 1e12"},
	{"profile_weight_empty_string", {"cost", "--all", "--profile", "@string.json"},
	 "string.json': weight \"read\" is \"\", not a number; expected a number from 0 to 1e12"},
	{"profile_name_not_a_string", {"cost", "--all", "--profile", "@name-number.json"},
	 "name-number.json': \"name\" is not a string"},
	{"profile_empty_name", {"cost", "--all", "--profile", ""}, "--profile '': expected numa1, numa2 or a profile FILE"},
	// The compiler a kernel tree is built with: CC as given, or an error.
	{"cc_missing", {"--kernel", kernel_tree, "list"},
	 "CC '/nonexistent': not found; expected the path or PATH name of an executable C compiler", {"CC=/nonexistent"}},
	{"cc_not_executable", {"--kernel", kernel_tree, "list"}, "a-file': not an executable file; expected", {"CC=@a-file"}},
	{"cc_with_arguments", {"--kernel", kernel_tree, "list"}, "CC 'cc -O2': not found; expected", {"CC=cc -O2"}},
	{"report_out_is_a_file", {"report", "--out", "@a-file", "--cases", "1"}, "a-file: cannot create it"},
};

class cli_bad_input : public ::testing::TestWithParam<bad_input> {};

TEST_P(cli_bad_input, is_one_line_and_exit_2)
{
	std::vector<std::string> args;
	for (const std::string& a : GetParam().args)
		args.push_back(expand(a));
	// A build that should have been refused lands in the scratch cache.
	::setenv("PTESPEC_CACHE", (scratch() / "cache").c_str(), 1);
	std::vector<std::string> names;
	for (const std::string& e : GetParam().env) {
		const std::string v = expand(e);
		names.push_back(v.substr(0, v.find('=')));
		::setenv(names.back().c_str(), v.substr(v.find('=') + 1).c_str(), 1);
	}
	const auto t0 = std::chrono::steady_clock::now();
	const outcome o = run_ptespec(args);
	const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	for (const std::string& n : names)
		::unsetenv(n.c_str());
	expect_one_line_usage_error(o, expand(GetParam().needle));
	EXPECT_LT(secs, 5.0) << o.show();
}

INSTANTIATE_TEST_SUITE_P(every_class, cli_bad_input, ::testing::ValuesIn(rows),
			 [](const ::testing::TestParamInfo<bad_input>& i) { return std::string(i.param.name); });

// The spellings the parsers accept mean what they say.
TEST(cli_good_input, a_hex_seed_is_the_same_seed_as_its_decimal)
{
	const outcome hex = run_ptespec({"test", "--strategy", "mainline", "--property", "batch-or", "--cases", "5",
					 "--seed", "0x10", "--json"});
	ASSERT_EQ(hex.status, 0) << hex.show();
	EXPECT_EQ(nlohmann::json::parse(hex.out).at("seed"), 16u) << hex.out;
}

TEST(cli_good_input, dontneed_is_the_name_of_munmap_in_cost)
{
	const outcome a = run_ptespec({"cost", "--strategy", "mainline", "--scenario", "dontneed", "--json"});
	const outcome b = run_ptespec({"cost", "--strategy", "mainline", "--scenario", "munmap", "--json"});
	ASSERT_EQ(a.status, 0) << a.show();
	EXPECT_EQ(a.out, b.out);
}

// The largest --folios the help offers runs in seconds, not hours: the cost
// model was quadratic in folios (8192: 55 s, 4.3 GB) before its checked
// preflight ran on a few folios only.
TEST(cli_good_input, cost_at_the_most_folios_takes_seconds)
{
	const auto t0 = std::chrono::steady_clock::now();
	const outcome o = run_ptespec({"cost", "--all", "--folios", "65536"});
	const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	ASSERT_EQ(o.status, 0) << o.show();
	EXPECT_NE(o.out.find("65536 folios"), std::string::npos) << o.out;
	EXPECT_LT(secs, 20.0);
}

// The processes whose process group is `pgid`, from /proc.
std::size_t processes_in_group(pid_t pgid)
{
	std::size_t n = 0;
	DIR* d = ::opendir("/proc");
	if (!d)
		return 0;
	while (const dirent* e = ::readdir(d)) {
		if (!std::isdigit(static_cast<unsigned char>(e->d_name[0])))
			continue;
		std::ifstream f(std::string("/proc/") + e->d_name + "/stat");
		std::string stat;
		std::getline(f, stat);
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so from
		// its closing parenthesis on.
		const std::size_t close = stat.rfind(')');
		if (close == std::string::npos)
			continue;
		std::istringstream rest(stat.substr(close + 1));
		std::string state;
		long ppid = 0, pgrp = 0;
		rest >> state >> ppid >> pgrp;
		if (pgrp == pgid && state != "Z")
			n++;
	}
	::closedir(d);
	return n;
}

// `ptespec prove` in a process group of its own, so that whatever it
// forked can be found and, if the test fails, ended.
void expect_signal_ends_prove_and_its_children(int sig)
{
	std::vector<std::string> all{PTESPEC_BIN, "prove", "--strategy", "mainline", "--jobs", "2"};
	std::vector<char*> argv;
	for (auto& a : all)
		argv.push_back(a.data());
	argv.push_back(nullptr);
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid = 0;
	ASSERT_EQ(posix_spawn(&pid, PTESPEC_BIN, &fa, &attr, argv.data(), environ), 0);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);

	// About a second in, and until the prover has children at work.
	std::this_thread::sleep_for(std::chrono::seconds(1));
	for (int k = 0; k < 40 && processes_in_group(pid) < 2; k++)
		std::this_thread::sleep_for(std::chrono::milliseconds(100));
	EXPECT_GE(processes_in_group(pid), 2u) << "the prover had started no child to end";

	const auto t0 = std::chrono::steady_clock::now();
	::kill(pid, sig);
	int status = 0;
	bool ended = false;
	while (std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
		if (::waitpid(pid, &status, WNOHANG) == pid) {
			ended = true;
			break;
		}
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
	}
	if (!ended) {
		::kill(-pid, SIGKILL);
		::waitpid(pid, &status, 0);
	}
	EXPECT_TRUE(ended) << "prove ran on 5 s after signal " << sig;
	EXPECT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == sig) || (WIFEXITED(status) && WEXITSTATUS(status) == 128 + sig))
		<< "status " << status;
	std::size_t left = processes_in_group(pid);
	for (int k = 0; k < 50 && left > 0; k++) {
		std::this_thread::sleep_for(std::chrono::milliseconds(20));
		left = processes_in_group(pid);
	}
	EXPECT_EQ(left, 0u) << "prover processes outlived prove";
	if (left)
		::kill(-pid, SIGKILL);
}

TEST(cli_bad_input_signals, sigint_during_prove_ends_it_and_its_children)
{
	expect_signal_ends_prove_and_its_children(SIGINT);
}

TEST(cli_bad_input_signals, sigterm_during_prove_ends_it_and_its_children)
{
	expect_signal_ends_prove_and_its_children(SIGTERM);
}

} // namespace
} // namespace ptespec::cli_test
