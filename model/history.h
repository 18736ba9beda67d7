// A recorded history: the initial table and every step after it.  The
// checker judges one online or replays one offline; it never learns which
// strategy produced it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "model/call.h"
#include "model/geometry.h"
#include "model/hardware_options.h"

namespace ptespec {

class observer;

using table_t = std::vector<std::uint64_t>;

enum class prim_kind { read, write, exchange, atomic_update, tlbi_page, tlbi_range, tlbi_all };
std::string_view to_string(prim_kind k);

// How far a TLB invalidation reaches, and whether it is known complete
// when the strategy goes on.  The default (0) is what arm64 calls a
// broadcast invalidation followed by its DSB: every CPU's TLB has dropped
// the range before the next primitive.
enum flush_flag : unsigned {
	// This CPU's TLB only (a TLBI without the inner-shareable domain, as
	// local_flush_tlb_contpte issues): every other CPU keeps what it
	// cached.  The kernel leaves those stale entries to fault spuriously
	// and fix themselves -- which only works for a stale entry that grants
	// less than the table does.
	flush_local = 1u << 0,
	// Issued without the trailing DSB (__flush_tlb_range_nosync): the
	// invalidation completes at some later barrier, not before the next
	// primitive.
	flush_nosync = 1u << 1,
};

// The hints __flush_tlb_range takes, in the flag word too.
//
// Stride: one TLBI every 2^s entries, the range rounded out to the stride
// (hugetlb passes its block size).  A CPU without range invalidation
// (FEAT_TLBIRANGE) issues exactly those TLBIs, so only the entries at a
// multiple of the stride are surely dropped; the pages between keep what
// they cached.  s = 0 (PAGE_SIZE) is every entry.
//
// Level: the TTL hint names the level of the translations to drop; with
// FEAT_TTL a TLB may then skip entries of any other level.  A pte table's
// entries are level 3, a pmd table's blocks level 2 (geometry::level): a
// hint naming another level than the table's may reach none of its
// entries, no hint reaches them all.  Level 0 is a level with 4K pages
// only: with 16K and 64K pages the TTL encoding that would name it is
// reserved and taken as no hint (flush_hint_for).
inline constexpr unsigned flush_level_shift = 4;	// 3 bits: 0 none, else 1 + the level named
inline constexpr unsigned flush_level_mask = 7u << flush_level_shift;
inline constexpr unsigned flush_stride_shift = 8;	// 6 bits: log2 of the stride in entries
constexpr unsigned flush_level(unsigned level) { return level <= 3 ? (level + 1) << flush_level_shift : 0; }
constexpr unsigned flush_stride(unsigned log2_entries) { return (log2_entries & 63u) << flush_stride_shift; }
// The level a flag word's hint names (0..3), or -1 for none.
constexpr int flush_level_of(unsigned flags) { return static_cast<int>((flags & flush_level_mask) >> flush_level_shift) - 1; }
constexpr unsigned flush_stride_log2(unsigned flags) { return (flags >> flush_stride_shift) & 63u; }
// The hints as a CPU with pages of 2^page_shift bytes takes them.
constexpr unsigned flush_hint_for(unsigned flags, unsigned page_shift)
{
	if (flush_level_of(flags) == 0 && page_shift != 12)
		return flags & ~flush_level_mask;
	return flags;
}
// Whether an invalidation of [first, first+nr) with `flags` issues a TLBI
// for entry i of a table of level table_level (the range rounded out to
// the stride; a level hint naming another level reaches no entry).
constexpr bool flush_reaches(std::size_t i, std::size_t first, std::size_t nr, unsigned flags, unsigned table_level)
{
	if (const int l = flush_level_of(flags); l >= 0 && static_cast<unsigned>(l) != table_level)
		return false;
	const std::size_t stride = std::size_t{1} << flush_stride_log2(flags);
	return i % stride == 0 && i >= first - first % stride && i < first + nr;
}

// A transcript's suffix: "", or " local", " nosync", " stride 16",
// " level 2" in that order.
std::string flush_flag_text(unsigned flags);

// One software access.  For TLB invalidations index/nr give the range and
// flags its flush_flag bits.
struct primitive_step {
	prim_kind kind = prim_kind::read;
	std::size_t index = 0;
	std::size_t nr = 1;
	std::uint64_t old_value = 0;
	std::uint64_t new_value = 0;
	unsigned flags = 0;
	// Made by the locked call that runs beside a lockless read (on a thread
	// of its own, or whole in one of the read's gaps), not by the read:
	// the primitives of the two calls interleave in a history.
	bool beside = false;
};

enum class hw_kind { access, write };
std::string_view to_string(hw_kind k);

// One hardware update: an access or write to `page` recorded in `landing`.
struct hw_event {
	std::uint64_t id = 0;
	hw_kind kind = hw_kind::access;
	std::size_t page = 0;
	std::size_t landing = 0;
	std::uint64_t old_value = 0;
	std::uint64_t new_value = 0;
	bool beside = false;	// fired at a gap of the call beside a lockless read
};

struct call_begin_step {
	call c;
};
struct call_end_step {
	call c;
	call_result r;
};

// A primitive a strategy attempted outside the table (an entry past its
// end, a TLB flush running past it).  It never took effect: the call ends
// there, judged by the checker as a finding about the strategy.
struct fault_step {
	call c;
	bool flush = false;	// a TLB invalidation rather than an entry access
	std::size_t index = 0;
	std::size_t nr = 1;
	std::size_t table_size = 0;
	std::string assertion;	// the strategy's own check that fired (then the rest says nothing)
};

using step = std::variant<call_begin_step, call_end_step, primitive_step, hw_event, fault_step>;

// A folio: a naturally aligned range of pfns backed by one struct folio.
struct folio_extent {
	std::uint64_t first_pfn = 0;
	std::uint64_t nr_pages = 1;
};

// The arch's pte_batch_hint as core-mm asked it, between calls: for entry
// `entry`, holding `pte` as read, it answered n, over `table`.  Kept for a
// sampled failure of the hint, which no call of the history explains.
struct batch_hint_seen {
	std::size_t entry = 0;
	std::uint64_t pte = 0;
	std::size_t n = 0;
	table_t table;
};

struct history {
	geometry geo;
	std::vector<folio_extent> folios;
	std::vector<std::uint64_t> initial;
	std::vector<step> steps;
	hardware_options hw = {};	// what it ran on: a replay judges by the same rules
};

// The folio that pfn belongs to, or -1 when none was declared (then every
// pfn is its own folio: the checker never merges what it cannot prove).
long folio_of(const std::vector<folio_extent>& folios, std::uint64_t pfn);

// Replays a recorded history into an observer, rebuilding the table: each
// callback sees the table after its step, as it would have online.
void replay(const history& h, observer& o);

// The table after step s, given the table before it: a store (write,
// exchange, atomic update) sets its entry, and so does a hardware event's
// landing; reads, TLB invalidations, call brackets and faults change none.
void apply_step(table_t& t, const step& s);

// One call of a history, from its call_begin_step to the step that ended
// it, with the table on either side.
struct call_span {
	enum class ending { returned, faulted, unfinished };
	const call* c = nullptr;
	ending how = ending::returned;
	const call_result* r = nullptr;	// when it returned
	const fault_step* fault = nullptr;	// when it stopped outside the table
	std::size_t first = 0;	// index of its call_begin_step in the history's steps
	std::size_t last = 0;	// index of its end or fault step (unfinished: the number of steps)
	table_t before;	// the table at its begin
	table_t after;	// the table at its end
	std::vector<const hw_event*> hw;	// events while it was the innermost call open
};

// Walks a history, rebuilding the table, and hands over each call at the
// step that ends it: a call run in another's gap ends, and comes, first.
// A hardware event goes to the innermost call open when it fired, or to
// `between` with its step's index when none is.  Calls the history leaves
// open (a livelock forgets its call) come last, innermost first.
void walk_calls(const history& h, const std::function<void(const call_span&)>& on_call,
		const std::function<void(const hw_event&, std::size_t)>& between = {});

} // namespace ptespec
