// A call's paths joined into one step over the tree of their decisions.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "model/errors.h"
#include "proofs/prover/symbolic_run.h"

namespace ptespec::proofs {

namespace {

// The paths of one call as the binary tree of their decisions: a leaf is a
// path, an inner node a decision with the subtrees where its condition held
// and where it did not.  A value is joined over the paths bottom-up, with
// an ite on a decision only where its two subtrees disagree: a value most
// paths share costs little, and the guard of a slot that only the paths
// past some loop exit have is one literal per decision on the way, not a
// disjunction of whole path conditions.
class decision_tree {
public:
	explicit decision_tree(const std::vector<path_run>& runs) : runs_(runs)
	{
		std::vector<std::size_t> all(runs.size());
		for (std::size_t k = 0; k < all.size(); k++)
			all[k] = k;
		root_ = build(all, 0);
	}

	// One term equal, on each path k, to value(k).
	template <class F>
	z3::expr join(F&& value) const
	{
		std::vector<std::optional<z3::expr>> memo(nodes_.size());
		return join_at(root_, value, memo);
	}

private:
	struct node {
		std::size_t path = 0;	// a leaf's path
		std::optional<z3::expr> cond;	// an inner node's condition
		std::size_t yes = 0, no = 0;
	};

	std::size_t build(const std::vector<std::size_t>& paths, std::size_t depth)
	{
		if (paths.size() == 1) {
			nodes_.push_back({paths[0], std::nullopt, 0, 0});
			return nodes_.size() - 1;
		}
		std::vector<std::size_t> yes, no;
		std::optional<z3::expr> cond;
		for (std::size_t k : paths) {
			const auto& d = runs_[k].decisions;
			// Two paths with the same decisions would be the same path.
			if (depth >= d.size())
				throw internal_error("prover: two paths of one call took the same decisions");
			(d[depth].first ? yes : no).push_back(k);
			if (d[depth].first && !cond)
				cond = d[depth].second;
		}
		// A side with no path was infeasible: nothing to tell apart here.
		if (yes.empty() || no.empty())
			return build(paths, depth + 1);
		const std::size_t y = build(yes, depth + 1);
		const std::size_t n = build(no, depth + 1);
		nodes_.push_back({0, cond, y, n});
		return nodes_.size() - 1;
	}

	template <class F>
	z3::expr join_at(std::size_t at, F& value, std::vector<std::optional<z3::expr>>& memo) const
	{
		if (memo[at])
			return *memo[at];
		const node& nd = nodes_[at];
		std::optional<z3::expr> out;
		if (!nd.cond) {
			out = value(nd.path);
		} else {
			const z3::expr y = join_at(nd.yes, value, memo);
			const z3::expr n = join_at(nd.no, value, memo);
			out = z3::eq(y, n) ? y : z3::ite(*nd.cond, y, n);
		}
		memo[at] = out;
		return *out;
	}

	const std::vector<path_run>& runs_;
	std::vector<node> nodes_;
	std::size_t root_ = 0;
};

std::optional<z3::expr> join_result(const decision_tree& tree, const std::vector<path_run>& runs,
				    std::optional<z3::expr> sym_call_result::*field)
{
	std::size_t have = 0;
	for (const path_run& r : runs)
		have += (r.result.*field).has_value();
	if (have == 0)
		return std::nullopt;
	if (have != runs.size())
		throw internal_error("prover: the paths of one call disagree on what it returns");
	return tree.join([&](std::size_t k) { return *(runs[k].result.*field); });
}

// The distinct slots of the paths (a slot is its firing condition: the
// same variables on the same entry value), each fired only on the paths
// that have it.
std::vector<sym_event> join_events(const decision_tree& tree, const std::vector<path_run>& runs)
{
	z3::context& ctx = runs.front().pc.ctx();
	using key = std::pair<unsigned, unsigned>;
	std::map<key, std::vector<bool>> on_path;
	std::vector<sym_event> distinct;
	std::vector<key> keys;
	for (std::size_t k = 0; k < runs.size(); k++)
		for (const sym_event& e : runs[k].events) {
			const key id{e.fired.id(), e.cont.id()};
			auto [it, fresh] = on_path.try_emplace(id, runs.size(), false);
			it->second[k] = true;
			if (fresh) {
				distinct.push_back(e);
				keys.push_back(id);
			}
		}
	for (std::size_t x = 0; x < distinct.size(); x++) {
		const std::vector<bool>& has = on_path.at(keys[x]);
		const z3::expr guard = tree.join([&](std::size_t k) { return ctx.bool_val(has[k]); });
		if (!guard.is_true())
			distinct[x].fired = distinct[x].fired && guard;
	}
	return distinct;
}

} // namespace

// The paths of one part as one step: each value an ite over the decisions
// that tell the paths apart (decision_tree); a racing writer's tables
// joined into the race.
sym_step join_paths(z3::context& ctx, const sym_world& w, const std::vector<z3::expr>& table, const call& c,
		    std::size_t ordinal, const std::vector<path_run>& runs)
{
	sym_step st;
	st.ordinal = ordinal;
	st.c = c;
	st.before = table;
	st.paths = runs.size();
	const decision_tree tree(runs);
	for (std::size_t j = 0; j < table.size(); j++) {
		st.after.push_back(tree.join([&](std::size_t k) { return runs[k].table[j]; }));
		st.taken.push_back(tree.join([&](std::size_t k) { return runs[k].taken[j]; }));
		st.cached.push_back(tree.join([&](std::size_t k) { return runs[k].cached[j]; }));
	}
	if (w.stores_judged)
		st.stores_well_formed = tree.join([&](std::size_t k) { return runs[k].stores_well_formed; });
	st.result.pte = join_result(tree, runs, &sym_call_result::pte);
	st.result.young = join_result(tree, runs, &sym_call_result::young);
	st.result.changed = join_result(tree, runs, &sym_call_result::changed);
	st.events = join_events(tree, runs);
	if (w.race && ordinal == w.race->writer) {
		// Each path's tables, the shorter ones held at their last.
		std::size_t longest = 0;
		for (const path_run& r : runs)
			longest = std::max(longest, r.snapshots.size());
		std::vector<std::vector<z3::expr>>& joined = w.race->snapshots;
		joined.assign(longest, {});
		for (std::size_t k = 0; k < longest; k++)
			for (std::size_t j = 0; j < table.size(); j++)
				joined[k].push_back(tree.join([&](std::size_t p) {
					const auto& sn = runs[p].snapshots;
					return sn[std::min(k, sn.size() - 1)][j];
				}));
		w.race->last = tree.join([&](std::size_t p) {
			return ctx.bv_val(runs[p].snapshots.size() - 1, w.race->end.get_sort().bv_size());
		});
	}
	st.parts.emplace_back();
	for (const path_run& r : runs) {
		st.parts.back().emplace_back(r.pc, r.gaps);
		for (sym_event e : r.events) {
			if (runs.size() > 1)
				e.fired = e.fired && r.pc;
			st.trace.push_back(e);
		}
	}
	return st;
}

} // namespace ptespec::proofs
