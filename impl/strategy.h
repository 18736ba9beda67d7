// A strategy: one implementation of the contpte arch API under test.
//
// Strategy source is a class template over the machine M (model/machine.h
// or the symbolic machine of proofs/), written once:
//
//   template <class M>
//   struct my_strategy : ptespec::mainline_ops<M, my_strategy<M>> {
//           using W = typename M::word;
//           W ptep_get(M& m, std::size_t i);      // hides mainline's
//   };
//
// Each API function takes the machine and entry indices; words are M::word,
// conditions M::boolean, and a branch on a word-derived condition is written
// `if (m.branch(cond))`.  A strategy need not implement every call; the
// ones it lacks make the properties that need them `n/a`.
//
// This header is the type-erased face the CLI, the properties and plugins
// use: a `strategy` runs any call on the concrete or instrumented machine.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/call.h"
#include "model/counted_word.h"
#include "model/machine.h"

namespace z3 {
class expr;
}

namespace ptespec {

using counted_machine = basic_machine<counted_word>;
// The proofs' machine over Z3 words (model/symbolic_machine.h).
class symbolic_machine;
struct sym_call_result;

struct strategy_info {
	std::string name;	// stable, what --strategy takes
	std::string description;	// one line, what `ptespec list` prints
	std::string origin;	// "builtin", "in-tree", the plugin's path, or kernel_tree_origin + the tree's directory
};

// How a kernel tree's strategy names where it came from (kernel/module.cpp).
inline constexpr std::string_view kernel_tree_origin = "kernel tree ";

// What a command line needs before its command to find this strategy again:
// "" for one built in, " --plugin PATH" for a plugin's, " --kernel NAME=DIR"
// for a kernel tree's -- the name given, so a tree judged under a name of its
// own is found under it. A reproduce line without it names a strategy that
// the command it prints does not know.
std::string loading_flag(const strategy_info& i);

class strategy {
public:
	virtual ~strategy() = default;
	virtual const strategy_info& info() const = 0;
	// Whether the strategy provides this call.
	virtual bool implements(call_kind k) const = 0;
	// Runs one call (without begin/end bracketing; see run_call).
	virtual call_result invoke(machine& m, const call& c) = 0;
	virtual call_result invoke(counted_machine& m, const call& c) = 0;
	// The same source on symbolic words: what `ptespec prove` runs.
	virtual sym_call_result invoke(symbolic_machine& m, const call& c) = 0;
	// Whether call kind k is core-mm's generic batch loop over the
	// strategy's own ptep_get_and_clear_full (impl/generic.h).
	virtual bool batch_is_generic(call_kind k) const = 0;
	// Whether invoke(symbolic_machine&) runs: false for a kernel tree whose
	// symbolic build failed (prove skips it and says why_not_symbolic()).
	virtual bool symbolic() const { return true; }
	virtual std::string why_not_symbolic() const { return {}; }
	// Whether invoke(symbolic_machine&) runs call kind k: a kernel tree's
	// symbolic build leaves its hugetlbpage.c out, so it has the tree's
	// hugetlb calls on the concrete machines only.
	virtual bool implements_symbolic(call_kind k) const { return implements(k); }
	// The strategy's pte_batch_hint for entry i holding pte: how many
	// entries from i on map the pages after pte's with its attributes, so
	// core-mm's folio_pte_batch may take them unread.  A pure function of
	// the entry's place and value; core-mm's generic answer (an arch
	// without one) is 1.
	virtual std::size_t pte_batch_hint(const geometry&, std::size_t, std::uint64_t) const { return 1; }
	// Whether the strategy has a hint of its own (not core-mm's 1).
	virtual bool has_batch_hint() const { return false; }
	// The same hint on the symbolic machine, on the path the machine's
	// oracle takes (what the hint/ obligations run); none when the
	// strategy's hint is written over concrete words only, so the proofs
	// cannot run it.
	virtual std::optional<std::size_t> pte_batch_hint(symbolic_machine&, std::size_t, const z3::expr&)
	{
		return std::size_t{1};
	}
};

// Brackets one call so observers see its beginning and end.
template <class M>
call_result run_call(strategy& s, M& m, const call& c)
{
	m.begin_call(c);
	call_result r = s.invoke(m, c);
	m.end_call(c, r);
	return r;
}

// The registry of known strategies: built in, in-tree contributions, and
// plugins loaded at run time.
class registry {
public:
	static registry& global();
	void add(std::unique_ptr<strategy> s);	// throws usage_error on a duplicate name
	strategy* find(std::string_view name) const;
	strategy& get(std::string_view name) const;	// throws usage_error naming the input
	std::vector<strategy*> all() const;

private:
	std::vector<std::unique_ptr<strategy>> list_;
};

} // namespace ptespec
