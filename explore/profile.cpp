#include "explore/profile.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/errors.h"

namespace ptespec::explore {

double cost_profile::weigh(const cost_counters& c, std::uint64_t pages) const
{
	return read * static_cast<double>(c.reads) + write * static_cast<double>(c.writes) +
	       atomic * static_cast<double>(c.atomics) + tlbi_page * static_cast<double>(c.tlbi_page) +
	       tlbi_range * static_cast<double>(c.tlbi_range) + tlbi_all * static_cast<double>(c.tlbi_all) +
	       page * static_cast<double>(pages);
}

cost_profile parse_profile(std::string_view text, const std::string& origin)
{
	auto bad = [&](const std::string& why) {
		return usage_error("profile '" + origin + "': " + why + "; expected " + profile_format);
	};
	nlohmann::json j;
	try {
		j = nlohmann::json::parse(text);
	} catch (const nlohmann::json::parse_error&) {
		throw bad("not valid JSON");
	}
	if (!j.is_object() || !j.contains("weights") || !j["weights"].is_object())
		throw bad("no \"weights\" object");
	cost_profile p;
	p.name = j.value("name", origin);
	p.description = j.value("description", "");
	const nlohmann::json& w = j["weights"];
	struct field {
		const char* key;
		double* to;
	};
	const field fields[] = {{"read", &p.read},	       {"write", &p.write},	  {"atomic", &p.atomic},
				{"tlbi_page", &p.tlbi_page}, {"tlbi_range", &p.tlbi_range}, {"tlbi_all", &p.tlbi_all},
				{"page", &p.page}};
	for (const field& f : fields) {
		if (!w.contains(f.key))
			throw bad(std::string("weight \"") + f.key + "\" missing");
		if (!w[f.key].is_number() || w[f.key].get<double>() < 0)
			throw bad(std::string("weight \"") + f.key + "\" is not a non-negative number");
		*f.to = w[f.key].get<double>();
	}
	for (const auto& [key, value] : w.items()) {
		bool known = false;
		for (const field& f : fields)
			known = known || key == f.key;
		if (!known)
			throw bad("unknown weight \"" + key + "\"");
	}
	return p;
}

cost_profile load_profile(const std::string& name_or_file)
{
	std::string path = name_or_file;
	if (name_or_file == "numa1" || name_or_file == "numa2")
		path = std::string(PTESPEC_PROFILE_DIR) + "/" + name_or_file + ".json";
	std::ifstream in(path);
	if (!in)
		throw usage_error("profile '" + name_or_file + "': cannot read " + path +
				  "; expected numa1, numa2 or a file holding " + profile_format);
	std::ostringstream text;
	text << in.rdbuf();
	return parse_profile(text.str(), name_or_file);
}

} // namespace ptespec::explore
