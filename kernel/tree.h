// A kernel tree ptespec judges: its own contpte code, compiled as it is
// against ptespec's shim headers (kernel/shim/include) into one module per
// granule, loaded and registered as a strategy.
//
//   ptespec --kernel ~/linux check              the tree's mainline, named kernel-<version>
//   ptespec --kernel mine=~/linux test ...      the same, named "mine"
//
// What the tree gives: arch/arm64/mm/contpte.c and arch/arm64/include/asm/
// pgtable.h with the bit definitions beside it (pgtable-hwdef.h,
// pgtable-prot.h, pgtable-types.h).  What ptespec gives: every other header
// those include, as shims over the machine (kernel/shim/include/ptespec/
// host.h is the one boundary), and the adapter that turns a model call into
// the tree's function (kernel/shim/adapter.c).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/strategy.h"
#include "model/geometry.h"

namespace ptespec::kernel {

// What --kernel was given.
struct tree_spec {
	std::string name;	// empty: kernel-<version> from the tree's Makefile
	std::filesystem::path dir;
};
// "DIR" or "NAME=DIR".  Throws usage_error naming the argument.
tree_spec parse_tree_arg(std::string_view arg);

// The tree's files ptespec compiles, relative to its top directory.
const std::vector<std::string>& tree_files();
// The tree's own TLB maintenance, compiled when the tree has it (every real
// tree does) with its TLBI macros calling the host (kernel/tlbi.h); a tree
// without it gets the shim's flush API.
inline constexpr const char* tree_tlbflush = "arch/arm64/include/asm/tlbflush.h";
// The tree's contiguous hugetlb code, compiled when the tree has both (every
// real tree since v4.5 does): its calls become the strategy's hugetlb calls.
// A tree without them has no hugetlb call (the hugetlb sweep says so).
inline constexpr const char* tree_hugetlbpage = "arch/arm64/mm/hugetlbpage.c";
inline constexpr const char* tree_hugetlb_h = "arch/arm64/include/asm/hugetlb.h";

struct tree {
	std::string name;
	std::filesystem::path dir;	// absolute
	std::string version;	// "6.16.0-rc2", from the Makefile; "" when it has none
	bool own_tlbflush = false;	// it has tree_tlbflush
	bool own_hugetlb = false;	// it has tree_hugetlbpage and tree_hugetlb_h
};
// Checks that every file of tree_files() is there and reads the version.
// Throws usage_error naming the first missing file, or the hugetlb file
// missing beside the other.
tree open_tree(const tree_spec& spec);

struct build_options {
	std::string compiler;	// empty: $CC, then cc, then gcc
	std::filesystem::path cache_dir;	// empty: $PTESPEC_CACHE, $XDG_CACHE_HOME/ptespec, ~/.cache/ptespec
	// The symbolic build: the same sources and shims compiled as C++ with
	// the proofs' pte words (kernel/shim/include/ptespec/word.h), by $CXX,
	// c++ or g++; made the first time a proof runs the tree.
	bool symbolic = false;
	// Called about every 10 ms while the compilers run, with what is being
	// built ("compiling kernel-6.16 (symbolic build)"), and once with ""
	// when they end: the CLI shows it as progress (a build takes 5-20 s).
	std::function<void(const std::string& what)> waiting;
};

// One built module per granule, and how it came about.
struct built_tree {
	std::filesystem::path modules[3];	// by granule: 4K, 16K, 64K
	bool cached = false;	// every module was in the cache
	double seconds = 0;	// wall time of the build (0 when cached)
	std::string key;	// the content hash the cache is keyed by
};
// Compiles the tree for every granule, or finds it in the cache.  A compile
// error, a symbol the shims lack, or no compiler: usage_error in one line.
built_tree build_tree(const tree& t, const build_options& o = {});

// Builds (or finds), loads and registers the tree's strategy.
strategy& load_tree(const tree_spec& spec, registry& r = registry::global(), const build_options& o = {});

// Per function the calls reach: whether the tree or ptespec defined it
// (what `ptespec list --functions` prints).  Empty for a strategy that is
// not a kernel tree's.
struct function_origin {
	std::string name;
	std::string origin;	// "tree" or "ptespec"
};
std::vector<function_origin> function_origins(const strategy& s);

} // namespace ptespec::kernel
