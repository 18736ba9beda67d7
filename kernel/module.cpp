// A kernel tree's modules as a strategy: each call runs the tree's own
// function, and every pte access and TLB invalidation it makes is a
// primitive of the machine the call runs on (kernel/tree.h).

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "impl/adapter.h"
#include "kernel/tree.h"
#include "kernel/rmw_run.h"
#include "kernel/tlbi.h"
#include "kernel/tree_calls.h"
#include "model/errors.h"
#include "model/history.h"
#include "model/pte.h"
#include "model/symbolic_machine.h"
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

// The template strategies give up a lockless read after a bounded number
// of passes over a run; the tree's own retry loops are bounded by
// primitives instead: far more than any call that finishes makes.
void count_primitive(std::size_t& primitives, std::size_t budget, const call& c)
{
	if (++primitives > budget)
		throw strategy_livelock(fmt::format("{}: the tree's code made {} primitives without returning "
						    "(a retry loop that never succeeds)",
						    describe(c), budget));
}

// ptespec_host::folio_of from the world's folios.
int answer_folio(const std::vector<folio_extent>& folios, std::uint64_t pfn, std::uint64_t* first, std::uint64_t* nr)
{
	const long f = ptespec::folio_of(folios, pfn);
	if (f < 0)
		return 0;
	*first = folios[static_cast<std::size_t>(f)].first_pfn;
	*nr = folios[static_cast<std::size_t>(f)].nr_pages;
	return 1;
}

// ptespec_host::flush on machine M (the concrete one or the proofs'): the
// shim's flags as the model's flush flags.  The shim's last-level hint
// changes nothing the model holds (it keeps no walk caches); the stride,
// in pages, becomes one in the table's entries.
template <class M>
void flush_on(M& m, int kind, std::size_t first, std::size_t nr, unsigned flags)
{
	const int level = PTESPEC_FLUSH_LEVEL_OF(flags);
	const unsigned order = m.geo().entry_shift - m.geo().page_shift;
	const unsigned stride = PTESPEC_FLUSH_STRIDE_OF(flags);
	const unsigned f = ((flags & PTESPEC_FLUSH_LOCAL) ? flush_local : 0u) |
			   ((flags & PTESPEC_FLUSH_NOSYNC) ? flush_nosync : 0u) |
			   flush_stride(stride > order ? stride - order : 0u) |
			   (level >= 0 ? flush_level(static_cast<unsigned>(level)) : 0u);
	if (kind == PTESPEC_FLUSH_PAGE)
		m.flush_tlb_page(first, f);
	else if (kind == PTESPEC_FLUSH_RANGE)
		m.flush_tlb_range(first, nr, f);
	else
		m.flush_tlb_all(f);
}

// A TLBI of the tree's own tlbflush.h on machine M: decoded now, handed to
// the machine when a DSB completes it (kernel/tlbi.h).
template <class M>
void issue_tlbi(M& m, tlbi_queue& q, const char* op, std::uint64_t operand)
{
	const std::optional<tlbi_effect> e = decode_tlbi(op, operand, m.geo().page_shift, m.size(), m.geo().entry_shift);
	if (!e)
		throw usage_error(fmt::format("--kernel: the tree issues TLBI {}, which ptespec does not model "
					      "(expected an EL1 invalidation by VA, range, ASID or all)",
					      op));
	q.issue(*e);
}

template <class M>
void complete_tlbis(M& m, tlbi_queue& q, int option)
{
	for (const tlbi_effect& e : q.complete(option))
		flush_on(m, e.kind, e.first, e.nr, e.flags);
}

// The call returned: what no DSB waited for is recorded as issued, not complete.
template <class M>
void abandon_tlbis(M& m, tlbi_queue& q)
{
	for (const tlbi_effect& e : q.abandon())
		flush_on(m, e.kind, e.first, e.nr, e.flags);
}

// The features the tree's tests ask, as the machine models them.
template <class M>
void set_features(ptespec_host& h, const M& m)
{
	// cpu_has_hw_af() answers what the machine models too.
	h.features[PTESPEC_FEATURE_HAFDBS] = m.features().no_hafdbs ? 0 : 1;
	// system_supports_bbml2_noabort() answers what the machine models.
	h.features[PTESPEC_FEATURE_BBML2_NOABORT] = m.features().bbml2_noabort ? 1 : 0;
	// TLBI by range and the TTL hint, as CPUs since Armv8.4 have them, so
	// a tree's range encodings and level hints are what reach the machine.
	h.features[PTESPEC_FEATURE_TLB_RANGE] = 1;
	h.features[PTESPEC_FEATURE_TTL] = 1;
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
	tlbi_queue tlbis;

	static session& of(void* ctx) { return *static_cast<session*>(ctx); }
	static std::uint64_t value(const W& w) { return word_ops<W>::value(w); }

	void tick() { count_primitive(primitives, budget, c); }

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
		flush_on(s.m, kind, first, nr, flags);
	}
	static void tlbi(void* ctx, const char* op, std::uint64_t operand)
	{
		session& s = of(ctx);
		s.tick();
		issue_tlbi(s.m, s.tlbis, op, operand);
	}
	static void dsb(void* ctx, int option) { complete_tlbis(of(ctx).m, of(ctx).tlbis, option); }
	void end_call() { abandon_tlbis(m, tlbis); }
	static int folio_of(void* ctx, std::uint64_t pfn, std::uint64_t* first, std::uint64_t* nr)
	{
		return answer_folio(of(ctx).m.folios(), pfn, first, nr);
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
		h.tlbi = tlbi;
		h.dsb = dsb;
		h.folio_of = folio_of;
		h.warn = warn;
		set_features(h, m);
		return h;
	}
};

// One call of the symbolic build (kernel/shim/include/ptespec/word.h) on
// the proofs' machine: every pte word the tree holds is a handle to a term
// kept here for the call; the tree's decisions on words are the machine's
// branches, and a word it turns into a plain integer is decided bit by bit
// (a pfn of a world's folio is a numeral, so that asks nothing).
struct sym_session {
	symbolic_machine& m;
	const call& c;
	std::size_t budget;
	std::size_t primitives = 0;
	std::vector<z3::expr> terms;	// handle h names terms[h - 1]
	int pure = 0;	// depth of values computed on both sides of a decision
	std::unordered_map<std::uint64_t, std::uint64_t> lits;

	static sym_session& of(void* ctx) { return *static_cast<sym_session*>(ctx); }

	std::uint64_t handle(const z3::expr& e)
	{
		terms.push_back(e);
		return terms.size();
	}
	const z3::expr& term(std::uint64_t h) const
	{
		// Only a word the tree never set can hold another handle.
		if (h == 0 || h > terms.size())
			throw strategy_fault(fmt::format("{}: the tree's code used a pte word it never set", describe(c)));
		return terms[h - 1];
	}
	rmw_run rmw;	// a marked read-modify-write loop (kernel/rmw_loop.h)
	tlbi_queue tlbis;

	// `cmpxchg`: the primitive is one (a marked loop's may be its update).
	void tick(bool cmpxchg = false)
	{
		outside_pure("a primitive");
		if (!cmpxchg)
			rmw.other_primitive();
		count_primitive(primitives, budget, c);
	}

	static std::uint64_t load(void* ctx, std::size_t i)
	{
		sym_session& s = of(ctx);
		s.tick();
		return s.handle(s.m.read(i));
	}
	static void store(void* ctx, std::size_t i, std::uint64_t v)
	{
		sym_session& s = of(ctx);
		s.tick();
		s.m.write(i, s.term(v));
	}
	static std::uint64_t exchange(void* ctx, std::size_t i, std::uint64_t v)
	{
		sym_session& s = of(ctx);
		s.tick();
		return s.handle(s.m.exchange(i, s.term(v)));
	}
	static std::uint64_t compare_exchange(void* ctx, std::size_t i, std::uint64_t expected, std::uint64_t desired)
	{
		sym_session& s = of(ctx);
		const std::size_t before = s.primitives;
		s.tick(true);
		const z3::expr e = s.term(expected), d = s.term(desired);
		switch (s.rmw.cmpxchg(i, before, i < s.m.size() && z3::eq(e, s.m.table()[i]))) {
		case rmw_run::cmpxchg_as::read_at_linearisation:
			return s.handle(s.m.read(i));
		case rmw_run::cmpxchg_as::commit:
			return s.handle(s.m.commit(i, d));
		case rmw_run::cmpxchg_as::plain:
			break;
		}
		return s.handle(s.m.atomic_update(i, [&](const z3::expr& old) { return z3::ite(old == e, d, old); }));
	}
	// A marked loop's top of an iteration (step 0), and its test (step 1):
	// round again unasked after the first iteration; after the update the
	// test must be false as it stands (the value read is the value
	// expected); any other loop's test decided as C decides it.
	static int word_rmw(void* ctx, int step, std::uint64_t truth)
	{
		sym_session& s = of(ctx);
		if (step == 0) {
			s.rmw.begin(s.primitives);
			return 0;
		}
		if (s.rmw.forced_again())
			return 1;
		const bool again = s.rmw.must_end() ? !s.term(truth).simplify().is_false() : word_decide(ctx, truth) != 0;
		s.rmw.decided(again);
		return again ? 1 : 0;
	}
	static void flush(void* ctx, int kind, std::size_t first, std::size_t nr, unsigned flags)
	{
		sym_session& s = of(ctx);
		s.tick();
		flush_on(s.m, kind, first, nr, flags);
	}
	static void tlbi(void* ctx, const char* op, std::uint64_t operand)
	{
		sym_session& s = of(ctx);
		s.outside_pure("a TLBI");
		s.tick();
		issue_tlbi(s.m, s.tlbis, op, operand);
	}
	static void dsb(void* ctx, int option) { complete_tlbis(of(ctx).m, of(ctx).tlbis, option); }
	void end_call() { abandon_tlbis(m, tlbis); }
	static int folio_of(void* ctx, std::uint64_t pfn, std::uint64_t* first, std::uint64_t* nr)
	{
		return answer_folio(of(ctx).m.folios(), pfn, first, nr);
	}

	static std::uint64_t word_lit(void* ctx, std::uint64_t v)
	{
		sym_session& s = of(ctx);
		const auto [at, fresh] = s.lits.try_emplace(v, 0);
		if (fresh)
			at->second = s.handle(s.m.lit(v));
		return at->second;
	}
	static std::uint64_t word_op(void* ctx, int op, std::uint64_t a, std::uint64_t b)
	{
		sym_session& s = of(ctx);
		const z3::expr& x = s.term(a);
		const z3::expr& y = s.term(b);
		z3::expr r = x;
		switch (op) {
		case PTESPEC_OP_AND: r = x & y; break;
		case PTESPEC_OP_OR: r = x | y; break;
		case PTESPEC_OP_XOR: r = x ^ y; break;
		case PTESPEC_OP_NOT: r = ~x; break;
		case PTESPEC_OP_ADD: r = x + y; break;
		case PTESPEC_OP_SUB: r = x - y; break;
		case PTESPEC_OP_MUL: r = x * y; break;
		case PTESPEC_OP_UDIV: r = z3::udiv(x, y); break;
		case PTESPEC_OP_UREM: r = z3::urem(x, y); break;
		case PTESPEC_OP_SHL: r = z3::shl(x, y); break;
		case PTESPEC_OP_LSHR: r = z3::lshr(x, y); break;
		case PTESPEC_OP_EQ: r = x == y; break;
		case PTESPEC_OP_NE: r = x != y; break;
		case PTESPEC_OP_ULT: r = z3::ult(x, y); break;
		case PTESPEC_OP_ULE: r = z3::ule(x, y); break;
		case PTESPEC_OP_UGT: r = z3::ugt(x, y); break;
		case PTESPEC_OP_UGE: r = z3::uge(x, y); break;
		case PTESPEC_OP_LNOT: r = !x; break;
		case PTESPEC_OP_LAND: r = x && y; break;
		case PTESPEC_OP_LOR: r = x || y; break;
		case PTESPEC_OP_LXOR: r = x != y; break;
		default: throw internal_error(fmt::format("kernel module: unknown word operation {}", op));
		}
		// Constants fold here, so a value the tree computes from constants
		// stays a numeral (and asks the solver nothing).
		auto constant = [](const z3::expr& e) { return e.is_numeral() || e.is_true() || e.is_false(); };
		if (constant(x) && constant(y))
			r = r.simplify();
		return s.handle(r);
	}
	static int word_decide(void* ctx, std::uint64_t truth)
	{
		sym_session& s = of(ctx);
		const z3::expr& t = s.term(truth);
		if (!t.is_bool())
			throw internal_error("kernel module: a decision on a word, not a truth");
		return s.m.branch(t) ? 1 : 0;
	}
	static std::uint64_t word_value(void* ctx, std::uint64_t word)
	{
		sym_session& s = of(ctx);
		const z3::expr w = s.term(word).simplify();
		std::uint64_t v = 0;
		if (w.is_numeral_u64(v))
			return v;
		// First the value the word has in the model of the path so far,
		// then the one it has with every free variable 0 and false: a
		// word that is one value on every path (a pfn under merged flags;
		// a run's pfn the world pins away from 0) is that, and asks a
		// question or two instead of one per bit.
		std::optional<std::uint64_t> seen = s.m.value_on_path(w);
		if (seen && s.m.branch(w == s.m.lit(*seen)))
			return *seen;
		z3::model zero(s.m.ctx());
		const z3::expr guess = zero.eval(w, true);
		if (guess.is_numeral_u64(v) && v != seen && s.m.branch(w == guess))
			return v;
		v = 0;
		// Bit by bit, each a branch: every value the word may have on this
		// path is some path's.
		for (int bit = 63; bit >= 0; bit--)
			if (s.m.branch(w.extract(static_cast<unsigned>(bit), static_cast<unsigned>(bit)) ==
				       s.m.ctx().bv_val(1, 1)))
				v |= std::uint64_t{1} << bit;
		return v;
	}

	static std::uint64_t word_ite(void* ctx, std::uint64_t cond, std::uint64_t a, std::uint64_t b)
	{
		sym_session& s = of(ctx);
		const z3::expr& c = s.term(cond);
		const z3::expr& x = s.term(a);
		const z3::expr& y = s.term(b);
		if (!c.is_bool() || x.get_sort().id() != y.get_sort().id())
			throw internal_error("kernel module: a select of a word and a truth, or on a word");
		return s.handle(c.is_true() ? x : c.is_false() ? y : z3::ite(c, x, y));
	}
	static void word_pure(void* ctx, int enter)
	{
		sym_session& s = of(ctx);
		if (enter)
			s.pure++;
		else if (s.pure > 0)
			s.pure--;
	}
	// Inside a value computed on both sides of a C decision: a primitive or
	// a WARN there might be one C never reaches.
	void outside_pure(const char* what) const
	{
		if (pure > 0)
			throw symbolic_limit(fmt::format(
				"{}: the tree's code made {} inside a value the symbolic build computes on both sides "
				"of a decision (an if-converted assignment, or the right side of && or || of two "
				"truths), which C might not reach",
				describe(c), what));
	}
	static void warn(void* ctx, const char* file, int line, const char* condition, int fatal)
	{
		of(ctx).outside_pure("a WARN_ON or BUG_ON");
		session<machine>::warn(ctx, file, line, condition, fatal);
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
		h.tlbi = tlbi;
		h.dsb = dsb;
		h.folio_of = folio_of;
		h.warn = warn;
		h.word_pure = word_pure;
		h.word_ite = word_ite;
		h.word_rmw = word_rmw;
		set_features(h, m);
		h.word_lit = word_lit;
		h.word_op = word_op;
		h.word_decide = word_decide;
		h.word_value = word_value;
		return h;
	}
};

struct module {
	void* handle = nullptr;
	const ptespec_kernel_module* k = nullptr;
};

// Gives the calling thread its binding back when a call ends, however it ends.
struct rebind {
	const ptespec_kernel_module& k;
	const ptespec_binding* prev;
	~rebind() { k.bind(prev); }
};

// The built tree's three modules, by granule (4K, 16K, 64K).
void open_modules(const tree& t, const built_tree& b, bool symbolic, module out[3]);

class tree_strategy final : public strategy {
public:
	tree_strategy(strategy_info info, module mods[3], tree t, build_options o)
		: info_(std::move(info)), tree_(std::move(t)), options_(std::move(o))
	{
		for (std::size_t g = 0; g < 3; g++)
			mods_[g] = mods[g];
		// Every granule's module is built from the same sources: the 4K
		// one says which calls the tree has.
		const ptespec_kernel_calls& f = mods_[0].k->calls;
		const bool has[] = {
#define PTESPEC_TREE_HAS(name, result, args) f.name != nullptr,
			PTESPEC_CALLS(PTESPEC_TREE_HAS)
#undef PTESPEC_TREE_HAS
		};
		std::copy(std::begin(has), std::end(has), implemented_);
	}
	const strategy_info& info() const override { return info_; }
	bool implements(call_kind k) const override { return implemented_[static_cast<std::size_t>(k)]; }
	bool batch_is_generic(call_kind) const override { return false; }
	call_result invoke(machine& m, const call& c) override { return run(m, c); }
	call_result invoke(counted_machine& m, const call& c) override { return run(m, c); }
	sym_call_result invoke(symbolic_machine& m, const call& c) override
	{
		if (!symbolic())
			throw usage_error(fmt::format("strategy '{}': {}", info_.name, why_not_symbolic()));
		return run_symbolic(m, c);
	}
	// The symbolic build is made (or found in the cache) the first time a
	// proof asks, so test, explore and cost never compile it.
	bool symbolic() const override
	{
		std::call_once(sym_once_, [this] {
			try {
				build_options o = options_;
				o.symbolic = true;
				open_modules(tree_, build_tree(tree_, o), true, sym_);
			} catch (const usage_error& e) {
				sym_error_ = e.what();
			}
		});
		return sym_error_.empty();
	}
	std::string why_not_symbolic() const override
	{
		return symbolic() ? std::string() : sym_error_;
	}
	// The symbolic build leaves hugetlbpage.c out (kernel/build.cpp).
	bool implements_symbolic(call_kind k) const override { return implements(k) && !is_hugetlb_call(k); }
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
		const ptespec_binding b{&h, shadow.table(m.size(), m.geo().cont_ptes), m.size(), m.geo().entry_shift};
		const rebind guard{k, k.bind(&b)};

		call_result r;
		switch (c.kind) {
#define PTESPEC_RUN_TREE_CALL(name, result, args) \
	case call_kind::name:                     \
		r = answer<call_kind::name>(k.calls, c); \
		break;
			PTESPEC_CALLS(PTESPEC_RUN_TREE_CALL)
#undef PTESPEC_RUN_TREE_CALL
		}
		s.end_call();
		return r;
	}

	// The same call through the symbolic build on the proofs' machine.
	sym_call_result run_symbolic(symbolic_machine& m, const call& c)
	{
		if (!implements_symbolic(c.kind))
			throw internal_error(fmt::format("strategy '{}' does not implement {}", info_.name,
							 to_string(c.kind)));
		check_call_range(c, m.size(), m.geo());
		const ptespec_kernel_module& k = *sym_[static_cast<std::size_t>(m.geo().gran)].k;
		sym_session s{m, c, 256 * (m.size() + 16), 0, {}, 0, {}, {}};
		const ptespec_host h = s.host();
		const ptespec_binding b{&h, shadow.table(m.size(), m.geo().cont_ptes), m.size(), m.geo().entry_shift};
		const rebind guard{k, k.bind(&b)};

		sym_call_result r;
		switch (c.kind) {
#define PTESPEC_RUN_SYMBOLIC_CALL(name, result, args)   \
	case call_kind::name:                           \
		r = sym_answer<call_kind::name>(k.calls, c, s); \
		break;
			PTESPEC_CALLS(PTESPEC_RUN_SYMBOLIC_CALL)
#undef PTESPEC_RUN_SYMBOLIC_CALL
		}
		s.end_call();
		return r;
	}

	strategy_info info_;
	module mods_[3];
	bool implemented_[nr_call_kinds] = {};
	tree tree_;
	build_options options_;
	mutable std::once_flag sym_once_;
	mutable module sym_[3];
	mutable std::string sym_error_;
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

module open_module(const tree& t, const fs::path& file, granule g, bool symbolic)
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
	const geometry geo = geometry::of(g);	// the module's pte geometry, whichever table a call is on
	if (!mod.k || mod.k->abi != PTESPEC_KERNEL_ABI)
		throw usage_error(fmt::format("--kernel '{}': the built module {} speaks another module ABI; remove "
					      "it from the cache",
					      t.dir.string(), file.string()));
	if (mod.k->page_shift != geo.page_shift || mod.k->cont_ptes != geo.cont_ptes)
		throw usage_error(fmt::format("--kernel '{}': built for {} pages, the tree has PAGE_SHIFT {} and "
					      "CONT_PTES {}; expected {} and {}",
					      t.dir.string(), to_string(g), mod.k->page_shift, mod.k->cont_ptes,
					      geo.page_shift, geo.cont_ptes));
	if ((mod.k->symbolic != 0) != symbolic)
		throw usage_error(fmt::format("--kernel '{}': the built module {} is not the {} build; remove it from the "
					      "cache",
					      t.dir.string(), file.string(), symbolic ? "symbolic" : "C"));
	if (!symbolic)
		check_bits(t, *mod.k);
	return mod;
}

void open_modules(const tree& t, const built_tree& b, bool symbolic, module out[3])
{
	const granule grans[3] = {granule::k4, granule::k16, granule::k64};
	for (std::size_t g = 0; g < 3; g++)
		out[g] = open_module(t, b.modules[g], grans[g], symbolic);
}

} // namespace

strategy& load_tree(const tree_spec& spec, registry& r, const build_options& o)
{
	const tree t = open_tree(spec);
	const built_tree b = build_tree(t, o);
	module mods[3];
	open_modules(t, b, false, mods);
	strategy_info info{t.name,
			   fmt::format("the contpte code of the kernel tree {}{}", t.dir.string(),
				       t.version.empty() ? "" : " (" + t.version + ")"),
			   std::string(kernel_tree_origin) + t.dir.string()};
	auto s = std::make_unique<tree_strategy>(std::move(info), mods, t, o);
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
