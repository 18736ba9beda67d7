// The symbolic machine's branch oracle in the proofs: decides a strategy's
// branches on one path.  It replays `prefix`, then takes the first feasible
// side of each new decision, noting the other side when it is feasible too.
// Feasible means: consistent with the assumptions and the decisions so far
// (path_solver.h answers, from a model of the path where it can).
//
// The prefix records every branch the path took, constant ones included, so
// a replay costs neither a simplification nor a solver call.
#pragma once

#include <cstddef>
#include <optional>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include <z3++.h>

#include "model/branch_oracle.h"
#include "proofs/engine/path_solver.h"
#include "proofs/engine/valuation.h"

namespace ptespec::proofs {

class path_oracle final : public branch_oracle {
public:
	struct infeasible_path {};
	// One branch of a path: its outcome, and whether it was a decision
	// (both sides possible) or forced by the terms themselves.
	struct step {
		bool taken;
		bool decision;
	};
	// A path left to explore: the branches to replay, and a model of its
	// decisions when one is known.
	struct alternative {
		std::vector<step> prefix;
		std::optional<valuation> witness;
	};

	path_oracle(path_solver& solver, alternative start)
		: solver_(solver), prefix_(std::move(start.prefix)), witness_(std::move(start.witness))
	{
	}

	// A probe follows one path and keeps no alternatives: it looks for a
	// counterexample, never proves.  At each new decision it wants the side
	// its model takes or, with probability `flip`, the other, which it
	// reaches by repairing the model (path_solver::repair, then
	// repair_randomly) or, failing that, by a model the solver finds within
	// `solve_rlimit` resource units (`solve_ms` a safety net); else it
	// takes the model's side.  Every decision's literal goes into the path
	// condition (whether the other side was feasible is not asked), so the
	// model keeps satisfying it.  A probe starts with no prefix to replay.
	struct probe {
		std::mt19937_64 rng;
		double flip = 0.25;
		unsigned solve_ms = 1000;
		unsigned solve_rlimit = 0;
	};
	path_oracle(path_solver& solver, valuation start, probe& p)
		: solver_(solver), witness_(std::move(start)), probe_(&p)
	{
	}
	bool probing() const { return probe_ != nullptr; }

	// The condition in the form the oracle decides on (bit level).
	z3::expr normal(const z3::expr& cond) override { return solver_.normal(cond); }

	// A recorded branch while the prefix lasts; then a constant condition
	// is forced, and any other is a new decision.
	bool take(const z3::expr& normal_cond) override;

	// w under the model of the path so far, bit by bit through the
	// evaluator (no solver question).
	std::optional<std::uint64_t> value_on_path(const z3::expr& w) override;

	// The branches this path took, and the paths left to explore.
	const std::vector<step>& taken() const { return taken_; }
	const std::vector<alternative>& alternatives() const { return alternatives_; }
	// The literals of its decisions, in order.
	const std::vector<z3::expr>& path_condition() const { return pc_; }

private:
	bool replaying() const { return pos_ < prefix_.size(); }

	// Replays the next recorded branch on `cond`.
	bool replay(const z3::expr& cond);

	// A branch whose condition simplified to a constant.
	bool forced(bool value);

	// A new decision.  A model of the path so far shows one side feasible
	// without asking the solver: a decision costs one question, not two.
	bool decide(const z3::expr& cond);
	bool decide_probing(const z3::expr& cond);

	path_solver& solver_;
	std::vector<step> prefix_;
	std::optional<valuation> witness_;	// satisfies the world and pc_
	std::size_t pos_ = 0;
	std::vector<step> taken_;
	std::vector<alternative> alternatives_;
	std::vector<z3::expr> pc_;
	// Each condition this path has met, with its truth on the path: a
	// condition met again (a loop re-reading what it read) is forced.
	std::unordered_map<unsigned, std::pair<z3::expr, bool>> met_;
	probe* probe_ = nullptr;
};

} // namespace ptespec::proofs
