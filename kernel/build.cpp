// Compiling a kernel tree into ptespec modules, one per granule, cached by
// the content of everything that goes into them (kernel/tree.h).

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "kernel/embedded.h"
#include "kernel/if_convert.h"
#include "kernel/rmw_loop.h"
#include "kernel/tlbi.h"
#include "kernel/tree.h"
#include "model/errors.h"
#include "kernel/shim/include/ptespec/host.h"

namespace ptespec::kernel {

namespace fs = std::filesystem;

namespace {

struct granule_config {
	const char* name;	// the module's file name
	unsigned page_shift;
	unsigned cont_pte_shift;	// CONFIG_ARM64_CONT_PTE_SHIFT: log2(CONT_PTES)
};
constexpr granule_config configs[3] = {{"4k", 12, 4}, {"16k", 14, 7}, {"64k", 16, 5}};

// A compile that takes longer is stuck (the largest real tree takes about
// a second per granule).
constexpr int compile_limit_s = 120;

std::string read_file(const fs::path& p)
{
	std::ifstream in(p, std::ios::binary);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

void write_file(const fs::path& p, std::string_view text)
{
	fs::create_directories(p.parent_path());
	std::ofstream out(p, std::ios::binary | std::ios::trunc);
	out.write(text.data(), static_cast<std::streamsize>(text.size()));
	if (!out)
		throw usage_error(fmt::format("--kernel: cannot write {} (the module cache)", p.string()));
}

struct fnv {
	std::uint64_t h = 1469598103934665603ull;
	void add(std::string_view s)
	{
		for (unsigned char c : s)
			h = (h ^ c) * 1099511628211ull;
		// A separator, so that ("ab","c") and ("a","bc") differ.
		h = (h ^ 0xff) * 1099511628211ull;
	}
};

bool executable(const fs::path& p)
{
	std::error_code ec;
	return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

fs::path on_path(const std::string& name)
{
	if (name.find('/') != std::string::npos)
		return executable(name) ? fs::path(name) : fs::path();
	const char* path = std::getenv("PATH");
	std::stringstream dirs(path ? path : "/usr/bin:/bin");
	std::string d;
	while (std::getline(dirs, d, ':'))
		if (!d.empty() && executable(fs::path(d) / name))
			return fs::path(d) / name;
	return {};
}

// The compiler the user named in the environment, and no other: a CC that
// names nothing is a mistake to report, not a reason to build with
// whatever `cc` is (the cache key would then name a compiler never asked for).
fs::path named_compiler(const char* var, const std::string& value)
{
	if (fs::path p = on_path(value); !p.empty())
		return p;
	throw usage_error(fmt::format("{} '{}': {}; expected the path or PATH name of an executable {} compiler (one "
				      "word, no arguments), or {} unset",
				      var, value,
				      value.find('/') != std::string::npos && fs::exists(value) ? "not an executable file"
												    : "not found",
				      std::string_view(var) == "CC" ? "C" : "C++", var));
}

fs::path find_compiler(const build_options& o)
{
	if (o.symbolic) {
		// The symbolic build compiles the same sources as C++.
		if (const char* cxx = std::getenv("CXX"); cxx && *cxx)
			return named_compiler("CXX", cxx);
		for (const char* n : {"c++", "g++"})
			if (fs::path p = on_path(n); !p.empty())
				return p;
		throw usage_error("--kernel: no C++ compiler found ($CXX, c++, g++ on PATH); the symbolic build of a "
				  "tree, which the proofs run, compiles its sources as C++");
	}
	if (!o.compiler.empty()) {
		fs::path p = on_path(o.compiler);
		if (p.empty())
			throw usage_error(fmt::format("--kernel: the C compiler '{}' was not found", o.compiler));
		return p;
	}
	if (const char* cc = std::getenv("CC"); cc && *cc)
		return named_compiler("CC", cc);
	std::vector<std::string> tried;
	for (const char* name : {"cc", "gcc"}) {
		if (fs::path p = on_path(name); !p.empty())
			return p;
		tried.push_back(name);
	}
	std::string list;
	for (const std::string& t : tried)
		list += (list.empty() ? "" : ", ") + t;
	throw usage_error(fmt::format("--kernel: no C compiler found (tried {} on PATH); a kernel tree's sources are "
				      "compiled when ptespec loads them",
				      list));
}

fs::path cache_root(const build_options& o)
{
	if (!o.cache_dir.empty())
		return o.cache_dir;
	if (const char* c = std::getenv("PTESPEC_CACHE"); c && *c)
		return c;
	if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
		return fs::path(x) / "ptespec";
	if (const char* h = std::getenv("HOME"); h && *h)
		return fs::path(h) / ".cache" / "ptespec";
	return fs::temp_directory_path() / "ptespec-cache";
}

// hugetlb: the tree's hugetlbpage.c is compiled too (the C build of a
// tree that has it; the proofs do not take the hugetlb calls).
std::vector<std::string> compile_args(const fs::path& cc, const fs::path& work, const granule_config& g,
				      const fs::path& out, bool symbolic, bool hugetlb, const std::vector<std::string>& defines)
{
	const fs::path shim = work / "shim";
	std::vector<std::string> args{cc.string()};
	if (symbolic)
		// The same files as C++, pte words the proofs' terms
		// (ptespec/word.h); -fpermissive takes C's implicit conversions.
		args.insert(args.end(), {"-x", "c++", "-std=gnu++20", "-fpermissive", "-w", "-DPTESPEC_SYMBOLIC"});
	else
		args.insert(args.end(), {"-std=gnu11", "-Werror=implicit-function-declaration", "-Werror=implicit-int",
					 "-Werror=int-conversion", "-Werror=incompatible-pointer-types"});
	const std::vector<std::string> rest{
		"-O2",
		"-fPIC",
		"-shared",
		// A primitive may end the call by an exception (an entry outside
		// the table, a livelock, a WARN): the tree's frames unwind.
		"-fexceptions",
		"-fno-strict-aliasing",
		"-fno-delete-null-pointer-checks",
		"-fvisibility=hidden",
		"-Werror=return-type",
		fmt::format("-DCONFIG_ARM64_PAGE_SHIFT={}", g.page_shift),
		fmt::format("-DCONFIG_ARM64_CONT_PTE_SHIFT={}", g.cont_pte_shift),
		"-I" + (shim / "include").string(),
		"-I" + (work / "src" / "arch" / "arm64" / "include").string(),
		"-include",
		(shim / "include" / "ptespec" / "prelude.h").string(),
		(work / "src" / "arch" / "arm64" / "mm" / "contpte.c").string(),
		(shim / "adapter.c").string(),
		"-o",
		out.string()};
	args.insert(args.end(), defines.begin(), defines.end());
	if (hugetlb)
		args.push_back("-DPTESPEC_TREE_HUGETLB");
	args.insert(args.end(), rest.begin(), rest.end());
	if (hugetlb)
		args.insert(args.end() - 2, (work / "src" / tree_hugetlbpage).string());
	return args;
}

// What the adapter must provide depends on how the tree's headers split
// the work with the rest of arch/arm64: since 2026 the mm tree's
// pgtable.h makes __ptep_set_access_flags an inline over fault.c's
// __ptep_set_access_flags_anysz (with the entry's size), and the adapter
// then gives that one instead.
std::vector<std::string> tree_defines(const std::vector<std::pair<std::string, std::string>>& sources)
{
	std::vector<std::string> d;
	for (const auto& [path, text] : sources)
		if (path.ends_with("asm/pgtable.h") && text.find("__ptep_set_access_flags_anysz") != std::string::npos)
			d.push_back("-DPTESPEC_TREE_SET_ACCESS_FLAGS_ANYSZ");
		else if (path == tree_tlbflush)
			d.push_back("-DPTESPEC_TREE_TLBFLUSH");
	return d;
}

pid_t spawn(const std::vector<std::string>& args, const fs::path& log)
{
	std::vector<char*> argv;
	for (const std::string& a : args)
		argv.push_back(const_cast<char*>(a.c_str()));
	argv.push_back(nullptr);
	const pid_t pid = ::fork();
	if (pid == 0) {
		const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			::dup2(fd, STDOUT_FILENO);
			::dup2(fd, STDERR_FILENO);
		}
		::execv(argv[0], argv.data());
		_exit(127);
	}
	return pid;
}

// The compiler's first error, in the tree's own words: its paths relative
// to the tree, a name the shims lack said as such.
std::string first_diagnostic(const std::string& log, const fs::path& work, const tree& t)
{
	std::istringstream in(log);
	std::string line, first, previous;
	while (std::getline(in, line))
		if (line.find(": error:") != std::string::npos || line.find(": fatal error:") != std::string::npos) {
			first = line;
			// A conflicting declaration names the other one in the next note.
			while (std::getline(in, line))
				if (line.find(": note: previous") != std::string::npos) {
					previous = line.substr(0, line.find(": note:"));
					break;
				} else if (line.find(": error:") != std::string::npos) {
					break;
				}
			break;
		}
	if (first.empty()) {
		std::istringstream again(log);
		std::getline(again, first);
		return fmt::format("--kernel '{}': the C compiler failed: {}", t.dir.string(),
				   first.empty() ? "(no output)" : first);
	}
	auto replace_all = [](std::string& s, const std::string& from, const std::string& to) {
		for (std::size_t at; (at = s.find(from)) != std::string::npos;)
			s.replace(at, from.size(), to);
	};
	const std::string src = (work / "src").string() + "/";
	const std::string shim = (work / "shim").string() + "/";
	const bool in_shim = first.starts_with(shim);
	replace_all(first, src, "");
	replace_all(first, shim, "ptespec shim kernel/shim/");
	replace_all(previous, src, "");
	replace_all(previous, shim, "ptespec shim kernel/shim/");
	// "file:line:col: error: what"
	const std::size_t e = first.find(": error: ") != std::string::npos ? first.find(": error: ")
									     : first.find(": fatal error: ");
	const std::string where = first.substr(0, e);
	const std::string what = first.substr(first.find(':', e + 2) + 2);
	// The first identifier after the opening quote (gcc quotes with ' or
	// with the UTF-8 left quote, whose bytes are no identifier's).
	auto quoted = [&](const std::string& s) {
		const std::size_t a = s.find_first_of("'\u2018");
		std::string name;
		for (std::size_t i = a; a != std::string::npos && i < s.size(); i++) {
			const unsigned char c = static_cast<unsigned char>(s[i]);
			if (std::isalnum(c) || c == '_')
				name += s[i];
			else if (!name.empty())
				break;
		}
		return name;
	};
	const std::string loc = where.substr(0, where.rfind(':'));	// drop the column
	if (!in_shim && (what.starts_with("implicit declaration of function") || what.find("undeclared") != std::string::npos ||
			 what.starts_with("unknown type name")))
		return fmt::format("--kernel '{}': {} uses '{}', which neither the tree's own headers nor ptespec's "
				   "shims define ({})",
				   t.dir.string(), loc, quoted(what), what);
	if (what.find("No such file or directory") != std::string::npos)
		return fmt::format("--kernel '{}': {} includes a header ptespec's shims do not provide ({})",
				   t.dir.string(), loc, what);
	const std::string also = previous.empty() ? "" : fmt::format(" (the other declaration: {})", previous.substr(0, previous.rfind(':')));
	return fmt::format("--kernel '{}': does not compile against ptespec's shims: {}: {}{}", t.dir.string(), loc, what,
			   also);
}

// What goes into a tree's modules, and the cache key it decides.
struct module_inputs {
	std::vector<std::pair<std::string, std::string>> shims, sources;	// path, text
	std::vector<std::string> defines;
	bool hugetlb = false;	// the tree's hugetlbpage.c is compiled
	std::string key;
};

// Everything that goes into a module decides its key.
module_inputs gather_inputs(const tree& t, const build_options& o, const fs::path& cc)
{
	module_inputs in;
	for (const std::string& f : tree_files())
		in.sources.emplace_back(f, read_file(t.dir / f));
	if (t.own_tlbflush) {
		std::optional<std::string> header = host_tlbi_macros(read_file(t.dir / tree_tlbflush));
		if (!header)
			throw usage_error(fmt::format("--kernel '{}': {} defines no __TLBI_0 or __TLBI_1; expected "
						      "arm64's TLBI macros, through which ptespec sees the tree's TLB "
						      "maintenance",
						      t.dir.string(), tree_tlbflush));
		in.sources.emplace_back(tree_tlbflush, std::move(*header));
	}
	in.hugetlb = t.own_hugetlb && !o.symbolic;
	if (in.hugetlb)
		for (const char* f : {tree_hugetlbpage, tree_hugetlb_h})
			in.sources.emplace_back(f, read_file(t.dir / f));
	in.defines = tree_defines(in.sources);
	fnv key;
	key.add(fmt::format("ptespec kernel module abi {}", PTESPEC_KERNEL_ABI));
	std::error_code ec;
	key.add(cc.string());
	key.add(std::to_string(fs::file_size(cc, ec)));
	key.add(std::to_string(fs::last_write_time(cc, ec).time_since_epoch().count()));
	for (const granule_config& g : configs)
		for (const auto& args : compile_args("cc", "W", g, "O", o.symbolic, in.hugetlb, in.defines))
			key.add(args);
	// What is compiled: the symbolic build marks the tree's read-modify-write
	// loops (kernel/rmw_loop.h) and if-converts its files and the adapter's
	// own generic loops (core-mm's, for a tree without the batched calls;
	// kernel/if_convert.h); the C build takes them as they are.
	for (const embedded_file& f : shim_files())
		if (!(t.own_tlbflush && f.path == "include/asm/tlbflush.h"))
			in.shims.emplace_back(f.path, o.symbolic && f.path == "adapter.c" ? if_convert(std::string(f.text)).text
										 : std::string(f.text));
	if (o.symbolic)
		for (auto& [path, text] : in.sources)
			text = if_convert(mark_rmw_loops(text).text).text;
	for (const auto* files : {&in.shims, &in.sources})
		for (const auto& [path, text] : *files) {
			key.add(path);
			key.add(text);
		}
	in.key = fmt::format("{:016x}", key.h);
	return in;
}

// Compiles the three modules in `work` (the inputs written there), at
// once; throws, with `work` removed, when one fails or they take too long.
void compile_modules(const tree& t, const build_options& o, const fs::path& cc, const fs::path& work,
		     const module_inputs& in)
{
	std::error_code ec;
	pid_t pids[3];
	for (std::size_t g = 0; g < 3; g++)
		pids[g] = spawn(compile_args(cc, work, configs[g], work / fmt::format("{}.so", configs[g].name), o.symbolic,
					     in.hugetlb, in.defines),
				work / fmt::format("{}.log", configs[g].name));
	int status[3] = {0, 0, 0};
	bool done[3] = {false, false, false};
	const std::string what = fmt::format("compiling {} for 4K, 16K and 64K pages{}", t.name,
					     o.symbolic ? " (the symbolic build, for the proofs)" : "");
	struct waiting_ends {
		const build_options& o;
		~waiting_ends()
		{
			if (o.waiting)
				o.waiting("");
		}
	} ends{o};
	for (int waited_ms = 0; !(done[0] && done[1] && done[2]); waited_ms += 10) {
		if (o.waiting)
			o.waiting(fmt::format("{}: {} of 3 done", what, int(done[0]) + int(done[1]) + int(done[2])));
		for (std::size_t g = 0; g < 3; g++)
			if (!done[g] && (pids[g] < 0 || ::waitpid(pids[g], &status[g], WNOHANG) == pids[g]))
				done[g] = true;
		if (waited_ms > compile_limit_s * 1000) {
			for (std::size_t g = 0; g < 3; g++)
				if (!done[g]) {
					::kill(pids[g], SIGKILL);
					::waitpid(pids[g], &status[g], 0);
				}
			fs::remove_all(work, ec);
			throw usage_error(fmt::format("--kernel '{}': compiling it took over {} s; stopped",
						      t.dir.string(), compile_limit_s));
		}
		const timespec ten_ms{0, 10'000'000};
		::nanosleep(&ten_ms, nullptr);
	}
	for (std::size_t g = 0; g < 3; g++) {
		const bool ok = pids[g] > 0 && WIFEXITED(status[g]) && WEXITSTATUS(status[g]) == 0;
		if (ok)
			continue;
		const std::string log = read_file(work / fmt::format("{}.log", configs[g].name));
		std::string msg = pids[g] > 0 && WIFEXITED(status[g]) && WEXITSTATUS(status[g]) == 127
					  ? fmt::format("--kernel: the {} compiler {} could not be run", o.symbolic ? "C++" : "C", cc.string())
					  : first_diagnostic(log, work, t);
		if (o.symbolic)
			msg += " (in the symbolic build, which compiles the tree as C++ for the proofs)";
		if (g > 0 && msg.find("does not compile") != std::string::npos)
			msg += fmt::format(" (with {} pages)", configs[g].name);
		fs::remove_all(work, ec);
		throw usage_error(msg);
	}
}

} // namespace

built_tree build_tree(const tree& t, const build_options& o)
{
	const auto t0 = std::chrono::steady_clock::now();
	const fs::path cc = find_compiler(o);
	const module_inputs in = gather_inputs(t, o, cc);

	built_tree b;
	b.key = in.key;
	const fs::path dir = cache_root(o) / "kernel" / b.key;
	std::error_code ec;
	bool all = true;
	for (std::size_t g = 0; g < 3; g++) {
		b.modules[g] = dir / fmt::format("{}.so", configs[g].name);
		all = all && fs::is_regular_file(b.modules[g], ec);
	}
	if (all) {
		b.cached = true;
		return b;
	}

	// Built in a directory of its own, then renamed into place: a build
	// that fails or is interrupted never leaves a module in the cache.
	fs::create_directories(dir.parent_path(), ec);
	if (ec)
		throw usage_error(fmt::format("--kernel: cannot create the module cache {}: {}",
					      dir.parent_path().string(), ec.message()));
	const fs::path work = dir.parent_path() / fmt::format("{}.build-{}", b.key, ::getpid());
	fs::remove_all(work, ec);
	for (const auto& [path, text] : in.shims)
		write_file(work / "shim" / path, text);
	for (const auto& [path, text] : in.sources)
		write_file(work / "src" / path, text);
	compile_modules(t, o, cc, work, in);
	fs::create_directories(dir, ec);
	for (std::size_t g = 0; g < 3; g++)
		fs::rename(work / fmt::format("{}.so", configs[g].name), b.modules[g], ec);
	fs::remove_all(work, ec);
	for (std::size_t g = 0; g < 3; g++)
		if (!fs::is_regular_file(b.modules[g], ec))
			throw usage_error(fmt::format("--kernel: cannot place the built module in the cache {}",
						      dir.string()));
	b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return b;
}

} // namespace ptespec::kernel
