// Kernel-style trees for the tests: the test tree, its variants (patches
// in tests/kernel/variants/, see the README there), and broken copies for
// the error paths -- each written into a fresh directory.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace ptespec::kernel_test {

namespace fs = std::filesystem;

inline std::string read_text(const fs::path& p)
{
	std::ifstream in(p);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

inline void write_text(const fs::path& p, const std::string& text)
{
	fs::create_directories(p.parent_path());
	std::ofstream(p) << text;
}

inline fs::path fresh_dir(const std::string& what)
{
	std::string tmpl = "/tmp/ptespec-" + what + "-XXXXXX";
	const char* d = mkdtemp(tmpl.data());
	EXPECT_NE(d, nullptr);
	return d ? fs::path(d) : fs::path("/tmp");
}

// A copy of the test tree.
inline fs::path copy_tree(const std::string& what)
{
	const fs::path dir = fresh_dir(what);
	fs::copy(PTESPEC_TEST_TREE, dir, fs::copy_options::recursive);
	return dir;
}

// Deletes the block that starts at the line `first` and ends at the next
// line that is exactly "}".
inline std::string remove_block(const std::string& text, const std::string& first)
{
	const std::size_t at = text.find(first + "\n");
	EXPECT_NE(at, std::string::npos) << "no line " << first;
	if (at == std::string::npos)
		return text;
	const std::size_t end = text.find("\n}\n", at);
	EXPECT_NE(end, std::string::npos);
	return text.substr(0, at) + text.substr(end + 3);
}

// The test tree with variant `name` applied.
inline fs::path variant_tree(const std::string& name)
{
	const fs::path dir = copy_tree("variant-" + name);
	const fs::path patches = fs::path(PTESPEC_TEST_VARIANTS) / name;
	for (const char* rel : {"arch/arm64/include/asm/pgtable.h", "arch/arm64/mm/contpte.c"}) {
		const fs::path file = dir / rel;
		const std::string base = file.filename().string();
		std::string text = read_text(file);
		if (fs::exists(patches / (base + ".remove"))) {
			std::istringstream lines(read_text(patches / (base + ".remove")));
			for (std::string line; std::getline(lines, line);)
				if (!line.empty())
					text = remove_block(text, line);
		}
		if (fs::exists(patches / (base + ".insert"))) {
			const std::string marker = "#endif /* CONFIG_ARM64_CONTPTE */";
			const std::size_t at = text.find(marker);
			EXPECT_NE(at, std::string::npos);
			text.insert(at, read_text(patches / (base + ".insert")));
		}
		if (fs::exists(patches / (base + ".append")))
			text += read_text(patches / (base + ".append"));
		write_text(file, text);
	}
	return dir;
}

// Replaces the first `from` in the tree's file `rel` by `to`.
inline void edit(const fs::path& tree, const std::string& rel, const std::string& from, const std::string& to)
{
	std::string text = read_text(tree / rel);
	const std::size_t at = text.find(from);
	ASSERT_NE(at, std::string::npos) << rel << " has no " << from;
	text.replace(at, from.size(), to);
	write_text(tree / rel, text);
}

} // namespace ptespec::kernel_test
