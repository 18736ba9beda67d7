// The one source change the symbolic build makes: if-conversion.
//
// The kernel ORs a run's flags one entry at a time,
//
//     if (pte_dirty(ptent))
//             pte = pte_mkdirty(pte);
//
// and run natively on symbolic words each such `if` is a decision: a
// contpte_convert of 16 entries would be 4^16 paths.  A compiler turns such
// a statement into a select when the assigned value is cheap and has no side
// effect; so does this pass, into
//
//     pte = ptespec_select((pte_dirty(ptent)), [&]() { return (pte_mkdirty(pte)); }, pte);
//
// which keeps a pte word (or the tree's bool) a term, ite(cond, new, old),
// and decides as C does for any other type (kernel/shim/include/ptespec/
// word.h).  The value is computed on both sides; one that makes a primitive
// ends the path undecided (checked at run time), so a conversion never
// changes what the machine sees.  Converted: `if (C) V op E;` and
// `if (C) { V op E; }` with V one identifier, op one of = |= &=, no else,
// E free of assignments and of ++/--, nothing inside a macro definition.
// Line numbers are kept (a WARN still names its line).  The C build takes
// the tree's files as they are.
#pragma once

#include <string>

namespace ptespec::kernel {

struct if_conversion {
	std::string text;
	std::size_t converted = 0;
};

if_conversion if_convert(const std::string& source);

} // namespace ptespec::kernel
