// ptespec: parse, load plugins, run one subcommand, and turn the outcome
// into an exit code.  Nothing below main() prints an error or exits.

#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "impl/plugin_api.h"
#include "kernel/tree.h"
#include "model/errors.h"

namespace ptespec::cli {

namespace {

// Adding a subcommand: one cmd_<name>.cpp defining define_<name>(), its
// declaration in command.h, one line here, one line in cli/CMakeLists.txt.
const command commands[] = {
	{"list", "list the strategies ptespec knows (built in, in-tree, plugins)", define_list},
	{"demo", "race one exit teardown against the hardware and judge it against the spec", define_demo},
	{"test", "judge strategies against every property with randomised callers and racing hardware", define_test},
	{"prove", "prove the obligations with Z3 on the strategy source itself; replay refutations", define_prove},
	{"check", "run test and prove and print one verdict per strategy and property", define_check},
	{"explore", "run every caller scenario under every placement of up to K hardware events (exhaustive)",
	 define_explore},
	{"cost", "count each strategy's primitives and TLB invalidations for a workload, over a baseline", define_cost},
	{"report", "write a markdown report: verdicts, proofs, the cost table and its chart", define_report},
};

std::string command_names()
{
	std::string s;
	for (const command& c : commands)
		s += fmt::format("{}{}", s.empty() ? "" : ", ", c.name);
	return s;
}

// The length of the well-formed UTF-8 character at s[at], or 0.  The
// C1 controls (U+0080..U+009F) count as ill-formed: some terminals act on
// them as on ESC.
std::size_t utf8_length(std::string_view s, std::size_t at)
{
	const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[at + k]); };
	const unsigned char c = b(0);
	const std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
	if (n == 0 || at + n > s.size())
		return 0;
	for (std::size_t k = 1; k < n; k++)
		if ((b(k) & 0xc0) != 0x80)
			return 0;
	if ((n == 2 && c == 0xc2 && b(1) < 0xa0) || (n == 3 && c == 0xe0 && b(1) < 0xa0) ||
	    (n == 3 && c == 0xed && b(1) >= 0xa0) || (n == 4 && c == 0xf0 && b(1) < 0x90) ||
	    (n == 4 && c == 0xf4 && b(1) >= 0x90))
		return 0;
	return n;
}

// A message as one printable line.  Messages quote what the user typed
// ("--strategy 'x': ..."), and what the user typed may hold an escape
// sequence that would recolour or rewrite the terminal: every control
// byte, and every byte that is not well-formed UTF-8, is shown as \xNN,
// and a backslash as \\ so the two cannot be confused.  Line breaks, which
// a message spanning lines (a compiler's diagnostic) holds, become spaces.
std::string one_line(std::string_view s)
{
	std::string out;
	for (std::size_t at = 0; at < s.size();) {
		const unsigned char c = static_cast<unsigned char>(s[at]);
		if (c == '\n' || c == '\r') {
			out += ' ';
			at++;
		} else if (c == '\\') {
			out += "\\\\";
			at++;
		} else if (c >= 0x20 && c < 0x7f) {
			out += static_cast<char>(c);
			at++;
		} else if (const std::size_t n = c >= 0x80 ? utf8_length(s, at) : 0) {
			out += s.substr(at, n);
			at += n;
		} else {
			out += fmt::format("\\x{:02x}", c);
			at++;
		}
	}
	while (!out.empty() && out.back() == ' ')
		out.pop_back();
	return out;
}

// CLI11 would list the extras in its own words; the user gets the one
// that is wrong and what was expected instead.
void reject_extras(const CLI::App& app, const CLI::App* sub)
{
	const std::vector<std::string> sub_extra = sub ? sub->remaining() : std::vector<std::string>{};
	const std::vector<std::string> extra = app.remaining();
	if (!sub_extra.empty()) {
		const std::string& x = sub_extra.front();
		if (x == "--plugin" || x.starts_with("--plugin="))
			throw usage_error(fmt::format("{}: --plugin goes before the command: ptespec --plugin FILE {} ...",
						      sub->get_name(), sub->get_name()));
		if (x == "--kernel" || x.starts_with("--kernel="))
			throw usage_error(fmt::format("{}: --kernel goes before the command: ptespec --kernel DIR {} ...",
						      sub->get_name(), sub->get_name()));
		if (x.starts_with("-"))
			throw usage_error(fmt::format("{}: unknown option '{}'; see 'ptespec {} --help'",
						      sub->get_name(), x, sub->get_name()));
		throw usage_error(fmt::format("{}: unexpected argument '{}'; see 'ptespec {} --help'",
					      sub->get_name(), x, sub->get_name()));
	}
	if (!extra.empty()) {
		const std::string& x = extra.front();
		if (x.starts_with("-"))
			throw usage_error(fmt::format("unknown option '{}'; see 'ptespec --help'", x));
		throw usage_error(fmt::format("unknown command '{}'; expected one of: {}", x, command_names()));
	}
}

void load_plugins(const std::vector<std::string>& plugins)
{
	for (const std::string& p : plugins) {
		if (p.empty())
			throw usage_error("--plugin '': expected a FILE, a module built with ptespec_add_plugin");
		// The loader names the file ("plugin 'x.so': ..."); the user
		// gave it as --plugin.
		try {
			load_plugin(p);
		} catch (const usage_error& e) {
			const std::string what = e.what();
			throw usage_error(what.starts_with("plugin '") ? "--" + what : what);
		}
	}
}

// A tree's build, now or (the symbolic one) when a proof first asks, shows
// on a progress line of its own, taken off when the build ends.
void load_trees(const std::vector<std::string>& kernels)
{
	kernel::build_options build;
	build.waiting = [line = std::shared_ptr<progress_line>()](const std::string& what) mutable {
		if (what.empty()) {
			line.reset();
			return;
		}
		if (!line)
			line = std::make_shared<progress_line>("kernel");
		line->update(what);
	};
	for (const std::string& k : kernels)
		kernel::load_tree(kernel::parse_tree_arg(k), registry::global(), build);
}

int run(int argc, char** argv)
{
	CLI::App app{"ptespec: an executable spec of arm64 contiguous-PTE semantics, the strategies that "
		     "implement them, and the properties that judge them.",
		     "ptespec"};
	app.set_version_flag("--version", "ptespec " PTESPEC_VERSION);
	app.footer("Exit status: 0 everything checked held, 1 a property failed, a proof was refuted or a violation "
		   "was found, 2 bad usage or input, 3 internal error, 4 nothing failed but something is undecided "
		   "(a proof unknown, a search stopped early, a property never exercised).");
	std::vector<std::string> plugins;
	app.add_option("--plugin", plugins,
		       "load a strategy plugin (a module built with ptespec_add_plugin); repeatable; "
		       "give it before the command")
		->type_name("FILE")
		->expected(1)
		->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
	std::vector<std::string> kernels;
	app.add_option("--kernel", kernels,
		       "judge a kernel tree's own contpte code: its arch/arm64/mm/contpte.c and asm/pgtable.h, "
		       "compiled unchanged against ptespec's shims (cached), become a strategy named "
		       "kernel-<version>, or NAME with NAME=DIR; repeatable; give it before the command")
		->type_name("[NAME=]DIR")
		->expected(1)
		->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
	// Unknown words are collected, not thrown, so reject_extras() can
	// name them.
	app.allow_extras();
	app.require_subcommand(0, 1);

	std::vector<std::pair<CLI::App*, action>> subs;
	for (const command& c : commands) {
		CLI::App* sub = app.add_subcommand(c.name, c.summary);
		sub->allow_extras();
		subs.emplace_back(sub, c.define(*sub));
	}

	reject_empty_values(app, argc, argv);
	try {
		app.parse(argc, argv);
	} catch (const CLI::CallForHelp& e) {
		return app.exit(e);
	} catch (const CLI::CallForAllHelp& e) {
		return app.exit(e);
	} catch (const CLI::CallForVersion& e) {
		return app.exit(e);
	} catch (const CLI::ParseError& e) {
		throw usage_error(parse_error_text(app, e));
	}

	const CLI::App* chosen = nullptr;
	const action* act = nullptr;
	for (const auto& [sub, a] : subs)
		if (sub->parsed()) {
			chosen = sub;
			act = &a;
		}
	reject_extras(app, chosen);
	if (!act)
		throw usage_error(fmt::format("no command given; expected one of: {} (see 'ptespec --help')",
					      command_names()));

	load_plugins(plugins);
	load_trees(kernels);
	return (*act)();
}

} // namespace

} // namespace ptespec::cli

int main(int argc, char** argv)
{
	using namespace ptespec::cli;
	// Line by line even into a pipe or a file: a command that runs for
	// minutes (explore, test) is followed as it prints, as on a terminal.
	std::setvbuf(stdout, nullptr, _IOLBF, 0);
	// stdout is flushed before each diagnostic so the two never interleave
	// out of order when both go to one terminal or file.
	try {
		const int rc = run(argc, argv);
		std::fflush(stdout);
		return rc;
	} catch (const ptespec::usage_error& e) {
		std::fflush(stdout);
		std::fprintf(stderr, "ptespec: %s\n", one_line(e.what()).c_str());
		return exit_usage;
	} catch (const ptespec::internal_error& e) {
		std::fflush(stdout);
		std::fprintf(stderr, "ptespec: internal error: %s\n", one_line(e.what()).c_str());
		return exit_internal;
	} catch (const std::exception& e) {
		std::fflush(stdout);
		std::fprintf(stderr, "ptespec: internal error: %s\n", one_line(e.what()).c_str());
		return exit_internal;
	}
}
