// The exit() cost over the never-folding baseline that the linux-mm thread
// this project grew out of measured on an Ampere Altra, on one and on two
// NUMA nodes, in percent: `cost` and `report` print them beside the model's
// figures, which predict them for every strategy but these.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace ptespec::cli {

inline std::optional<std::pair<int, int>> thread_figure(const std::string& strategy)
{
	static const std::map<std::string, std::pair<int, int>> measured = {
		{"unfold", {190, 768}}, {"simple", {8, 29}}, {"robust", {21, 19}}, {"mainline", {13, 9}}};
	const auto it = measured.find(strategy);
	if (it == measured.end())
		return std::nullopt;
	return it->second;
}

} // namespace ptespec::cli
