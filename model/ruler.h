// Runs drawn as rulers, one character per entry:
//
//   '.' none   's' non-present value (swap entry, marker)
//   'o' old+clean   'y' young   'd' dirty   'b' young+dirty
//   upper case when the entry carries CONT:  |YYYYDDDDOOOOOOOO|
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/geometry.h"

namespace ptespec {

char ruler_char(std::uint64_t pte);
// The run holding entry `run_first` (any entry of it), as |....|.
std::string ruler(const std::vector<std::uint64_t>& table, const geometry& geo, std::size_t any_entry);
// Every run of the table, separated by spaces.
std::string rulers(const std::vector<std::uint64_t>& table, const geometry& geo);

} // namespace ptespec
