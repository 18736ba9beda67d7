// The racing agent: accesses and writes recorded by the MMU (hardware
// access-flag and dirty-state management), at any moment between two
// primitives of software.
//
// An event names a page; where it lands follows the architecture: in the
// page's own entry when that entry is valid and not CONT; in any valid CONT
// entry of the page's run when the run is folded or a CONT translation of it
// may still be cached; nowhere when nothing valid translates the page.
// Writes need a writable translation.  Each update is one atomic RMW.
//
// Who decides which event happens when is pluggable: a choice_source feeds
// a seeded random agent, a scripted replay, or (later) an enumerator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "model/geometry.h"
#include "model/history.h"
#include "model/tlb.h"

namespace ptespec {

// The entries an event of `kind` on `page` may land in, in index order.
// None without hardware access/dirty management (`hw.no_hafdbs`): the
// access faults instead, and the callers' fault path records it.
void hw_candidates(const std::vector<std::uint64_t>& table, const tlb_shadow& tlb, const geometry& geo,
		   std::size_t page, hw_kind kind, std::vector<std::size_t>& out, const hardware_options& hw = {});

// A walker that reads `entry` alone faults on an access of `kind` where the
// hardware does not manage access/dirty: no AF, or RDONLY for a write.
bool walker_faults(std::uint64_t entry, hw_kind kind);

// The entry after the hardware records the event in it.
std::uint64_t hw_update(std::uint64_t entry, hw_kind kind);

// What an agent may do at a scheduling point.
class hw_port {
public:
	virtual ~hw_port() = default;
	virtual std::size_t nr_pages() const = 0;
	virtual std::size_t gap() const = 0;	// scheduling points since the call began
	// The entry the next primitive touches; npos at the end of a call or
	// between calls (the next step is not a primitive).
	static constexpr std::size_t npos = static_cast<std::size_t>(-1);
	virtual std::size_t next_index() const { return npos; }
	virtual void candidates(std::size_t page, hw_kind kind, std::vector<std::size_t>& out) const = 0;
	// Records the event in `landing` (one of the candidates); false if it
	// is not a candidate.
	virtual bool fire(hw_kind kind, std::size_t page, std::size_t landing) = 0;
};

class hardware_agent {
public:
	virtual ~hardware_agent() = default;
	virtual void at_gap(hw_port& port) = 0;
};

enum class choice_point { events_in_gap, page, kind, landing };

// Where an agent's decisions come from.
class choice_source {
public:
	virtual ~choice_source() = default;
	// A number in [0, n); n >= 1.
	virtual std::size_t choose(std::size_t n, choice_point what) = 0;
};

// Seeded random choices; an event happens at a gap with probability `rate`.
class random_choices : public choice_source {
public:
	random_choices(std::uint64_t seed, double rate) : rng_(seed), rate_(rate) {}
	std::size_t choose(std::size_t n, choice_point what) override;

private:
	std::mt19937_64 rng_;
	double rate_;
};

// Replays a list of choices; 0 once the list runs out.  Records what it
// handed out so a run can be printed and replayed again.
class scripted_choices : public choice_source {
public:
	explicit scripted_choices(std::vector<std::size_t> script) : script_(std::move(script)) {}
	std::size_t choose(std::size_t n, choice_point what) override;

private:
	std::vector<std::size_t> script_;
	std::size_t pos_ = 0;
};

// Wraps another source and keeps every answer, for replay.
class recording_choices : public choice_source {
public:
	explicit recording_choices(choice_source& inner) : inner_(inner) {}
	std::size_t choose(std::size_t n, choice_point what) override;
	const std::vector<std::size_t>& recorded() const { return log_; }

private:
	choice_source& inner_;
	std::vector<std::size_t> log_;
};

// An agent that asks a choice_source everything: how many events at this
// gap (up to max_per_gap), which page, access or write, which landing.
class chosen_hardware : public hardware_agent {
public:
	chosen_hardware(choice_source& src, std::size_t max_per_gap) : src_(src), max_(max_per_gap) {}
	void at_gap(hw_port& port) override;

private:
	choice_source& src_;
	std::size_t max_;
	std::vector<std::size_t> cand_;
};

// An event planned for a given gap of the next call(s): what the property
// commands generate and shrink.  `landing` picks among the candidates
// modulo their number; an event with no candidate does not happen.
struct planned_event {
	std::size_t gap = 0;
	hw_kind kind = hw_kind::access;
	std::size_t page = 0;
	std::size_t landing = 0;
};

class planned_hardware : public hardware_agent {
public:
	void plan(std::vector<planned_event> events) { plan_ = std::move(events); }
	void at_gap(hw_port& port) override;

private:
	std::vector<planned_event> plan_;
	std::vector<std::size_t> cand_;
};

} // namespace ptespec
