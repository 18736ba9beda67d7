// A kernel tree's modules as a strategy: each call runs the tree's own
// function, and every pte access and TLB invalidation it makes is a
// primitive of the machine the call runs on (kernel/tree.h).

#include <dlfcn.h>

#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "impl/adapter.h"
#include "kernel/tree.h"
#include "model/errors.h"
#include "model/history.h"
#include "model/pte.h"
#include "kernel/shim/include/ptespec/host.h"

namespace ptespec::kernel {

namespace fs = std::filesystem;

namespace {

// The tree's pte pointers point into this: a table's worth of entries
// before the table and after it (a pointer one past a range is still a pte
// access the machine judges), the table aligned to a run.  Never read or
// written: every access goes to the machine.  One per thread, grown as
// tables grow.
class shadow_table {
public:
	std::uint64_t* table(std::size_t nr_entries, std::size_t cont_ptes)
	{
		const std::size_t align = std::max<std::size_t>(cont_ptes * 8, 64);
		const std::size_t need = 3 * nr_entries * 8;
		if (!mem_ || need > bytes_ || align > align_) {
			bytes_ = std::max(need, bytes_);
			align_ = std::max(align, align_);
			const std::size_t rounded = (bytes_ + align_ - 1) / align_ * align_;
			mem_.reset(static_cast<std::uint64_t*>(std::aligned_alloc(align_, rounded)));
			if (!mem_)
				throw std::bad_alloc();
			for (std::size_t k = 0; k < rounded / 8; k++)
				mem_.get()[k] = poison;
		}
		return mem_.get() + nr_entries;
	}

private:
	// Not a valid entry; what a plain dereference of a pte pointer would see.
	static constexpr std::uint64_t poison = 0x5a5a5a5a5a5a5a5aull & ~PTE_VALID;
	struct freer {
		void operator()(std::uint64_t* p) const { std::free(p); }
	};
	std::unique_ptr<std::uint64_t, freer> mem_;
	std::size_t bytes_ = 0, align_ = 0;
};

thread_local shadow_table shadow;

std::string tree_relative(const char* file)
{
	const std::string f = file ? file : "?";
	const std::size_t at = f.find("/src/");
	if (at != std::string::npos)
		return f.substr(at + 5);
	const std::size_t shim = f.find("/shim/");
	return shim != std::string::npos ? "ptespec shim kernel" + f.substr(shim) : f;
}

// One call of the tree's code on machine M: the host functions the module
// calls back, and the primitive budget that stands for "never returns".
template <class M>
struct session {
	using W = typename M::word;

	M& m;
	const call& c;
	std::size_t budget;
	std::size_t primitives = 0;

	static session& of(void* ctx) { return *static_cast<session*>(ctx); }
	static std::uint64_t value(const W& w) { return word_ops<W>::value(w); }

	// The template strategies give up a lockless read after a bounded
	// number of passes over a run; the tree's own retry loops are bounded here instead, by
	// primitives: far more than any call that finishes makes.
	void tick()
	{
		if (++primitives > budget)
			throw strategy_livelock(fmt::format("{}: the tree's code made {} primitives without returning "
							    "(a retry loop that never succeeds)",
							    describe(c), budget));
	}

	static std::uint64_t load(void* ctx, std::size_t i)
	{
		session& s = of(ctx);
		s.tick();
		return value(s.m.read(i));
	}
	static void store(void* ctx, std::size_t i, std::uint64_t v)
	{
		session& s = of(ctx);
		s.tick();
		s.m.write(i, s.m.lit(v));
	}
	static std::uint64_t exchange(void* ctx, std::size_t i, std::uint64_t v)
	{
		session& s = of(ctx);
		s.tick();
		return value(s.m.exchange(i, s.m.lit(v)));
	}
	// A cmpxchg is one atomic step, a pure function of the old value: on a
	// mismatch it stores what was there.
	static std::uint64_t compare_exchange(void* ctx, std::size_t i, std::uint64_t expected, std::uint64_t desired)
	{
		session& s = of(ctx);
		s.tick();
		return value(s.m.atomic_update(
			i, [&](const W& old) { return value(old) == expected ? s.m.lit(desired) : old; }));
	}
	static void flush(void* ctx, int kind, std::size_t first, std::size_t nr, unsigned flags)
	{
		session& s = of(ctx);
		s.tick();
		// The shim's last-level hint changes nothing the model holds (it
		// keeps no walk caches); a level hint is recorded only when it is
		// not a pte's (flush_level).
		const int level = PTESPEC_FLUSH_LEVEL_OF(flags);
		const unsigned f = ((flags & PTESPEC_FLUSH_LOCAL) ? flush_local : 0u) |
				   ((flags & PTESPEC_FLUSH_NOSYNC) ? flush_nosync : 0u) |
				   flush_stride(PTESPEC_FLUSH_STRIDE_OF(flags)) |
				   (level >= 0 ? flush_level(static_cast<unsigned>(level)) : 0u);
		if (kind == PTESPEC_FLUSH_PAGE)
			s.m.flush_tlb_page(first, f);
		else if (kind == PTESPEC_FLUSH_RANGE)
			s.m.flush_tlb_range(first, nr, f);
		else
			s.m.flush_tlb_all(f);
	}
	static int folio_of(void* ctx, std::uint64_t pfn, std::uint64_t* first, std::uint64_t* nr)
	{
		const std::vector<folio_extent>& folios = of(ctx).m.folios();
		const long f = ptespec::folio_of(folios, pfn);
		if (f < 0)
			return 0;
		*first = folios[static_cast<std::size_t>(f)].first_pfn;
		*nr = folios[static_cast<std::size_t>(f)].nr_pages;
		return 1;
	}
	// The call stops at the check that fired, and is judged: the kernel
	// would print a warning (or oops) here.
	static void warn(void*, const char* file, int line, const char* condition, int fatal)
	{
		throw strategy_fault(fmt::format("{}:{}: {}({}) fired", tree_relative(file), line,
						 fatal ? "BUG_ON" : "WARN_ON", condition ? condition : ""));
	}

	ptespec_host host()
	{
		ptespec_host h{};
		h.ctx = this;
		h.load = load;
		h.store = store;
		h.exchange = exchange;
		h.compare_exchange = compare_exchange;
		h.flush = flush;
		h.folio_of = folio_of;
		h.warn = warn;
		// cpu_has_hw_af() answers what the machine models too.
		h.features[PTESPEC_FEATURE_HAFDBS] = m.features().no_hafdbs ? 0 : 1;
		// system_supports_bbml2_noabort() answers what the machine models.
		h.features[PTESPEC_FEATURE_BBML2_NOABORT] = m.features().bbml2_noabort ? 1 : 0;
		return h;
	}
};

struct module {
	void* handle = nullptr;
	const ptespec_kernel_module* k = nullptr;
};

class tree_strategy final : public strategy {
public:
	tree_strategy(strategy_info info, module mods[3]) : info_(std::move(info))
	{
		for (std::size_t g = 0; g < 3; g++)
			mods_[g] = mods[g];
		// Every granule's module is built from the same sources: the 4K
		// one says which calls the tree has.
		for (std::size_t k = 0; k < nr_call_kinds; k++)
			implemented_[k] = call_of(*mods_[0].k, static_cast<call_kind>(k)) != nullptr;
	}
	const strategy_info& info() const override { return info_; }
	bool implements(call_kind k) const override { return implemented_[static_cast<std::size_t>(k)]; }
	bool batch_is_generic(call_kind) const override { return false; }
	call_result invoke(machine& m, const call& c) override { return run(m, c); }
	call_result invoke(counted_machine& m, const call& c) override { return run(m, c); }
	sym_call_result invoke(symbolic_machine&, const call&) override
	{
		throw usage_error(fmt::format("strategy '{}': a kernel tree's code runs on concrete words only; "
					      "ptespec cannot prove it yet (test, check, explore, cost and demo judge it)",
					      info_.name));
	}
	bool symbolic() const override { return false; }
	// The tree's hint, given a pointer into a run-aligned table (the
	// thread's shadow, never dereferenced): its answer depends on the
	// pointer's bits, as the kernel's does.
	std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte) const override
	{
		const ptespec_kernel_module& k = *mods_[static_cast<std::size_t>(g.gran)].k;
		const std::size_t runs = i / g.cont_ptes + 1;
		return k.pte_batch_hint(shadow.table(runs * g.cont_ptes, g.cont_ptes), i, pte);
	}

	std::vector<function_origin> origins() const
	{
		std::vector<function_origin> out;
		const ptespec_kernel_module& k = *mods_[0].k;
		for (unsigned n = 0; n < k.nr_origins; n++)
			out.push_back({k.origins[n].name, k.origins[n].origin});
		return out;
	}

private:
	static const void* call_of(const ptespec_kernel_module& k, call_kind kind)
	{
		const ptespec_kernel_calls& f = k.calls;
		switch (kind) {
		case call_kind::set_ptes: return reinterpret_cast<const void*>(f.set_ptes);
		case call_kind::ptep_get: return reinterpret_cast<const void*>(f.ptep_get);
		case call_kind::ptep_get_lockless: return reinterpret_cast<const void*>(f.ptep_get_lockless);
		case call_kind::ptep_get_and_clear: return reinterpret_cast<const void*>(f.ptep_get_and_clear);
		case call_kind::ptep_get_and_clear_full: return reinterpret_cast<const void*>(f.ptep_get_and_clear_full);
		case call_kind::get_and_clear_full_ptes: return reinterpret_cast<const void*>(f.get_and_clear_full_ptes);
		case call_kind::clear_full_ptes: return reinterpret_cast<const void*>(f.clear_full_ptes);
		case call_kind::clear_non_present_ptes: return reinterpret_cast<const void*>(f.clear_non_present_ptes);
		case call_kind::ptep_test_and_clear_young:
			return reinterpret_cast<const void*>(f.ptep_test_and_clear_young);
		case call_kind::ptep_clear_flush_young: return reinterpret_cast<const void*>(f.ptep_clear_flush_young);
		case call_kind::wrprotect_ptes: return reinterpret_cast<const void*>(f.wrprotect_ptes);
		case call_kind::clear_young_dirty_ptes: return reinterpret_cast<const void*>(f.clear_young_dirty_ptes);
		case call_kind::ptep_set_access_flags: return reinterpret_cast<const void*>(f.ptep_set_access_flags);
		case call_kind::contpte_try_fold: return reinterpret_cast<const void*>(f.contpte_try_fold);
		case call_kind::contpte_try_unfold: return reinterpret_cast<const void*>(f.contpte_try_unfold);
		case call_kind::test_and_clear_young_ptes:
			return reinterpret_cast<const void*>(f.test_and_clear_young_ptes);
		case call_kind::clear_flush_young_ptes: return reinterpret_cast<const void*>(f.clear_flush_young_ptes);
		case call_kind::modify_prot_start_ptes: return reinterpret_cast<const void*>(f.modify_prot_start_ptes);
		case call_kind::modify_prot_commit_ptes:
			return reinterpret_cast<const void*>(f.modify_prot_commit_ptes);
		}
		return nullptr;
	}

	template <class M>
	call_result run(M& m, const call& c)
	{
		if (!implements(c.kind))
			throw internal_error(fmt::format("strategy '{}' does not implement {}", info_.name,
							 to_string(c.kind)));
		check_call_range(c, m.size(), m.geo());
		const ptespec_kernel_module& k = *mods_[static_cast<std::size_t>(m.geo().gran)].k;
		session<M> s{m, c, 256 * (m.size() + 16)};
		const ptespec_host h = s.host();
		const ptespec_binding b{&h, shadow.table(m.size(), m.geo().cont_ptes), m.size()};
		struct rebind {
			const ptespec_kernel_module& k;
			const ptespec_binding* prev;
			~rebind() { k.bind(prev); }
		} guard{k, k.bind(&b)};

		const ptespec_kernel_calls& f = k.calls;
		const auto nr = static_cast<unsigned>(c.nr);
		call_result r;
		switch (c.kind) {
		case call_kind::set_ptes: f.set_ptes(c.index, c.pte, nr); break;
		case call_kind::ptep_get: r.pte = f.ptep_get(c.index); break;
		case call_kind::ptep_get_lockless: r.pte = f.ptep_get_lockless(c.index); break;
		case call_kind::ptep_get_and_clear: r.pte = f.ptep_get_and_clear(c.index); break;
		case call_kind::ptep_get_and_clear_full: r.pte = f.ptep_get_and_clear_full(c.index, c.full); break;
		case call_kind::get_and_clear_full_ptes: r.pte = f.get_and_clear_full_ptes(c.index, nr, c.full); break;
		case call_kind::clear_full_ptes: f.clear_full_ptes(c.index, nr, c.full); break;
		case call_kind::clear_non_present_ptes: f.clear_non_present_ptes(c.index, nr); break;
		case call_kind::ptep_test_and_clear_young: r.young = f.ptep_test_and_clear_young(c.index) != 0; break;
		case call_kind::ptep_clear_flush_young: r.young = f.ptep_clear_flush_young(c.index) != 0; break;
		case call_kind::wrprotect_ptes: f.wrprotect_ptes(c.index, nr); break;
		case call_kind::clear_young_dirty_ptes: f.clear_young_dirty_ptes(c.index, nr, c.flags); break;
		case call_kind::ptep_set_access_flags:
			r.changed = f.ptep_set_access_flags(c.index, c.pte, c.flags != 0) != 0;
			break;
		case call_kind::contpte_try_fold: f.contpte_try_fold(c.index); break;
		case call_kind::contpte_try_unfold: f.contpte_try_unfold(c.index); break;
		case call_kind::test_and_clear_young_ptes: r.young = f.test_and_clear_young_ptes(c.index, nr) != 0; break;
		case call_kind::clear_flush_young_ptes: r.young = f.clear_flush_young_ptes(c.index, nr) != 0; break;
		case call_kind::modify_prot_start_ptes: r.pte = f.modify_prot_start_ptes(c.index, nr); break;
		case call_kind::modify_prot_commit_ptes: f.modify_prot_commit_ptes(c.index, c.pte, nr); break;
		}
		return r;
	}

	strategy_info info_;
	module mods_[3];
	bool implemented_[nr_call_kinds] = {};
};

// The tree's bit definitions must be the model's: the checker and the
// generators speak the model's layout.
void check_bits(const tree& t, const ptespec_kernel_module& k)
{
	struct expect {
		const char* name;
		std::uint64_t value;
	};
	const expect model[] = {{"PTE_VALID", PTE_VALID},   {"PTE_USER", PTE_USER}, {"PTE_RDONLY", PTE_RDONLY},
				{"PTE_SHARED", PTE_SHARED}, {"PTE_AF", PTE_AF},     {"PTE_NG", PTE_NG},
				{"PTE_WRITE", PTE_WRITE},   {"PTE_CONT", PTE_CONT}, {"PTE_PXN", PTE_PXN},
				{"PTE_UXN", PTE_UXN},       {"PTE_DIRTY", PTE_DIRTY}, {"PTE_SPECIAL", PTE_SPECIAL}};
	for (unsigned n = 0; n < k.nr_bits && n < 16; n++)
		for (const expect& e : model)
			if (std::string_view(k.bit_names[n]) == e.name && k.bits[n] != e.value)
				throw usage_error(fmt::format("--kernel '{}': the tree defines {} as {:#x}, ptespec's model "
							      "as {:#x}; it cannot judge a tree with another bit layout",
							      t.dir.string(), e.name, k.bits[n], e.value));
}

module open_module(const tree& t, const fs::path& file, granule g)
{
	module mod;
	mod.handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
	if (!mod.handle) {
		const char* e = dlerror();
		throw usage_error(fmt::format("--kernel '{}': the built module {} does not load: {}", t.dir.string(),
					      file.string(), e ? e : "unknown error"));
	}
	using entry_fn = const ptespec_kernel_module* (*)();
	void* sym = dlsym(mod.handle, PTESPEC_KERNEL_ENTRY_NAME);
	if (!sym)
		throw usage_error(fmt::format("--kernel '{}': the built module {} has no {} (a stale cache entry? "
					      "remove it)",
					      t.dir.string(), file.string(), PTESPEC_KERNEL_ENTRY_NAME));
	mod.k = reinterpret_cast<entry_fn>(sym)();
	const geometry geo = geometry::of(g);
	if (!mod.k || mod.k->abi != PTESPEC_KERNEL_ABI)
		throw usage_error(fmt::format("--kernel '{}': the built module {} speaks another module ABI; remove "
					      "it from the cache",
					      t.dir.string(), file.string()));
	if (mod.k->page_shift != geo.page_shift || mod.k->cont_ptes != geo.cont_ptes)
		throw usage_error(fmt::format("--kernel '{}': built for {} pages, the tree has PAGE_SHIFT {} and "
					      "CONT_PTES {}; expected {} and {}",
					      t.dir.string(), to_string(g), mod.k->page_shift, mod.k->cont_ptes,
					      geo.page_shift, geo.cont_ptes));
	check_bits(t, *mod.k);
	return mod;
}

} // namespace

strategy& load_tree(const tree_spec& spec, registry& r, const build_options& o)
{
	const tree t = open_tree(spec);
	const built_tree b = build_tree(t, o);
	module mods[3];
	const granule grans[3] = {granule::k4, granule::k16, granule::k64};
	for (std::size_t g = 0; g < 3; g++)
		mods[g] = open_module(t, b.modules[g], grans[g]);
	strategy_info info{t.name,
			   fmt::format("the contpte code of the kernel tree {}{}", t.dir.string(),
				       t.version.empty() ? "" : " (" + t.version + ")"),
			   std::string(kernel_tree_origin) + t.dir.string()};
	auto s = std::make_unique<tree_strategy>(std::move(info), mods);
	strategy& ref = *s;
	r.add(std::move(s));
	return ref;
}

std::vector<function_origin> function_origins(const strategy& s)
{
	if (const auto* t = dynamic_cast<const tree_strategy*>(&s))
		return t->origins();
	return {};
}

} // namespace ptespec::kernel
