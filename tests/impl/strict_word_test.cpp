// The strategies are ready for symbolic words: over a word whose boolean
// cannot be converted to bool (as a Z3 boolean cannot), every strategy
// still compiles -- so no `if` tests an M::boolean except through
// m.branch() -- and computes what it computes on plain words.
#include <cstdint>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "impl/adapter.h"
#include "impl/mainline.h"
#include "impl/variants/clear_block.h"
#include "impl/variants/early_return.h"
#include "impl/variants/gather_writeback.h"
#include "impl/variants/robust.h"
#include "impl/variants/simple.h"
#include "impl/variants/unfold.h"
#include "tests/impl/table.h"

namespace ptespec {

// A boolean with the logic operators and nothing else: no operator bool.
struct strict_bool {
	bool v;
	strict_bool(bool b) : v(b) {}	// implicit, as a Z3 boolean takes a literal
	friend strict_bool operator&&(strict_bool a, strict_bool b) { return {a.v && b.v}; }
	friend strict_bool operator||(strict_bool a, strict_bool b) { return {a.v || b.v}; }
	friend strict_bool operator!(strict_bool a) { return {!a.v}; }
};

struct strict_word {
	std::uint64_t v = 0;
	friend strict_word operator&(strict_word a, strict_word b) { return {a.v & b.v}; }
	friend strict_word operator|(strict_word a, strict_word b) { return {a.v | b.v}; }
	friend strict_word operator^(strict_word a, strict_word b) { return {a.v ^ b.v}; }
	friend strict_word operator+(strict_word a, strict_word b) { return {a.v + b.v}; }
	friend strict_word operator~(strict_word a) { return {~a.v}; }
};

template <>
struct word_ops<strict_word> {
	using boolean = strict_bool;
	static strict_word lit(const strict_word&, std::uint64_t v) { return {v}; }
	static strict_bool nonzero(const strict_word& w) { return {w.v != 0}; }
	static strict_bool equal(const strict_word& a, const strict_word& b) { return {a.v == b.v}; }
	static strict_word select(strict_bool c, const strict_word& a, const strict_word& b) { return c.v ? a : b; }
	static strict_bool select(strict_bool c, strict_bool a, strict_bool b) { return c.v ? a : b; }
	static strict_word lshr(const strict_word& w, unsigned n) { return {w.v >> n}; }
	static strict_word shl(const strict_word& w, unsigned n) { return {w.v << n}; }
	static std::uint64_t value(const strict_word& w) { return w.v; }
	static strict_word from(std::uint64_t v) { return {v}; }
	static bool truth(strict_bool b) { return b.v; }
};

static_assert(pte_word<strict_word>);
static_assert(!std::is_convertible_v<strict_bool, bool>);

namespace test {
namespace {

using strict_machine = basic_machine<strict_word>;

std::vector<call> teardown_script()
{
	std::vector<call> s;
	auto add = [&](call_kind k, std::size_t i, std::size_t nr, bool full, std::uint64_t pte, unsigned flags) {
		call c;
		c.kind = k;
		c.index = i;
		c.nr = nr;
		c.full = full;
		c.pte = pte;
		c.flags = flags;
		s.push_back(c);
	};
	add(call_kind::set_ptes, 0, 32, false, page(0x100), 0);
	add(call_kind::set_ptes, 32, 15, false, page(0x120), 0);
	add(call_kind::set_ptes, 47, 1, false, page(0x12f), 0);
	add(call_kind::ptep_set_access_flags, 3, 1, false, dirty(young(page(0x103))), 1);
	add(call_kind::ptep_get_lockless, 9, 1, false, 0, 0);
	add(call_kind::ptep_clear_flush_young, 12, 1, false, 0, 0);
	add(call_kind::wrprotect_ptes, 20, 4, false, 0, 0);
	add(call_kind::clear_young_dirty_ptes, 40, 2, false, 0, CYDP_CLEAR_YOUNG);
	add(call_kind::ptep_test_and_clear_young, 44, 1, false, 0, 0);
	add(call_kind::contpte_try_unfold, 33, 1, false, 0, 0);
	add(call_kind::contpte_try_fold, 33, 1, false, 0, 0);
	for (std::size_t i = 0; i < 16; i++) {
		add(call_kind::ptep_get, i, 1, false, 0, 0);
		add(call_kind::ptep_get_and_clear_full, i, 1, true, 0, 0);
	}
	add(call_kind::get_and_clear_full_ptes, 16, 16, true, 0, 0);
	add(call_kind::clear_full_ptes, 32, 16, false, 0, 0);
	return s;
}

template <template <class> class S>
void same_on_strict_words()
{
	S<machine> plain_s;
	S<strict_machine> strict_s;
	machine plain(geo4k, 3 * CONT);
	strict_machine strict(geo4k, 3 * CONT);
	plain.set_folios({{0x100, 64}});
	strict.set_folios({{0x100, 64}});
	for (const call& c : teardown_script()) {
		SCOPED_TRACE(describe(c));
		const call_result a = dispatch(plain_s, plain, c);
		const call_result b = dispatch(strict_s, strict, c);
		EXPECT_EQ(a.pte, b.pte);
		EXPECT_EQ(a.young, b.young);
		EXPECT_EQ(a.changed, b.changed);
		ASSERT_EQ(plain.table(), strict.table());
	}
	EXPECT_EQ(ruler(strict.table()), "|................| |................| |................|");
}

TEST(strict_word, mainline_needs_no_bool_conversion) { same_on_strict_words<mainline>(); }
TEST(strict_word, unfold_needs_no_bool_conversion) { same_on_strict_words<variants::unfold>(); }
TEST(strict_word, gather_writeback_needs_no_bool_conversion) { same_on_strict_words<variants::gather_writeback>(); }
TEST(strict_word, simple_needs_no_bool_conversion) { same_on_strict_words<variants::simple>(); }
TEST(strict_word, robust_needs_no_bool_conversion) { same_on_strict_words<variants::robust>(); }
TEST(strict_word, early_return_needs_no_bool_conversion) { same_on_strict_words<variants::early_return>(); }
TEST(strict_word, clear_block_needs_no_bool_conversion) { same_on_strict_words<variants::clear_block>(); }

} // namespace
} // namespace test
} // namespace ptespec
