#include "explore/profile.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/errors.h"

namespace ptespec::explore {

namespace {

using json = nlohmann::json;

// Where a profile's text stops being JSON a double can hold.  nlohmann
// refuses a number past the double range (1e999, a 400-digit integer) with
// out_of_range, not parse_error, and names neither key nor place; a SAX
// pass over the same text sees the key that number belongs to.
class first_error : public nlohmann::json_sax<json> {
public:
	std::string last_key;	// the last key read before the error
	std::string token;	// the text the parser stopped at
	std::size_t byte = 0;
	bool overflow = false;	// a number out of the double range

	bool null() override { return true; }
	bool boolean(bool) override { return true; }
	bool number_integer(number_integer_t) override { return true; }
	bool number_unsigned(number_unsigned_t) override { return true; }
	bool number_float(number_float_t, const string_t&) override { return true; }
	bool string(string_t&) override { return true; }
	bool binary(binary_t&) override { return true; }
	bool start_object(std::size_t) override { return true; }
	bool key(string_t& k) override
	{
		last_key = k;
		return true;
	}
	bool end_object() override { return true; }
	bool start_array(std::size_t) override { return true; }
	bool end_array() override { return true; }
	bool parse_error(std::size_t at, const std::string& last, const nlohmann::detail::exception& e) override
	{
		byte = at;
		token = last;
		overflow = e.id == 406;
		return false;
	}
};

// The text as the user wrote it, cut short: a token can be 400 digits.
std::string shown(std::string_view token)
{
	return token.size() > 24 ? std::string(token.substr(0, 20)) + "..." : std::string(token);
}

} // namespace

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
	// 1e12: max_weight, as the user would write it.
	auto bad_weight = [&](const std::string& key, const std::string& why) {
		return usage_error(
			fmt::format("profile '{}': weight \"{}\" {}; expected a number from 0 to 1e12", origin, key, why));
	};
	first_error e;
	if (!json::sax_parse(text, &e)) {
		if (e.overflow && !e.last_key.empty())
			throw bad_weight(e.last_key, fmt::format("is {}, out of the range of a double", shown(e.token)));
		throw bad(fmt::format("not valid JSON (at byte {}{})", e.byte,
				      e.overflow ? fmt::format(", {} is out of the range of a double", shown(e.token)) : ""));
	}
	const json j = json::parse(text);
	if (!j.is_object() || !j.contains("weights") || !j["weights"].is_object())
		throw bad("no \"weights\" object");
	for (const char* key : {"name", "description"})
		if (j.contains(key) && !j[key].is_string())
			throw bad(fmt::format("\"{}\" is not a string", key));
	cost_profile p;
	p.name = j.value("name", origin);
	p.description = j.value("description", "");
	const json& w = j["weights"];
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
		if (!w[f.key].is_number())
			throw bad_weight(f.key, fmt::format("is {}, not a number", shown(w[f.key].dump())));
		// A whole number past 2^64 arrives as a double: range-checked alike.
		const double v = w[f.key].get<double>();
		if (!(v >= 0 && v <= max_weight))
			throw bad_weight(f.key, fmt::format("is {}", shown(w[f.key].dump())));
		*f.to = v;
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
