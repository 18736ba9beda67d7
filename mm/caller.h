// A caller variant: core-mm's callers (mm/callers.h) with one decision made
// another way, to judge what a caller-side mistake does to the arch code.
//
// What a variant decides is the batch: folio_pte_batch, how many entries
// from a present one form the batch that zap, fork, MADV_FREE and reclaim
// hand to one call.  The walks around it stay core-mm's.  A variant is one
// class with that function, registered by name in-tree
//
//   PTESPEC_CALLER(my_caller, "my-caller", "one line saying what it does")
//
// in mm/contrib/my_caller.cpp, or out of tree with PTESPEC_CALLER_PLUGIN
// (impl/plugin_api.h); `--caller my-caller` then drives every command's
// calls with it.  The default, `core-mm`, is today's kernel.  Whatever a
// variant decides, every call it makes is checked against the rules the
// arch code relies on (mm/caller_rules.h) before the strategy sees it.
//
// This header is all a variant needs: a plugin carries no mm code of its
// own, so the helpers below are inline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mm/callers.h"
#include "model/pte.h"

namespace ptespec::mm {

struct caller_info {
	std::string name;	// stable, what --caller takes
	std::string description;	// one line, what `ptespec list` prints
	std::string origin;	// "builtin", "in-tree", or the plugin's path
};

class caller {
public:
	virtual ~caller() = default;
	virtual const caller_info& info() const = 0;
	// folio_pte_batch: how many entries from `i` on (i < last) one batched
	// call covers, given that `pte` is what ptep_get read at `i`, the walk
	// ends at `last`, and the caller asked for at most `limit` entries (0:
	// no limit).  With `writable_only` (fork) a read-only entry ends it.
	// What it reads it reads through `s` (ptep_get calls, which the
	// harness judges like any other).
	virtual std::size_t folio_pte_batch(call_sink& s, const memory& mem, std::size_t i, std::size_t last,
					    std::uint64_t pte, bool writable_only, std::size_t limit) const = 0;
};

// ptep_get(i) through the sink; nullopt when the call did not run.
inline std::optional<std::uint64_t> read_pte(call_sink& s, std::size_t i)
{
	const std::optional<call_result> r = s.run({call_kind::ptep_get, i, 1, false, 0, 0});
	if (!r || !r->pte)
		return std::nullopt;
	return *r->pte;
}

// pte's folio, as page_folio says: a declared folio, or (when none holds
// the pfn) a folio of that one page.
inline folio_extent folio_holding(const memory& mem, std::uint64_t pte)
{
	const std::uint64_t pfn = pte_pfn(pte, mem.geo);
	const long f = folio_of(mem.folios, pfn);
	return f < 0 ? folio_extent{pfn, 1} : mem.folios[static_cast<std::size_t>(f)];
}

// The pages of pte's folio from pte's page on.
inline std::size_t folio_pages_from(const memory& mem, std::uint64_t pte)
{
	const folio_extent fe = folio_holding(mem, pte);
	return static_cast<std::size_t>(fe.first_pfn + fe.nr_pages - pte_pfn(pte, mem.geo));
}

// The pages of pte's folio, all of them (folio_nr_pages).
inline std::size_t folio_nr_pages(const memory& mem, std::uint64_t pte)
{
	return static_cast<std::size_t>(folio_holding(mem, pte).nr_pages);
}

// Today's core-mm: mm::folio_pte_batch with pte_batch_hint.
const caller& core_mm();

// A variant class C (default-constructible, with C::folio_pte_batch) under
// a name.
template <class C>
class named_caller final : public caller {
public:
	named_caller(std::string name, std::string description, std::string origin)
		: info_{std::move(name), std::move(description), std::move(origin)}
	{
	}
	const caller_info& info() const override { return info_; }
	std::size_t folio_pte_batch(call_sink& s, const memory& mem, std::size_t i, std::size_t last,
				    std::uint64_t pte, bool writable_only, std::size_t limit) const override
	{
		return impl_.folio_pte_batch(s, mem, i, last, pte, writable_only, limit);
	}

private:
	caller_info info_;
	C impl_;
};

// The known callers: core-mm first, then in-tree variants and plugins.
class caller_registry {
public:
	static caller_registry& global();
	void add(std::unique_ptr<caller> c);	// throws usage_error on a duplicate name
	const caller* find(std::string_view name) const;
	const caller& get(std::string_view name) const;	// throws usage_error naming the input
	std::vector<const caller*> all() const;

private:
	caller_registry();
	std::vector<std::unique_ptr<caller>> list_;
};

struct caller_registrar {
	explicit caller_registrar(std::unique_ptr<caller> c) { caller_registry::global().add(std::move(c)); }
};

} // namespace ptespec::mm

#define PTESPEC_CALLER_CAT2(a, b) a##b
#define PTESPEC_CALLER_CAT(a, b) PTESPEC_CALLER_CAT2(a, b)
#define PTESPEC_CALLER(cls, name, description)                                                       \
	static const ::ptespec::mm::caller_registrar PTESPEC_CALLER_CAT(ptespec_caller_registrar_, __LINE__)( \
		std::make_unique<::ptespec::mm::named_caller<cls>>(name, description, "in-tree"))
