// ptespec demo: one folded run and a neighbour, mapped, used by a seeded
// random hardware agent, then torn down as exit() does while the agent keeps
// racing; the online checker judges every call and the transcript shows the
// table as a ruler around each one.

#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/flags.h"
#include "impl/strategy.h"
#include "mm/caller.h"
#include "mm/caller_rules.h"
#include "mm/callers.h"
#include "model/checker.h"
#include "model/errors.h"
#include "model/hardware.h"
#include "model/pte.h"
#include "model/ruler.h"
#include "model/transcript.h"

namespace ptespec::cli {

namespace {

struct demo_options {
	std::string granule = "4k";
	std::optional<std::uint64_t> seed;	// none: draw one
	std::string strategy = "mainline";
	bool primitives = false;
	bool per_entry = false;
	hardware_options hw;
	std::string caller;	// empty: core-mm
};

// The agent acts at about one scheduling point in three, a pair of events
// at most: enough that most seeds race something into the teardown, few
// enough that the transcript stays readable.
constexpr double hw_rate = 0.3;
constexpr std::size_t hw_max_per_gap = 2;
// Scheduling points between mapping and exit: the program "runs".
constexpr int warmup_gaps = 12;

// Prints the run as it happens.  It sits behind the checker in the observer
// list, so at each call's end the checker has already judged it and the
// transcript can flag the call that broke a property.
class transcript : public observer {
public:
	transcript(const geometry& geo, const checker& chk, const table_t& initial, bool primitives)
		: geo_(geo), chk_(chk), shown_(initial), primitives_(primitives)
	{
	}

	void section(std::string_view title)
	{
		flush_skips();
		fmt::print("\n{}\n", title);
	}
	void show(std::string_view label, const table_t& t)
	{
		flush_skips();
		fmt::print("{}", table_ruler(label, t, geo_));
		shown_ = t;
	}

	void on_call_begin(const call& c, const table_t& t) override
	{
		step_++;
		cur_ = {};
		cur_.c = c;
		cur_.before = t;
		cur_.first_step = step_;
		made_.insert(c.kind);
	}
	void on_primitive(const primitive_step& p, const table_t&) override
	{
		step_++;
		if (primitives_)
			cur_.lines.push_back("      " + primitive_text(p));
	}
	void on_hw_event(const hw_event& e, const table_t&) override
	{
		step_++;
		const std::string line = hw_event_text(e);
		if (in_call())
			cur_.lines.push_back("      " + line);
		else {
			flush_skips();
			fmt::print("  {}\n", line);
		}
	}
	void on_call_end(const call& c, const call_result& r, const table_t& t) override
	{
		step_++;
		calls_.push_back({cur_.first_step, step_, fmt::format("[{}] {}", calls_.size() + 1, describe(c))});
		const bool quiet = cur_.lines.empty() && t == cur_.before && chk_.violations().size() == reported_;
		if (quiet && c.kind == call_kind::ptep_get && r.pte && pte_none(*r.pte)) {
			// A walk over empty entries says the same thing each time.
			if (!skip_)
				skip_ = {c.index, c.index, calls_.size()};
			skip_->last = c.index;
			cur_ = {};
			return;
		}
		flush_skips();
		if (cur_.before != shown_)
			fmt::print("{}", table_ruler("  before", cur_.before, geo_));
		const std::string result = result_text(r);
		fmt::print("  {}{}{}\n", calls_.back().text, result.empty() ? "" : " -> ", result);
		for (const std::string& l : cur_.lines)
			fmt::print("{}\n", l);
		for (; reported_ < chk_.violations().size(); reported_++) {
			const violation& v = chk_.violations()[reported_];
			fmt::print("      !! {} fails: {}\n", to_string(v.prop), v.message);
		}
		if (t != cur_.before)
			fmt::print("{}", table_ruler("  after", t, geo_));
		shown_ = t;
		cur_ = {};
	}

	// The call a step of the history belongs to, as the transcript named it.
	std::string call_at(std::size_t step) const
	{
		for (const auto& c : calls_)
			if (step >= c.first && step <= c.last)
				return c.text;
		return "between calls";
	}
	bool made(call_kind k) const { return made_.count(k) != 0; }

	void flush_skips()
	{
		if (!skip_)
			return;
		const std::size_t n = skip_->last - skip_->first + 1;
		if (n == 1)
			fmt::print("  [{}] ptep_get(#{}) -> none, nothing to clear\n", skip_->call, skip_->first);
		else
			fmt::print("  [{}-{}] ptep_get(#{}) ... ptep_get(#{}) -> none, nothing to clear\n", skip_->call,
				   skip_->call + n - 1, skip_->first, skip_->last);
		skip_.reset();
	}

private:
	bool in_call() const { return cur_.first_step != 0; }

	struct open_call {
		call c;
		table_t before;
		std::size_t first_step = 0;
		std::vector<std::string> lines;
	};
	struct call_span {
		std::size_t first = 0, last = 0;
		std::string text;
	};
	struct skipped {
		std::size_t first = 0, last = 0, call = 0;
	};

	geometry geo_;
	const checker& chk_;
	table_t shown_;	// the table as the last ruler showed it
	bool primitives_;
	std::size_t step_ = 0;	// counted as the checker counts
	open_call cur_;
	std::vector<call_span> calls_;
	std::optional<skipped> skip_;
	std::size_t reported_ = 0;
	std::set<call_kind> made_;
};

// The demo's calls run straight on its machine, watched by the transcript
// and the checker through the machine's observer.  Each is held to the
// caller rules first: the first call that breaks one is kept, not run, and
// no call runs after it.  As in the harness, only while the checker has
// nothing against the strategy (the table is still the spec's).
class demo_sink final : public mm::call_sink {
public:
	demo_sink(strategy& s, machine& m, const checker& chk, const mm::caller& via)
		: s_(s), m_(m), chk_(chk), via_(via)
	{
	}
	bool implements(call_kind k) const override { return s_.implements(k); }
	std::optional<call_result> run(const call& c) override
	{
		if (!s_.implements(c.kind) || breach)
			return std::nullopt;
		if (std::optional<mm::rule_breach> b =
			    mm::check_caller_rules(c, m_.table(), {m_.geo(), m_.folios()}, vma);
		    b && chk_.violations().empty()) {
			breach = mm::caller_breach{via_.info().name, c, *b};
			return std::nullopt;
		}
		return run_call(s_, m_, c);
	}
	void flush_range(std::size_t first, std::size_t nr) override { m_.flush_tlb_range(first, nr); }
	std::size_t pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte) override
	{
		return s_.pte_batch_hint(g, i, pte);
	}

	std::optional<mm::vma_range> vma;	// the walk in progress
	std::optional<mm::caller_breach> breach;

private:
	strategy& s_;
	machine& m_;
	const checker& chk_;
	const mm::caller& via_;
};

// Why a property says nothing about this run, if it does not.
std::optional<std::string> not_exercised(property p, const transcript& tr)
{
	switch (p) {
	case property::batch_or:
		if (!tr.made(call_kind::get_and_clear_full_ptes))
			return "no batched get_and_clear_full_ptes was made";
		break;
	case property::lockless:
		return "the demo makes no ptep_get_lockless call";
	case property::progress:
		return "the demo makes no ptep_set_access_flags call";
	default:
		break;
	}
	return std::nullopt;
}

// The strategy, refused unless it has the calls the demo makes.
strategy& demo_strategy(const demo_options& o)
{
	strategy& s = parse_strategy("--strategy", o.strategy);
	if (!s.implements(call_kind::set_ptes))
		throw usage_error(fmt::format("strategy '{}' does not implement set_ptes, which the demo maps with",
					      s.info().name));
	for (call_kind k : {call_kind::ptep_get, call_kind::ptep_get_and_clear_full})
		if (!s.implements(k))
			throw usage_error(fmt::format("strategy '{}' does not implement {}, which the exit teardown needs",
						      s.info().name, to_string(k)));
	return s;
}

// Folio A fills run 0 exactly, so a strategy that folds can fold it; folio
// B follows it in physical memory but is another folio, so the teardown's
// batch must stop at A's end.  Both start old and clean, so every flag in
// the transcript is the hardware's.
struct demo_world {
	geometry geo;
	std::size_t n;	// entries: two runs
	folio_extent a, b;

	explicit demo_world(geometry g)
	    : geo(g), n(2 * g.cont_ptes), a{8 * g.cont_ptes, g.cont_ptes}, b{a.first_pfn + a.nr_pages, 4}
	{
	}
};

void print_intro(const demo_options& o, const strategy_info& si, const mm::caller& via, const demo_world& w,
		 std::uint64_t seed)
{
	const bool loaded = si.origin != "builtin" && si.origin != "in-tree";
	const bool other_caller = &via != &mm::core_mm();
	const geometry& geo = w.geo;
	fmt::print("ptespec demo: an exit teardown (full=1) racing the hardware, judged against the spec\n");
	fmt::print("  strategy  {}: {}{}\n", si.name, si.description,
		   loaded ? fmt::format(" [{}]", si.origin) : "");
	if (other_caller)
		fmt::print("  caller    {}: {}\n", via.info().name, via.info().description);
	fmt::print("  granule   {}: CONT_PTES = {}, a table of {} entries\n", to_string(geo.gran), geo.cont_ptes, w.n);
	fmt::print("  folio A   pfn {:#x}-{:#x} at #0-#{} (one whole run)\n", w.a.first_pfn,
		   w.a.first_pfn + w.a.nr_pages - 1, w.a.nr_pages - 1);
	fmt::print("  folio B   pfn {:#x}-{:#x} at #{}-#{} (its physical neighbour)\n", w.b.first_pfn,
		   w.b.first_pfn + w.b.nr_pages - 1, geo.cont_ptes, geo.cont_ptes + w.b.nr_pages - 1);
	fmt::print("  hardware  {}seeded random: an event at {:.0f}% of scheduling points, at most {} at once\n",
		   o.hw.is_default() ? "" : to_string(o.hw) + "; ", hw_rate * 100, hw_max_per_gap);
	fmt::print("  rerun     ptespec{} demo --granule {}{} --seed {} --strategy {}{}{}\n", loading_flag(si),
		   to_string(geo.gran), hardware_flag(o.hw), seed, si.name,
		   other_caller ? " --caller " + via.info().name : "", o.per_entry ? " --per-entry" : "");
	fmt::print("\nlegend: {}\n", ruler_legend());
}

// One line per property, then the caller's; returns the exit code.
int print_verdicts(const checker& chk, const transcript& tr, const demo_sink& sink, const strategy_info& si,
		   const mm::caller& via)
{
	bool failed = false;
	for (property p : all_properties) {
		if (const violation* v = chk.first(p)) {
			failed = true;
			fmt::print("  {:<12} FAILS  in {}, page #{}: {}\n", to_string(p), tr.call_at(v->step), v->page,
				   v->message);
		} else if (const auto why = not_exercised(p, tr)) {
			fmt::print("  {:<12} n/a    {}\n", to_string(p), *why);
		} else {
			fmt::print("  {:<12} holds  {}\n", to_string(p), sentence(p));
		}
	}
	if (sink.breach) {
		fmt::print("  {:<12} FAILS  {}\n", "caller-rules", mm::breach_text(*sink.breach));
		fmt::print("the caller broke a rule the arch code relies on; that call and the rest of the teardown "
			   "never reached {} (exit 1)\n",
			   si.name);
		return exit_failed;
	}
	if (&via != &mm::core_mm())
		fmt::print("  {:<12} holds  every call of caller {} kept the caller rules\n", "caller-rules",
			   via.info().name);
	fmt::print("{}\n", failed ? "a property failed (exit 1)" : "every exercised property holds (exit 0)");
	return failed ? exit_failed : exit_ok;
}

int run_demo(const demo_options& o)
{
	// Every input is checked before the seed line, so bad usage prints
	// one line and nothing else.
	const demo_world w(geometry::of(parse_granule_flag("--granule", o.granule)));
	strategy& s = demo_strategy(o);
	const mm::caller& via = caller_of(o.caller);
	const geometry& geo = w.geo;

	std::random_device rd;
	const std::uint64_t seed = o.seed ? *o.seed : (std::uint64_t{rd()} << 32) ^ rd();
	fmt::print("seed {}\n", seed);
	const std::uint64_t prot = PTE_VALID | PTE_TYPE | PTE_USER | PTE_RDONLY | PTE_SHARED | PTE_NG | PTE_PXN |
				   PTE_UXN | PTE_WRITE;

	machine m(geo, w.n, o.hw);
	m.set_folios({w.a, w.b});
	checker chk(geo, m.folios(), m.table(), o.hw);
	transcript tr(geo, chk, m.table(), o.primitives);
	observer_list watchers;
	watchers.add(&chk);
	watchers.add(&tr);
	m.set_observer(&watchers);
	random_choices dice(seed, hw_rate);
	chosen_hardware hw(dice, hw_max_per_gap);
	print_intro(o, s.info(), via, w, seed);
	tr.show("initial", m.table());

	// The fault path runs before anything can touch the pages.
	tr.section("map: set_ptes of each folio, as the fault path does");
	demo_sink sink(s, m, chk, via);
	mm::fault_map(sink, 0, w.a.nr_pages, pfn_pte(w.a.first_pfn, prot, geo));
	mm::fault_map(sink, geo.cont_ptes, w.b.nr_pages, pfn_pte(w.b.first_pfn, prot, geo));

	m.set_hardware(&hw);
	tr.section("run: the program touches its pages (hardware only)");
	for (int g = 0; g < warmup_gaps; g++)
		m.idle();
	tr.show("  table", m.table());

	tr.section("ledger before exit: events not yet handed off");
	fmt::print("{}", chk.live_events() ? chk.ledger() : "  (none)\n");

	tr.section(fmt::format("exit: zap walks #0 upwards with full=1, {}, while the hardware keeps going",
			       o.per_entry ? "entry by entry" : "a folio's entries in one batch"));
	mm::zap_options zo;
	zo.full = true;
	zo.batched = !o.per_entry;
	sink.vma = mm::vma_range{0, w.n};
	mm::zap_pte_range(sink, {geo, m.folios()}, 0, w.n, zo, via);
	sink.vma.reset();
	tr.flush_skips();
	tr.show("  final", m.table());

	tr.section("ledger after exit");
	fmt::print("{}", chk.live_events() ? chk.ledger() : "  (empty: every event was handed off or consumed)\n");

	tr.section(fmt::format("verdict: strategy {}, granule {}, seed {}", s.info().name, to_string(geo.gran), seed));
	return print_verdicts(chk, tr, sink, s.info(), via);
}

} // namespace

action define_demo(CLI::App& sub)
{
	auto o = std::make_shared<demo_options>();
	add_once(
		sub, "--granule",
		[o](const std::string& g) {
			parse_granule_flag("--granule", g);
			o->granule = g;
		},
		"page size: 4k, 16k or 64k (default 4k)", "4k|16k|64k");
	add_once(
		sub, "--seed", [o](const std::string& t) { o->seed = parse_seed("--seed", t); },
		"seed of the hardware agent, decimal or 0x-hex (printed first; give it back to rerun)", "S");
	add_once(
		sub, "--strategy", [o](const std::string& n) { o->strategy = n; },
		"the strategy under test (see 'ptespec list'; default mainline)", "NAME");
	add_hardware(sub, o->hw);
	add_caller(sub, o->caller);
	sub.add_flag("--per-entry", o->per_entry,
		     "tear down entry by entry (ptep_get, then ptep_get_and_clear_full), as zap did before it "
		     "batched folios: the teardown the seed thread's variants were written for");
	sub.add_flag("--primitives", o->primitives, "also show every primitive access the strategy makes");
	return [o] { return run_demo(*o); };
}

} // namespace ptespec::cli
