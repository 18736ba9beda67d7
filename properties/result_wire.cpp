#include "properties/result_wire.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/errors.h"

namespace ptespec {

namespace {

using json = nlohmann::json;

json breach_to_json(const mm::caller_breach& b)
{
	return {b.caller,	  static_cast<int>(b.c.kind), b.c.index,	  b.c.nr,    b.c.full,
		b.c.pte,	  b.c.flags,			  static_cast<int>(b.b.rule), b.b.entry, b.b.what};
}

mm::caller_breach breach_from_json(const json& j)
{
	mm::caller_breach b;
	b.caller = j.at(0).get<std::string>();
	b.c.kind = static_cast<call_kind>(j.at(1).get<int>());
	b.c.index = j.at(2).get<std::size_t>();
	b.c.nr = j.at(3).get<std::size_t>();
	b.c.full = j.at(4).get<bool>();
	b.c.pte = j.at(5).get<std::uint64_t>();
	b.c.flags = j.at(6).get<unsigned>();
	b.b.rule = static_cast<mm::caller_rule>(j.at(7).get<int>());
	b.b.entry = j.at(8).get<std::size_t>();
	b.b.what = j.at(9).get<std::string>();
	return b;
}

json calls_to_json(const std::vector<ce_call>& calls)
{
	json out = json::array();
	for (const ce_call& c : calls)
		out.push_back({c.command, c.call, c.result, c.hw, c.runs});
	return out;
}

std::vector<ce_call> calls_from_json(const json& j)
{
	std::vector<ce_call> out;
	for (const json& c : j)
		out.push_back({c.at(0).get<std::size_t>(), c.at(1).get<std::string>(), c.at(2).get<std::string>(),
			       c.at(3).get<std::vector<std::string>>(),
			       c.at(4).get<std::vector<std::pair<std::string, std::string>>>()});
	return out;
}

} // namespace

std::string to_wire(const property_result& r)
{
	const sampled_counterexample& ce = r.ce;
	json j{{"strategy", r.strategy},
	       {"prop", static_cast<int>(r.prop)},
	       {"v", static_cast<int>(r.v)},
	       {"cases", r.cases},
	       {"calls", r.calls},
	       {"exercised", r.exercised},
	       {"why_not", r.why_not_exercised},
	       {"distribution", r.distribution},
	       {"ce",
		{{"commands", ce.commands},
		 {"calls", calls_to_json(ce.calls)},
		 {"initial", ce.initial},
		 {"layout", ce.layout},
		 {"sweep", ce.sweep},
		 {"v", {static_cast<int>(ce.v.prop), ce.v.step, ce.v.page, ce.v.message}},
		 {"breach", ce.breach ? breach_to_json(*ce.breach) : json(nullptr)},
		 {"reproduce", ce.reproduce}}}};
	return j.dump();
}

property_result result_from_wire(const std::string& text)
{
	property_result r;
	try {
		const json j = json::parse(text);
		r.strategy = j.at("strategy").get<std::string>();
		r.prop = static_cast<property>(j.at("prop").get<int>());
		r.v = static_cast<verdict>(j.at("v").get<int>());
		r.cases = j.at("cases").get<int>();
		r.calls = j.at("calls").get<std::uint64_t>();
		r.exercised = j.at("exercised").get<std::uint64_t>();
		r.why_not_exercised = j.at("why_not").get<std::string>();
		r.distribution = j.at("distribution").get<std::vector<std::pair<std::string, int>>>();
		const json& ce = j.at("ce");
		r.ce.commands = ce.at("commands").get<std::vector<std::string>>();
		r.ce.calls = calls_from_json(ce.at("calls"));
		r.ce.initial = ce.at("initial").get<std::string>();
		r.ce.layout = ce.at("layout").get<std::string>();
		r.ce.sweep = ce.at("sweep").get<std::string>();
		const json& v = ce.at("v");
		r.ce.v = {static_cast<property>(v.at(0).get<int>()), v.at(1).get<std::size_t>(), v.at(2).get<std::size_t>(),
			  v.at(3).get<std::string>()};
		if (const json& b = ce.at("breach"); !b.is_null())
			r.ce.breach = breach_from_json(b);
		r.ce.reproduce = ce.at("reproduce").get<std::string>();
	} catch (const json::exception& e) {
		throw internal_error(fmt::format("a property run's result came back malformed: {}", e.what()));
	}
	return r;
}

} // namespace ptespec
