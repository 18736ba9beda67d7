// Page tables drawn as rulers: one character per entry, '|' between runs.
//
//   after      #0 |OOOOYOOOOOOOOOOB|oyoo............|
//
// The letter is the entry's own access/dirty state, the case its CONT bit
// (model/ruler.h's ruler_char), so a reader sees at once where hardware
// left a flag inside a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/geometry.h"
#include "model/observer.h"

namespace ptespec::cli {

// What the characters mean, for printing above the first ruler.
std::string_view ruler_legend();

// The table as ruler lines of at most `width` entries, each line prefixed
// with `label` (on the first line) and the index of its first entry.
std::string table_ruler(std::string_view label, const table_t& t, const geometry& geo, std::size_t width = 64);

} // namespace ptespec::cli
