#include <algorithm>

#include "impl/strategy.h"
#include "model/errors.h"

namespace ptespec {

registry& registry::global()
{
	static registry r;
	return r;
}

void registry::add(std::unique_ptr<strategy> s)
{
	if (find(s->info().name))
		throw usage_error("strategy '" + s->info().name + "' (" + s->info().origin +
				  "): a strategy of that name is already registered");
	list_.push_back(std::move(s));
}

strategy* registry::find(std::string_view name) const
{
	for (const auto& s : list_)
		if (s->info().name == name)
			return s.get();
	return nullptr;
}

strategy& registry::get(std::string_view name) const
{
	if (strategy* s = find(name))
		return *s;
	std::string known;
	for (const auto& s : list_)
		known += (known.empty() ? "" : ", ") + s->info().name;
	throw usage_error("strategy '" + std::string(name) + "': unknown; expected one of " + known);
}

std::string loading_flag(const strategy_info& i)
{
	if (i.origin == "builtin" || i.origin == "in-tree")
		return "";
	if (i.origin.starts_with(kernel_tree_origin))
		return " --kernel " + i.name + "=" + i.origin.substr(kernel_tree_origin.size());
	return " --plugin " + i.origin;
}

std::vector<strategy*> registry::all() const
{
	std::vector<strategy*> v;
	for (const auto& s : list_)
		v.push_back(s.get());
	return v;
}

} // namespace ptespec
