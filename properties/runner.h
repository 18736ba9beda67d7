// Runs one property against one strategy: RapidCheck generates caller
// command sequences with racing hardware, the checker judges every call,
// and a failure comes back shrunk, replayed and printed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "impl/strategy.h"
#include "mm/caller.h"
#include "mm/caller_rules.h"
#include "model/coverage.h"
#include "model/geometry.h"
#include "model/hardware_options.h"
#include "model/history.h"
#include "model/property.h"
#include "model/word_coverage.h"

namespace ptespec {

// holds: every case ran and the property held where it was exercised.
// not_exercised: it held only because nothing the cases did could have
// broken it (the strategy cannot map or read, or its calls never left
// anything to judge) -- undecided, not a pass.
// not_applicable: the strategy has none of the calls the property is
// about (no batched clear, no lockless read): a statement of scope, neither
// a pass nor undecided.
enum class verdict { holds, fails, not_exercised, not_applicable };
std::string_view to_string(verdict v);

struct run_options {
	granule gran = granule::k4;
	hardware_options hw;	// the machine's features (--hardware)
	std::uint64_t seed = 1;
	int cases = 100;
	int max_size = 40;	// commands per case grow up to about this
	bool adversarial = false;
	bool vary_attributes = true;	// off: only flags and write permission vary (control tests)
	bool alias_nonpresent = true;	// off: no swap entry sets AF or CONT (control tests)
	bool interleave_lockless = true;	// off: a racing writer runs whole in one gap of the reader
	bool shift_pfns = true;	// off: every case's folios are CONT-aligned physically as virtually
	bool fault_around = true;	// off: no fault maps more than one folio (control tests)
	bool batch_young = true;	// off: reclaim makes the one-entry young calls only (control tests)
	const mm::caller* caller = nullptr;	// the caller variant (--caller); nullptr: core-mm
	bool caller_rules = true;	// off: no caller rule is checked (control tests: what the rules protect)
	// The callers that change protections among the commands: mprotect
	// (change_pte_range, to read-only, read-write or PROT_NONE), NUMA
	// balancing (change_prot_numa and the hinting fault), guard pages,
	// MADV_COLD, mremap (move_ptes, which hands ptep_get_and_clear
	// entries that are not present) and page migration (try_to_migrate
	// and its undo).  Read by a run of sweeps::as_given
	// (`--mprotect`).
	bool mprotect = false;
	// Swarm testing: each case draws which caller actions it makes and how
	// often (gen::swarm); off, every case makes every action at its weight.
	// Read by a run of sweeps::as_given (`--swarm`).
	bool swarm = false;
	// Each case draws whether the machine has FEAT_BBM level 2 (hw is then
	// the rest of the hardware): what the kernel sweep does when no
	// hardware was given.
	bool draw_bbml2 = false;
	// The hugetlb callers (mm/hugetlb_callers.h) over a world of contiguous
	// hugepages (world_layout::make_hugetlb: each case draws a pte table of
	// CONT_PTE hugepages or a pmd table of CONT_PMD ones), instead of
	// core-mm's callers over folios.  Set by the hugetlb sweep.
	bool hugetlb = false;
	// The sweeps a run makes, each its own RapidCheck run of `cases` cases
	// from the seed, one after the other; the first that fails is the
	// verdict (sweep_options gives each one's options):
	//   as_given  one, as mprotect, swarm and draw_bbml2 say;
	//   core      one: core-mm's everyday callers (faults, fork, munmap,
	//             exit, reclaim, MADV_FREE...), every action at its weight;
	//   kernel    one: every caller (mprotect, NUMA hinting, guard pages,
	//             MADV_COLD, mremap, migration too), swarm testing, and BBML2 drawn per case
	//             unless hw has it;
	//   both      core, then kernel;
	//   hugetlb   one: the hugetlb callers over hugepages (fault, access,
	//             unmap, fork, mprotect, migration, mremap), BBML2 drawn
	//             per case unless hw has it (docs/hugetlb.md);
	//   all       core, kernel, then hugetlb with hugetlb_cases(cases) of
	//             its own, for a strategy that has hugetlb calls (else the
	//             two): the CLI's default.
	enum class sweeps { as_given, core, kernel, both, hugetlb, all };
	sweeps sweep = sweeps::as_given;
	branch_coverage* coverage = nullptr;	// records the strategy's branches when set
	word_coverage* words = nullptr;	// records the fields of the words it met when set

	bool operator==(const run_options&) const = default;
};

// One call of a counterexample, ready to print or serialise.
struct ce_call {
	std::size_t command = 0;	// index of the caller action it belongs to
	std::string call;	// e.g. "ptep_get(#3)"
	std::string result;	// e.g. "0x00f8000000080f43 (young+dirty, cont)", or ""
	std::vector<std::string> hw;	// hardware events during the call
	std::vector<std::pair<std::string, std::string>> runs;	// ruler before -> after, runs it changed
};

struct sampled_counterexample {
	std::vector<std::string> commands;	// the shrunk caller actions
	std::vector<ce_call> calls;	// every call up to the violation
	std::string initial;	// rulers of the initial table
	std::string layout;	// the case's world: aligned, or its folios' pfns shifted
	violation v;
	// Set when the caller broke a caller rule (mm/caller_rules.h): the
	// call never reached the strategy, and the case failed on the
	// caller's account, not the property's.
	std::optional<mm::caller_breach> breach;
	// The sweep of a run of several (run_options::sweeps) it failed in:
	// "core" or "kernel"; "" for a run of one.
	std::string sweep;
	std::string reproduce;	// one-line command
	// The replayed case, every step recorded: what the proofs' agreement
	// check (proofs::judge_agreement) re-judges.
	history hist;
	// Set when the failure is the strategy's pte_batch_hint, asked between
	// calls (proofs::judge_hint_agreement re-judges it).
	std::optional<batch_hint_seen> hint;
};

struct property_result {
	std::string strategy;
	property prop = property::no_loss;
	verdict v = verdict::holds;
	int cases = 0;	// cases run (successful ones when it holds)
	std::uint64_t calls = 0;	// checked calls over all cases
	std::uint64_t exercised = 0;	// judgements of the property that had something to judge
	std::string why_not_exercised;	// when not_exercised
	sampled_counterexample ce;	// when it fails
	// RapidCheck's classification of the cases (RC_CLASSIFY tags -> count),
	// to show that the edges are exercised.
	std::vector<std::pair<std::string, int>> distribution;
};

// The word a verdict table prints: FAILS for a strategy's failure, CALLER
// when the caller broke a rule before the strategy could be judged (it
// counts as failed: the run stopped on it).
std::string verdict_word(const property_result& r);
inline constexpr std::string_view caller_legend =
	"CALLER: the caller broke a rule the arch code relies on before its call reached the strategy; the "
	"strategy was not judged wrong";

// Results counted by what they say: holds passed, fails failed,
// not exercised undecided; n/a apart.
struct tally {
	std::size_t passed = 0, failed = 0, undecided = 0, not_applicable = 0;
};
tally tally_of(const std::vector<property_result>& results);
// "N passed, N failed, N undecided" (and the n/a count when there is one).
std::string tally_line(const tally& n);
// What the words of a verdict table mean, for under the table.
inline constexpr std::string_view verdict_legend =
	"holds: no case broke it, and some call could have; not exercised: no call could have broken it "
	"(undecided); n/a: the strategy has none of the calls it judges";

// Whether the strategy has the calls the property judges.
bool property_applicable(const strategy& s, property p);

// "as given", "core", "kernel", "both".
std::string_view to_string(run_options::sweeps s);

// The hugetlb sweep's cases within the default sweeps: a quarter of the
// cell's (a hugepage's calls each touch a whole run, and with 16K pages a
// hugepage is 128 entries), at least one.
constexpr int hugetlb_cases(int cases) { return cases / 4 > 0 ? cases / 4 : 1; }

// The options of one sweep of o (run_options::sweeps; s: core or kernel).
run_options sweep_options(const run_options& o, run_options::sweeps s);
// "core callers; every caller, swarm testing, BBML2 drawn per case": what
// the sweeps of o are, for a header line.
std::string sweeps_text(const run_options& o);

property_result run_property(strategy& s, property p, const run_options& o);
// run_property of each of ps, the same results, at the cost of about one:
// the cases of each sweep run once, judged for every property, and only a
// property that failed runs again on its own to find and shrink its
// counterexample.  o.cases is every property's case count.
std::vector<property_result> run_properties(strategy& s, const std::vector<property>& ps, const run_options& o);

// The counterexample as text: commands, calls, hardware events and the
// rulers of the runs each call changed; ends with the reproduce line.
std::string format_counterexample(const property_result& r);

} // namespace ptespec
