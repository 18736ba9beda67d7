#include "model/hardware_options.h"

namespace ptespec {

std::string to_string(const hardware_options& hw)
{
	std::string out;
	for (const hardware_feature& f : hardware_features)
		if (hw.*f.flag) {
			if (!out.empty())
				out += ',';
			out += f.name;
		}
	return out.empty() ? "default" : out;
}

std::string hardware_flag(const hardware_options& hw)
{
	return hw.is_default() ? std::string{} : " --hardware " + to_string(hw);
}

} // namespace ptespec
