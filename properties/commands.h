// The core-mm callers (mm/callers.h) as RapidCheck commands.  Each command is
// one caller action -- a fault, a zap, a fork, a reclaim pass -- with the
// hardware events that race it.  apply() keeps the callers' own view of the
// table (world_model); run() drives the strategy through the harness, whose
// checker judges every call.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "properties/harness.h"
#include "properties/world.h"

namespace ptespec {

using command_base = rc::state::Command<world_model, harness>;

class command : public command_base, public std::enable_shared_from_this<command> {
public:
	void run(const world_model& s0, harness& h) const final;
	void show(std::ostream& os) const final;
	// What a counterexample prints for this command: the caller action
	// only.  Its hardware plan is not repeated: the events that fired are
	// printed under the calls they landed in, and a planned event that
	// never found its primitive changed nothing.
	std::string describe() const { return what(); }
	const std::vector<hw_plan_event>& plan() const { return hw; }
	std::size_t batch_cut() const { return cut; }
	// Runs the caller action without RapidCheck (replay and printing).
	void act_public(const world_model& s0, harness& h) const { act(s0, h); }

protected:
	virtual void act(const world_model& s0, harness& h) const = 0;
	virtual std::string what() const = 0;
	// Adversarial callers only: this command's batches end after at most
	// `cut` entries (0: as long as core-mm would find them).
	void pick_cut(const world_model& m);
	// The table a command's entries were drawn from.  A case of the
	// hugetlb sweep draws a pte or a pmd table, and a command RapidCheck
	// keeps while it shrinks that choice fits only the table it was drawn
	// for: its preconditions ask fits() (a command that never calls
	// drawn_for fits every table).
	void drawn_for(const world_layout& w)
	{
		level_ = w.geo.level;
		entries_ = w.nr_entries;
	}
	bool fits(const world_model& m) const
	{
		return entries_ == 0 || (m.layout->geo.level == level_ && m.layout->nr_entries == entries_);
	}
	std::vector<hw_plan_event> hw;
	std::size_t cut = 0;

private:
	unsigned level_ = 0;
	std::size_t entries_ = 0;
};

// What --adversarial relaxes: calling rules of core-mm that the arch code
// must not rely on, each with what a strategy relying on it would break.
// The rules the arch API does promise (set_ptes only over entries that are
// not present, young calls only on mapped entries, non-present values only
// into cleared entries) are kept.
inline constexpr const char* adversarial_rules[] = {
	"batches end anywhere: a zap, fork or MADV_FREE batch is cut after 1..2*CONT_PTES entries, as a caller "
	"with a smaller max_nr cuts it (a strategy that assumes a batch covers its runs breaks batch-or, "
	"isolation or no-loss)",
	"full=1 in any zap: munmap and MADV_DONTNEED may pass full (a strategy that trusts full to mean "
	"'every entry of the mm goes, no reader in between' breaks per-call)",
};

using command_ptr = std::shared_ptr<const command>;

// The executed commands of the last failing case (the shrunk one, once
// RapidCheck is done), so the failure can be replayed and printed.
struct failure_slot {
	std::vector<command_ptr> commands;
	world_layout layout;	// the case's world, which the commands were drawn in
	violation v;
	std::optional<mm::caller_breach> breach;	// when the caller, not the strategy, broke a rule
	bool set = false;
};

// Every command for the current model, weighted.
rc::Gen<std::shared_ptr<const command_base>> any_command(const world_model& m);

// Runs cmds on h as one case (no RapidCheck), stopping at the first
// failure of the judged property or breach of a caller rule; returns
// whether one happened.
bool replay_commands(const std::vector<command_ptr>& cmds, world_model m, harness& h, violation* out,
		     std::optional<mm::caller_breach>* breach = nullptr);

// Where command::run files a failure before it fails the case (none: the
// failure is thrown on, out of the case); begin_case() starts the log of
// executed commands afresh.
void set_failure_slot(failure_slot* slot);
void begin_case();

} // namespace ptespec
