// What the symbolic machine (model/symbolic_machine.h) asks where a
// strategy branches on a word (m.branch): which side this run takes.
//
// The answer is the proofs' business, not the spec's: their path oracle
// (proofs/engine/path_oracle.h) replays a recorded prefix, follows a branch
// the terms decide themselves, and asks a solver about a new decision.  The
// machine only asks, so no solver code sits in a header that a strategy or
// a plugin compiles, and a plugin's branches are decided by the host's code.
#pragma once

#include <cstdint>
#include <optional>

#include <z3++.h>

namespace ptespec {

class branch_oracle {
public:
	virtual ~branch_oracle() = default;

	// The form decisions are taken on, equivalent to `cond`: true or false
	// where the terms alone decide it (the machine also uses it to see that
	// an entry is surely not CONT, when an end slot may be carried).
	virtual z3::expr normal(const z3::expr& cond) = 0;

	// The side this run takes at a branch on `normal_cond`, an answer of
	// normal().  May throw to abandon a path that turns out infeasible.
	virtual bool take(const z3::expr& normal_cond) = 0;

	// A value the 64-bit word `w` has on this path, where the oracle knows
	// a model of the path (none: it does not).  Only a guess to branch on:
	// whether w is that value on every path is still a decision.
	virtual std::optional<std::uint64_t> value_on_path(const z3::expr& /*w*/) { return std::nullopt; }
};

} // namespace ptespec
