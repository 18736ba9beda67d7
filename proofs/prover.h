// The shared machinery of every proof obligation: run a scenario (strategy
// calls on the symbolic machine) once per feasible path, assert the
// negation of its claims, and read the answer.
//
//   unsat on every path      -> proved
//   sat on some path         -> refuted; the model becomes a concrete
//                               history (initial table, calls, hardware
//                               events) replayed on the concrete machine
//                               with the checker (replay.h)
//   unknown (timeout, limit) -> unknown, never shown as proved
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/call.h"
#include "model/geometry.h"
#include "model/hardware.h"
#include "model/history.h"
#include "model/property.h"
#include "model/symbolic_machine.h"

namespace ptespec::proofs {

enum class proof_verdict { proved, refuted, unknown };
std::string_view to_string(proof_verdict v);

// One conjunct of an obligation, named by the checker property whose
// violation the replay must show when it fails.  `witness` calls run after
// the scenario (without hardware) to make a broken invariant observable.
struct claim {
	property prop;
	z3::expr holds;
	std::vector<call> witness;
};

// What one run of a scenario produced on one path.
struct path_result {
	std::vector<call> calls;	// the concrete calls made, in order
	std::vector<claim> claims;
};

// The symbolic initial table and what is assumed of it.
struct sym_world {
	geometry geo;
	std::vector<z3::expr> initial;
	std::vector<z3::expr> assumptions;
	std::vector<folio_extent> folios;
};

// A hardware event of a counterexample: before the gap-th primitive of the
// call-th call (or at its last gap), on page `entry`, landing in it.
struct ce_event {
	std::size_t call = 0;
	std::size_t gap = 0;
	std::size_t entry = 0;
	hw_kind kind = hw_kind::access;
};

struct counterexample {
	geometry geo;
	std::vector<folio_extent> folios;
	std::vector<std::uint64_t> initial;
	std::vector<call> calls;
	std::vector<ce_event> events;
	property prop = property::no_loss;	// the claim that failed
	std::vector<call> witness;
};

struct proof_result {
	std::string obligation;	// stable name, e.g. "batch-or/cont16"
	std::string strategy;	// "" for strategy-independent obligations
	granule gran = granule::k4;
	proof_verdict verdict = proof_verdict::proved;
	double seconds = 0;
	std::size_t paths = 0;
	std::size_t formulas = 0;	// solver problems (cases x paths)
	std::string detail;	// what was covered, in one line
	std::optional<counterexample> ce;
	std::string replay;	// "", "confirmed" or "MISMATCH: ..."
	std::string ce_text;	// the counterexample, printed
};

struct prove_options {
	unsigned timeout_ms = 60000;	// per solver call
	bool quick = false;	// fewer positions per run (0, 1, c-1): for tests
	// Paths per case before giving up with `unknown`: a strategy that
	// branches on a flag per entry has 2^n paths (no merging behind its back).
	std::size_t max_paths = 64;
};

// Runs `scenario` on every feasible path from `world` and checks its claims.
// Adds paths and formulas to `into`; returns the verdict of this case.
// On refutation fills into.ce (the first counterexample found).
proof_verdict prove_paths(z3::context& ctx, const sym_world& world,
			  const std::function<path_result(symbolic_machine&)>& scenario, const prove_options& o,
			  proof_result& into);

// A timer for proof_result::seconds.
class stopwatch {
public:
	double seconds() const
	{
		return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
	}

private:
	std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

} // namespace ptespec::proofs
