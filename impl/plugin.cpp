// Loads strategy plugins (impl/plugin_api.h).

#include "impl/plugin_api.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec {

namespace {

[[noreturn]] void bad_plugin(const std::string& path, const std::string& what)
{
	throw usage_error(fmt::format("plugin '{}': {}", path, what));
}

// dlerror() may span lines (the loader quotes the ELF reader); the user
// gets one.
std::string one_line(const char* s)
{
	std::string out = s ? s : "unknown error";
	for (char& c : out)
		if (c == '\n')
			c = ' ';
	return out;
}

constexpr const char* expected_module = "expected a shared object built with ptespec_add_plugin";

#if defined(__x86_64__)
constexpr unsigned host_machine = EM_X86_64;
#elif defined(__aarch64__)
constexpr unsigned host_machine = EM_AARCH64;
#else
constexpr unsigned host_machine = EM_NONE;	// not checked
#endif

// dlopen maps a module's segments where its program headers say, whatever
// the file's size: a truncated module maps pages past the file's end and
// the loader dies of SIGBUS reading them, printing nothing.  So the file is
// checked against its own ELF headers first, and a file that cannot be a
// whole module for this machine is refused in one line.
void check_module_file(const std::string& path, const std::string& file)
{
	struct stat st;
	if (::stat(file.c_str(), &st) != 0)
		bad_plugin(path, fmt::format("cannot load: {}: {}; {}", file, std::strerror(errno), expected_module));
	if (S_ISDIR(st.st_mode))
		bad_plugin(path, fmt::format("cannot load: a directory; {}", expected_module));
	if (!S_ISREG(st.st_mode))
		bad_plugin(path, fmt::format("cannot load: not a regular file; {}", expected_module));
	const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
	if (size == 0)
		bad_plugin(path, fmt::format("cannot load: an empty file; {}", expected_module));
	const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		bad_plugin(path, fmt::format("cannot load: {}: {}; {}", file, std::strerror(errno), expected_module));
	auto read_at = [&](void* to, std::size_t n, std::uint64_t at) {
		return ::pread(fd, to, n, static_cast<off_t>(at)) == static_cast<ssize_t>(n);
	};
	Elf64_Ehdr eh{};
	const bool whole_header = size >= sizeof eh && read_at(&eh, sizeof eh, 0);
	if (!whole_header || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
		::close(fd);
		bad_plugin(path, fmt::format("cannot load: not an ELF file ({} bytes, no ELF header); {}", size,
					     expected_module));
	}
	auto refuse = [&](const std::string& why) {
		::close(fd);
		bad_plugin(path, fmt::format("cannot load: {}; {}", why, expected_module));
	};
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (host_machine != EM_NONE && eh.e_machine != host_machine))
		refuse(fmt::format("an ELF file for another machine (class {}, machine {})", eh.e_ident[EI_CLASS],
				   eh.e_machine));
	if (eh.e_type != ET_DYN)
		refuse(fmt::format("an ELF file but not a shared object (type {})", eh.e_type));
	auto truncated = [&](std::uint64_t needs) {
		refuse(fmt::format("truncated or corrupt: the file has {} bytes, its ELF headers describe {}", size, needs));
	};
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0)
		refuse("corrupt: no program headers of this ELF class");
	const std::uint64_t ph_end = eh.e_phoff + std::uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr);
	if (eh.e_phoff > size || ph_end > size)
		truncated(ph_end);
	for (unsigned k = 0; k < eh.e_phnum; k++) {
		Elf64_Phdr ph{};
		if (!read_at(&ph, sizeof ph, eh.e_phoff + std::uint64_t{k} * sizeof ph))
			truncated(ph_end);
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			truncated(ph.p_offset + ph.p_filesz);
	}
	if (eh.e_shnum != 0) {
		const std::uint64_t sh_end = eh.e_shoff + std::uint64_t{eh.e_shnum} * eh.e_shentsize;
		if (eh.e_shoff > size || sh_end > size)
			truncated(sh_end);
	}
	::close(fd);
}

// The headers can be whole while what they point at is not: the module is
// loaded once in a child process first, so that a loader that crashes on
// it (or a constructor that never returns) costs the child, and the user
// gets one line.  Returns normally when the child loaded it or dlopen
// merely failed there (the parent's dlopen then says why).
void trial_load(const std::string& path, const std::string& file)
{
	std::fflush(nullptr);
	const pid_t pid = ::fork();
	if (pid < 0)
		return;	// no child to spare: the parent's own load is the trial
	if (pid == 0) {
		// Nothing the module prints in its constructors is the user's.
		const int null = ::open("/dev/null", O_WRONLY);
		if (null >= 0) {
			::dup2(null, STDOUT_FILENO);
			::dup2(null, STDERR_FILENO);
		}
		_exit(dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL) ? 0 : 1);
	}
	constexpr int limit_ms = 5000;
	int status = 0;
	for (int waited = 0;; waited += 10) {
		const pid_t got = ::waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return;
		if (waited >= limit_ms) {
			::kill(pid, SIGKILL);
			::waitpid(pid, &status, 0);
			bad_plugin(path, fmt::format("cannot load: loading it did not finish in {} s (a constructor that "
						     "never returns?); {}",
						     limit_ms / 1000, expected_module));
		}
		const timespec ten_ms{0, 10'000'000};
		::nanosleep(&ten_ms, nullptr);
	}
	if (WIFSIGNALED(status))
		bad_plugin(path, fmt::format("cannot load: the loader died of signal {} ({}) loading it, a corrupt "
					     "module; {}",
					     WTERMSIG(status), strsignal(WTERMSIG(status)), expected_module));
}

} // namespace

void load_plugin(const std::string& path, registry& r, mm::caller_registry& callers)
{
	// Without a slash dlopen searches the library path instead of opening
	// the file the user named.
	const std::string file = path.find('/') == std::string::npos ? "./" + path : path;

	check_module_file(path, file);
	trial_load(path, file);

	// RTLD_NOW: an unresolved symbol is this load's error, not a crash in
	// the middle of a property run.  RTLD_LOCAL: each plugin carries its
	// own copy of the model; none may bind another's.  The handle is never
	// closed, because the strategy's code and vtable live in the module.
	void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		bad_plugin(path, "cannot load: " + one_line(dlerror()));

	dlerror();
	void* sym = dlsym(handle, PTESPEC_PLUGIN_ENTRY_NAME);
	if (!sym)
		bad_plugin(path, "not a ptespec plugin (it has no " PTESPEC_PLUGIN_ENTRY_NAME
				 "; build it with PTESPEC_PLUGIN and ptespec_add_plugin)");

	using entry_fn = const plugin_descriptor* (*)();
	const plugin_descriptor* d = reinterpret_cast<entry_fn>(sym)();
	if (!d)
		bad_plugin(path, "its " PTESPEC_PLUGIN_ENTRY_NAME " returned no descriptor");
	// Checked before anything else in the descriptor is trusted: a plugin
	// of another ABI may lay out even the descriptor differently.
	if (d->abi_version != PTESPEC_PLUGIN_ABI)
		bad_plugin(path, fmt::format("built against plugin ABI {}, this ptespec speaks {}; rebuild it "
					     "against this ptespec's headers",
					     d->abi_version, PTESPEC_PLUGIN_ABI));
	if (d->layout != plugin_layout())
		bad_plugin(path, "built against model headers whose types or list of calls differ from this "
				 "ptespec's (same plugin ABI number); rebuild it against this ptespec");
	if (!d->name || !*d->name || (!d->factory == !d->caller_factory))
		bad_plugin(path, "its descriptor has no name, or not exactly one of a strategy and a caller factory");
	if (d->caller_factory) {
		if (const mm::caller* other = callers.find(d->name))
			bad_plugin(path, fmt::format("caller '{}' is already registered (from {})", d->name,
						     other->info().origin));
		std::unique_ptr<mm::caller> c(d->caller_factory(path.c_str()));
		if (!c)
			bad_plugin(path, fmt::format("the factory of caller '{}' returned no caller", d->name));
		callers.add(std::move(c));
		return;
	}

	if (const strategy* other = r.find(d->name))
		bad_plugin(path, fmt::format("strategy '{}' is already registered (from {})", d->name,
					     other->info().origin));

	std::unique_ptr<strategy> s(d->factory(path.c_str()));
	if (!s)
		bad_plugin(path, fmt::format("the factory of '{}' returned no strategy", d->name));
	r.add(std::move(s));
}

} // namespace ptespec
