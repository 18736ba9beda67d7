// Finding a kernel tree's files and its version (kernel/tree.h).

#include "kernel/tree.h"

#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "model/errors.h"

namespace ptespec::kernel {

namespace fs = std::filesystem;

tree_spec parse_tree_arg(std::string_view arg)
{
	tree_spec s;
	const std::size_t eq = arg.find('=');
	std::string_view dir = arg;
	if (eq != std::string_view::npos) {
		s.name = std::string(arg.substr(0, eq));
		dir = arg.substr(eq + 1);
		if (s.name.empty())
			throw usage_error(fmt::format("--kernel '{}': expected NAME=DIR with a name before '='", arg));
		for (char c : s.name)
			if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
				throw usage_error(fmt::format("--kernel '{}': the name may hold letters, digits, '-', "
							      "'_' and '.' only",
							      arg));
	}
	if (dir.empty())
		throw usage_error(fmt::format("--kernel '{}': expected a kernel tree's top directory", arg));
	s.dir = fs::path(std::string(dir));
	return s;
}

const std::vector<std::string>& tree_files()
{
	static const std::vector<std::string> files = {
		"arch/arm64/mm/contpte.c",
		"arch/arm64/include/asm/pgtable.h",
		"arch/arm64/include/asm/pgtable-hwdef.h",
		"arch/arm64/include/asm/pgtable-prot.h",
		"arch/arm64/include/asm/pgtable-types.h",
	};
	return files;
}

namespace {

// VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION from the top Makefile:
// "6.16.0-rc2"; "" when the tree has no Makefile or it names no version.
std::string makefile_version(const fs::path& dir)
{
	std::ifstream in(dir / "Makefile");
	if (!in)
		return "";
	std::map<std::string, std::string> v;
	std::string line;
	for (int n = 0; n < 40 && std::getline(in, line); n++) {
		const std::size_t eq = line.find('=');
		if (eq == std::string::npos)
			continue;
		auto trim = [](std::string s) {
			const std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t\r");
			return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
		};
		v.emplace(trim(line.substr(0, eq)), trim(line.substr(eq + 1)));
	}
	if (v["VERSION"].empty() || v["PATCHLEVEL"].empty())
		return "";
	std::string out = v["VERSION"] + "." + v["PATCHLEVEL"];
	if (!v["SUBLEVEL"].empty())
		out += "." + v["SUBLEVEL"];
	return out + v["EXTRAVERSION"];
}

} // namespace

tree open_tree(const tree_spec& spec)
{
	std::error_code ec;
	const fs::path dir = fs::absolute(spec.dir, ec);
	if (ec || !fs::is_directory(dir, ec))
		throw usage_error(fmt::format("--kernel '{}': not a directory; expected a kernel tree's top directory",
					      spec.dir.string()));
	for (const std::string& f : tree_files()) {
		const fs::path p = dir / f;
		if (!fs::is_regular_file(p, ec))
			throw usage_error(fmt::format("--kernel '{}': {} is missing; expected a kernel tree with arm64's "
						      "contpte code (merged in v6.9)",
						      spec.dir.string(), f));
		std::ifstream probe(p);
		if (!probe)
			throw usage_error(fmt::format("--kernel '{}': {} cannot be read", spec.dir.string(), f));
	}
	tree t;
	t.dir = dir;
	t.own_tlbflush = fs::is_regular_file(dir / tree_tlbflush, ec);
	const bool hugetlbpage = fs::is_regular_file(dir / tree_hugetlbpage, ec);
	const bool hugetlb_h = fs::is_regular_file(dir / tree_hugetlb_h, ec);
	if (hugetlbpage != hugetlb_h)
		throw usage_error(fmt::format("--kernel '{}': {} is there but {} is missing; expected both (arm64's "
					      "contiguous hugetlb code and its header) or neither",
					      spec.dir.string(), hugetlbpage ? tree_hugetlbpage : tree_hugetlb_h,
					      hugetlbpage ? tree_hugetlb_h : tree_hugetlbpage));
	t.own_hugetlb = hugetlbpage;
	t.version = makefile_version(dir);
	t.name = !spec.name.empty() ? spec.name : "kernel-" + (t.version.empty() ? std::string("unknown") : t.version);
	return t;
}

} // namespace ptespec::kernel
