// A small dynamic bitset of page indices.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptespec {

class page_set {
public:
	page_set() = default;
	explicit page_set(std::size_t n) : w_((n + 63) / 64, 0) {}

	void add(std::size_t i) { w_[i / 64] |= std::uint64_t{1} << (i % 64); }
	void remove(std::size_t i) { w_[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
	bool has(std::size_t i) const { return i / 64 < w_.size() && (w_[i / 64] >> (i % 64) & 1); }
	bool empty() const
	{
		for (auto w : w_)
			if (w)
				return false;
		return true;
	}
	bool intersects(const page_set& o) const
	{
		for (std::size_t i = 0; i < w_.size() && i < o.w_.size(); i++)
			if (w_[i] & o.w_[i])
				return true;
		return false;
	}
	void unite(const page_set& o)
	{
		for (std::size_t i = 0; i < w_.size() && i < o.w_.size(); i++)
			w_[i] |= o.w_[i];
	}
	void subtract(const page_set& o)
	{
		for (std::size_t i = 0; i < w_.size() && i < o.w_.size(); i++)
			w_[i] &= ~o.w_[i];
	}
	bool operator==(const page_set& o) const = default;

	template <class F>
	void for_each(F&& f) const
	{
		for (std::size_t i = 0; i < w_.size(); i++)
			for (std::uint64_t w = w_[i]; w; w &= w - 1)
				f(i * 64 + static_cast<std::size_t>(std::countr_zero(w)));
	}

private:
	std::vector<std::uint64_t> w_;
};

} // namespace ptespec
