// Which of a strategy's branches a run took, each way: what `ptespec test
// --coverage` prints, so a user sees what the sampled cases never reached.
//
// The concrete machine records every m.branch by its source location when
// it was given a coverage sink (machine::set_coverage); with none (the
// default) it records nothing and costs one test of a pointer.  The sink is
// the machine's, not a global: a plugin's strategy code runs in its own
// module and reaches it through the machine.
#pragma once

#include <cstdint>
#include <map>
#include <source_location>
#include <string>
#include <tuple>

namespace ptespec {

struct branch_site {
	std::string file;
	unsigned line = 0;
	std::string function;

	auto operator<=>(const branch_site& o) const
	{
		return std::tie(file, line, function) <=> std::tie(o.file, o.line, o.function);
	}
	bool operator==(const branch_site& o) const = default;
};

struct branch_counts {
	std::uint64_t taken = 0, not_taken = 0;
};

class branch_coverage {
public:
	void record(const std::source_location& at, bool taken)
	{
		branch_counts& c = sites_[{at.file_name(), at.line(), at.function_name()}];
		(taken ? c.taken : c.not_taken)++;
	}
	const std::map<branch_site, branch_counts>& sites() const { return sites_; }
	void merge(const branch_coverage& o)
	{
		for (const auto& [s, c] : o.sites_) {
			sites_[s].taken += c.taken;
			sites_[s].not_taken += c.not_taken;
		}
	}

private:
	std::map<branch_site, branch_counts> sites_;
};

} // namespace ptespec
