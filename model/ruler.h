// Page tables drawn as rulers, one character per entry, '|' between runs:
//
//   '.' none   's' non-present value (swap entry, marker)
//   'o' old+clean   'y' young   'd' dirty   'b' young+dirty
//   upper case when the entry carries CONT:  |YYYYDDDDOOOOOOOO|
//
// The letter is the entry's own access/dirty state, the case its CONT bit,
// so a reader sees at once where hardware left a flag inside a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/geometry.h"

namespace ptespec {

char ruler_char(std::uint64_t pte);
// The run holding entry `any_entry`, as |....|.
std::string ruler(const std::vector<std::uint64_t>& table, const geometry& geo, std::size_t any_entry);
// Every run of the table, separated by spaces.
std::string rulers(const std::vector<std::uint64_t>& table, const geometry& geo);

// A run a step changed: its index and its ruler on either side.
struct run_change {
	std::size_t run = 0;
	std::string before, after;
};
// The runs that differ between two tables of one geometry, in order.
std::vector<run_change> changed_runs(const std::vector<std::uint64_t>& before,
				     const std::vector<std::uint64_t>& after, const geometry& geo);

// What the characters mean, for printing above the first ruler.
std::string_view ruler_legend();

// The table as ruler lines of at most `width` entries, each line prefixed
// with `label` (on the first line) and the index of its first entry:
//
//   after      #0 |OOOOYOOOOOOOOOOB|oyoo............|
std::string table_ruler(std::string_view label, const std::vector<std::uint64_t>& t, const geometry& geo,
			std::size_t width = 64);

} // namespace ptespec
