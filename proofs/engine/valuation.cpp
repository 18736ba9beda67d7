#include "proofs/engine/valuation.h"

#include <atomic>
#include <utility>

namespace ptespec::proofs {

valuation valuation::of(const z3::model& m)
{
	auto b = std::make_shared<base>(m);
	b->complete = m.num_funcs() == 0;
	for (unsigned k = 0; k < m.num_consts(); k++) {
		const z3::func_decl f = m.get_const_decl(k);
		const z3::expr v = m.get_const_interp(f);
		const z3::sort s = f.range();
		std::uint64_t n = 0;
		if (!s.is_bool() && !(s.is_bv() && s.bv_size() <= 64))
			continue;	// the evaluator gives up on any term of this sort
		if (v.is_true())
			n = 1;
		else if (!v.is_false() && !(v.is_numeral() && v.is_numeral_u64(n)))
			b->complete = false;	// a term, not a value (not from a solver)
		// An id names a term only while it lives: the term is kept.
		const z3::expr c = f();
		b->values.emplace(c.id(), constant{c, n});
	}
	valuation out;
	out.base_ = std::move(b);
	out.serial_ = next_serial();
	return out;
}

valuation valuation::with(std::vector<change> changes) const
{
	std::sort(changes.begin(), changes.end(),
		  [](const change& a, const change& b) { return a.constant.id() < b.constant.id(); });
	valuation out;
	out.base_ = base_;
	out.serial_ = next_serial();
	out.overlay_.reserve(overlay_.size() + changes.size());
	// A merge of two sorted lists; a constant in both takes its new value.
	auto old = overlay_.begin();
	for (change& c : changes) {
		const unsigned id = c.constant.id();
		for (; old != overlay_.end() && old->constant.id() < id; ++old)
			out.overlay_.push_back(*old);
		if (old != overlay_.end() && old->constant.id() == id)
			++old;
		out.overlay_.push_back(std::move(c));
	}
	out.overlay_.insert(out.overlay_.end(), old, overlay_.end());
	// Each lookup searches the overlay: a long path of repairs would
	// make every one slow.
	if (out.overlay_.size() > max_overlay)
		out.flatten();
	return out;
}

z3::model valuation::to_model(z3::context& ctx) const
{
	if (overlay_.empty())
		return base_->model;
	z3::model out(ctx);
	const z3::model& m = base_->model;
	// (add_const_interp takes its arguments by non-const reference.)
	for (unsigned k = 0; k < m.num_consts(); k++) {
		z3::func_decl f = m.get_const_decl(k);
		z3::expr val = m.get_const_interp(f);
		if (!overlaid(f().id()))
			out.add_const_interp(f, val);
	}
	for (const change& c : overlay_) {
		z3::func_decl f = c.constant.decl();
		z3::expr val = literal(c.constant, c.value);
		out.add_const_interp(f, val);
	}
	return out;
}

z3::expr valuation::eval(const z3::expr& e, std::span<const change> overrides) const
{
	z3::context& ctx = e.ctx();
	z3::expr_vector from(ctx), to(ctx);
	for (const change& c : overrides) {
		from.push_back(c.constant);
		to.push_back(literal(c.constant, c.value));
	}
	for (const change& c : overlay_) {
		const bool overridden = std::any_of(overrides.begin(), overrides.end(), [&](const change& o) {
			return o.constant.id() == c.constant.id();
		});
		if (!overridden) {
			from.push_back(c.constant);
			to.push_back(literal(c.constant, c.value));
		}
	}
	if (from.empty())
		return base_->model.eval(e, true);
	z3::expr probe = e;
	return base_->model.eval(probe.substitute(from, to), true);
}

std::uint64_t valuation::next_serial()
{
	static std::atomic<std::uint64_t> last{0};
	return ++last;
}

z3::expr valuation::literal(const z3::expr& c, std::uint64_t v)
{
	return c.is_bool() ? c.ctx().bool_val(v != 0) : c.ctx().bv_val(v, c.get_sort().bv_size());
}

void valuation::flatten()
{
	auto b = std::make_shared<base>(to_model(overlay_.front().constant.ctx()));
	b->values = base_->values;
	b->complete = base_->complete;
	for (const change& c : overlay_)
		b->values.insert_or_assign(c.constant.id(), constant{c.constant, c.value});
	base_ = std::move(b);
	overlay_.clear();
}

} // namespace ptespec::proofs
