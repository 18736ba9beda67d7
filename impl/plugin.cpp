// Loads strategy plugins (impl/plugin_api.h).

#include "impl/plugin_api.h"

#include <dlfcn.h>

#include <memory>

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec {

namespace {

[[noreturn]] void bad_plugin(const std::string& path, const std::string& what)
{
	throw usage_error(fmt::format("--plugin '{}': {}", path, what));
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

} // namespace

strategy& load_plugin(const std::string& path, registry& r)
{
	// Without a slash dlopen searches the library path instead of opening
	// the file the user named.
	const std::string file = path.find('/') == std::string::npos ? "./" + path : path;

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
		bad_plugin(path, "built against model headers whose types differ from this ptespec's "
				 "(same plugin ABI number: a bump was forgotten); rebuild it against this ptespec");
	if (!d->name || !*d->name || !d->factory)
		bad_plugin(path, "its descriptor has no strategy name or no factory");

	if (const strategy* other = r.find(d->name))
		bad_plugin(path, fmt::format("strategy '{}' is already registered (from {})", d->name,
					     other->info().origin));

	std::unique_ptr<strategy> s(d->factory(path.c_str()));
	if (!s)
		bad_plugin(path, fmt::format("the factory of '{}' returned no strategy", d->name));
	strategy& ref = *s;
	r.add(std::move(s));
	return ref;
}

} // namespace ptespec
