#include "proofs/engine/path_oracle.h"

#include <utility>

namespace ptespec::proofs {

bool path_oracle::take(const z3::expr& normal_cond)
{
	if (normal_cond.is_true() || normal_cond.is_false())
		return replaying() ? replay(normal_cond) : forced(normal_cond.is_true());
	if (!replaying())
		if (const auto it = met_.find(normal_cond.id()); it != met_.end())
			return forced(it->second.second);
	const bool v = replaying() ? replay(normal_cond) : decide(normal_cond);
	met_.insert_or_assign(normal_cond.id(), std::make_pair(normal_cond, v));
	return v;
}

std::optional<std::uint64_t> path_oracle::value_on_path(const z3::expr& w)
{
	if (!witness_ || !w.is_bv() || w.get_sort().bv_size() != 64)
		return std::nullopt;
	std::uint64_t v = 0;
	z3::context& ctx = w.ctx();
	for (unsigned bit = 0; bit < 64; bit++) {
		const std::optional<bool> one = solver_.holds(*witness_, w.extract(bit, bit) == ctx.bv_val(1, 1));
		if (!one)
			return std::nullopt;
		if (*one)
			v |= std::uint64_t{1} << bit;
	}
	return v;
}

bool path_oracle::replay(const z3::expr& cond)
{
	const step st = prefix_[pos_++];
	taken_.push_back(st);
	if (st.decision)
		pc_.push_back(st.taken ? cond : !cond);
	return st.taken;
}

bool path_oracle::forced(bool value)
{
	pos_++;
	taken_.push_back({value, false});
	return value;
}

bool path_oracle::decide(const z3::expr& cond)
{
	if (probe_)
		return decide_probing(cond);
	std::optional<path_solver::answer> yes, no;
	if (witness_) {
		const std::optional<bool> v = solver_.holds(*witness_, cond);
		if (v == true)
			yes = path_solver::answer{true, witness_};
		else if (v == false)
			no = path_solver::answer{true, witness_};
		// The other side, from the same model where it can be.
		if (yes && !no)
			if (auto other = solver_.repair(*witness_, pc_, !cond))
				no = path_solver::answer{true, std::move(other)};
		if (no && !yes)
			if (auto other = solver_.repair(*witness_, pc_, cond))
				yes = path_solver::answer{true, std::move(other)};
	}
	if (!yes)
		yes = solver_.feasible(pc_, cond);
	if (!no)
		no = solver_.feasible(pc_, !cond);
	// Neither side: the decisions so far are themselves contradictory
	// (an earlier check could only say "unknown"); the path needs no
	// proof.
	if (!yes->feasible && !no->feasible)
		throw infeasible_path{};
	const bool both = yes->feasible && no->feasible;
	const bool take = yes->feasible;
	if (both) {
		std::vector<step> other(taken_.begin(), taken_.end());
		other.push_back({false, true});
		alternatives_.push_back({std::move(other), no->witness});
	}
	pos_++;
	taken_.push_back({take, both});
	witness_ = take ? yes->witness : no->witness;
	// A side that alone is feasible is implied: no literal needed.
	if (both)
		pc_.push_back(take ? cond : !cond);
	return take;
}

bool path_oracle::decide_probing(const z3::expr& cond)
{
	const std::optional<bool> has = solver_.holds(*witness_, cond);
	const bool flip = std::bernoulli_distribution(probe_->flip)(probe_->rng);
	const bool want = has ? *has != flip : std::bernoulli_distribution(0.5)(probe_->rng);
	bool take = want;
	if (has != want) {
		const z3::expr lit = want ? cond : !cond;
		std::optional<valuation> to = solver_.repair(*witness_, pc_, lit);
		if (!to)
			to = solver_.repair_randomly(*witness_, pc_, lit, probe_->rng, 32);
		if (!to)
			to = solver_.model_within(pc_, lit, probe_->solve_ms, probe_->solve_rlimit);
		if (to)
			witness_ = std::move(to);
		else if (has)
			take = *has;
		else
			throw infeasible_path{};	// the model says neither: the probe ends
	}
	pos_++;
	taken_.push_back({take, true});
	pc_.push_back(take ? cond : !cond);
	return take;
}

} // namespace ptespec::proofs
