// The shim headers and the adapter (kernel/shim/), built into ptespec so
// that an installed ptespec needs no source tree: written out into the
// module cache when a kernel tree is compiled.  Generated at build time by
// cmake/embed_files.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace ptespec::kernel {

struct embedded_file {
	std::string_view path;	// relative to kernel/shim/
	std::string_view text;
};

const std::vector<embedded_file>& shim_files();

} // namespace ptespec::kernel
