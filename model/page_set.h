// A small set of page indices: a bitset kept inline for tables of up to 512
// entries (every table the tool builds by default), on the heap beyond.
// The checker makes several per call, so they must not allocate.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptespec {

class page_set {
public:
	page_set() = default;
	explicit page_set(std::size_t n) : words_((n + 63) / 64)
	{
		if (words_ > inline_words)
			heap_.assign(words_, 0);
	}

	void add(std::size_t i) { data()[i / 64] |= std::uint64_t{1} << (i % 64); }
	void remove(std::size_t i) { data()[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
	bool has(std::size_t i) const { return i / 64 < words_ && (data()[i / 64] >> (i % 64) & 1); }
	bool empty() const
	{
		for (std::size_t i = 0; i < words_; i++)
			if (data()[i])
				return false;
		return true;
	}
	bool intersects(const page_set& o) const
	{
		const std::size_t n = words_ < o.words_ ? words_ : o.words_;
		for (std::size_t i = 0; i < n; i++)
			if (data()[i] & o.data()[i])
				return true;
		return false;
	}
	void unite(const page_set& o)
	{
		const std::size_t n = words_ < o.words_ ? words_ : o.words_;
		for (std::size_t i = 0; i < n; i++)
			data()[i] |= o.data()[i];
	}
	void subtract(const page_set& o)
	{
		const std::size_t n = words_ < o.words_ ? words_ : o.words_;
		for (std::size_t i = 0; i < n; i++)
			data()[i] &= ~o.data()[i];
	}
	bool operator==(const page_set& o) const
	{
		if (words_ != o.words_)
			return false;
		for (std::size_t i = 0; i < words_; i++)
			if (data()[i] != o.data()[i])
				return false;
		return true;
	}

	template <class F>
	void for_each(F&& f) const
	{
		for (std::size_t i = 0; i < words_; i++)
			for (std::uint64_t w = data()[i]; w; w &= w - 1)
				f(i * 64 + static_cast<std::size_t>(std::countr_zero(w)));
	}

private:
	static constexpr std::size_t inline_words = 8;
	std::uint64_t* data() { return words_ > inline_words ? heap_.data() : inline_.data(); }
	const std::uint64_t* data() const { return words_ > inline_words ? heap_.data() : inline_.data(); }

	std::size_t words_ = 0;
	std::array<std::uint64_t, inline_words> inline_{};
	std::vector<std::uint64_t> heap_;
};

} // namespace ptespec
