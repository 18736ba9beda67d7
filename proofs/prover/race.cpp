// A lockless read beside its writer (concurrent_read): the read points
// as free words, the reads as terms over the writer's tables, and the
// points a probe gives them.
#include <algorithm>
#include <random>

#include "model/errors.h"
#include "proofs/engine/ground.h"
#include "proofs/prover/symbolic_run.h"

namespace ptespec::proofs {

namespace {

// The width of a read point: more primitives than one call makes.
constexpr unsigned point_bits = 16;

// The free words the points are made of: the split, the early point, and
// the steps from it to the late point and on to the end.
constexpr const char* split_word = "race.split";
constexpr const char* early_word = "race.early";
constexpr const char* after_early_word = "race.after_early";
constexpr const char* after_late_word = "race.after_late";

z3::expr point_word(z3::context& ctx, const char* name) { return ctx.bv_const(name, point_bits - 2); }

z3::expr point_var(z3::context& ctx, const char* name)
{
	// Each point is the one before it plus a free step, so every
	// placement of the reads is some value of free words (nothing to
	// assume: the path solver's repair may change any of them).
	return z3::zext(point_word(ctx, name), 2);
}

} // namespace

// The points of probe n of `of` (case_batch::probe): its late point sweeps
// the writer's run from start to end over the probes, so each stretch of
// the writer is some probe's; every other probe reads early at the
// writer's start (a read begun before any store), the rest at a random
// point before late; the split and the end at random.
std::vector<valuation::change> probe_points(const concurrent_read& race, std::size_t n, std::size_t of,
					    std::mt19937_64& rng)
{
	z3::context& ctx = race.split.ctx();
	const std::size_t last = race.snapshots.empty() ? 0 : race.snapshots.size() - 1;
	auto upto = [&rng](std::size_t hi) { return std::uniform_int_distribution<std::size_t>(0, hi)(rng); };
	const std::size_t late = of > 1 ? n * last / (of - 1) : upto(last);
	const std::size_t early = n % 2 ? 0 : upto(late);
	const std::size_t end = late + upto(last - late);
	const std::size_t split = 1 + upto(race.split_within - 1);
	return {{point_word(ctx, split_word), split},
		{point_word(ctx, early_word), early},
		{point_word(ctx, after_early_word), late - early},
		{point_word(ctx, after_late_word), end - late}};
}

concurrent_read::concurrent_read(z3::context& ctx, std::size_t within)
	: split_within(within), split(point_var(ctx, split_word)), early(point_var(ctx, early_word)),
	  late(early + point_var(ctx, after_early_word)), end(late + point_var(ctx, after_late_word))
{
}

z3::expr concurrent_read::at(const z3::expr& point, std::size_t i) const
{
	if (snapshots.empty())
		throw internal_error("prover: a lockless read before its writer ran");
	// From the last snapshot back: a term per change of the entry.
	z3::expr out = snapshots.back().at(i);
	for (std::size_t k = snapshots.size() - 1; k-- > 0;) {
		const z3::expr& v = snapshots[k].at(i);
		if (z3::eq(v, snapshots[k + 1].at(i)))
			continue;
		out = z3::ite(z3::ule(point, point.ctx().bv_val(k, point_bits)), v, out);
	}
	return out;
}

z3::expr concurrent_read::read(std::size_t i, std::size_t n)
{
	if (memo_.size() < snapshots.front().size())
		memo_.resize(snapshots.front().size());
	auto& [e, l] = memo_.at(i);
	if (!l)
		l = at(late, i);
	if (n >= split_within)
		return *l;
	if (!e)
		e = at(early, i);
	z3::context& ctx = split.ctx();
	return z3::ite(z3::ult(ctx.bv_val(n, point_bits), split), *e, *l);
}

concurrent_read::points concurrent_read::in(const z3::model& m) const
{
	auto num = [&](const z3::expr& e) {
		return static_cast<std::size_t>(ground_value(m.eval(z3::zext(e, 64 - point_bits), true)));
	};
	return {std::min(num(split), split_within), num(early), num(late), num(end)};
}

} // namespace ptespec::proofs
