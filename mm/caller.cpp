#include "mm/caller.h"

#include "model/errors.h"

namespace ptespec::mm {

namespace {

// folio_pte_batch as core-mm has it (mm/callers.cpp).
struct core_mm_batch {
	std::size_t folio_pte_batch(call_sink& s, const memory& mem, std::size_t i, std::size_t last,
				    std::uint64_t pte, bool writable_only, std::size_t limit) const
	{
		return mm::folio_pte_batch(s, mem, i, last, pte, writable_only, limit);
	}
};

} // namespace

caller_registry::caller_registry()
{
	list_.push_back(std::make_unique<named_caller<core_mm_batch>>(
		"core-mm", "as the kernel calls today: folio_pte_batch with pte_batch_hint, batches end at the folio",
		"builtin"));
}

caller_registry& caller_registry::global()
{
	static caller_registry r;
	return r;
}

const caller& core_mm()
{
	static const caller& c = *caller_registry::global().find("core-mm");
	return c;
}

void caller_registry::add(std::unique_ptr<caller> c)
{
	if (const caller* other = find(c->info().name))
		throw usage_error("caller '" + c->info().name + "' (" + c->info().origin +
				  "): a caller of that name is already registered (from " + other->info().origin + ")");
	list_.push_back(std::move(c));
}

const caller* caller_registry::find(std::string_view name) const
{
	for (const auto& c : list_)
		if (c->info().name == name)
			return c.get();
	return nullptr;
}

const caller& caller_registry::get(std::string_view name) const
{
	if (const caller* c = find(name))
		return *c;
	std::string known;
	for (const auto& c : list_)
		known += (known.empty() ? "" : ", ") + c->info().name;
	throw usage_error("--caller '" + std::string(name) + "': unknown; expected one of " + known);
}

std::vector<const caller*> caller_registry::all() const
{
	std::vector<const caller*> v;
	for (const auto& c : list_)
		v.push_back(c.get());
	return v;
}

} // namespace ptespec::mm
