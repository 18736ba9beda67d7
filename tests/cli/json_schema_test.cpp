// Every command's --json document against docs/json-schema.json (the schema
// docs/json.md describes), with small, fast arguments: a passing run, a
// failing one whose counterexample is validated too, an undecided one where
// it is cheap.  The validator is checked first on documents it must reject,
// so a test that passes here could have failed.  And the same command with
// the same seed prints the same document, timing aside.

#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run.h"

namespace ptespec::cli_test {
namespace {

using nlohmann::json;

// The keywords of JSON Schema that docs/json-schema.json uses, and no more:
// a keyword outside them is an error of the schema, not ignored.
class validator {
public:
	explicit validator(json root) : root_(std::move(root)) {}

	// What is wrong with `doc` as the document $defs/`def` describes, one
	// line per fault ("$.results[0].verdict: ..."); empty when nothing is.
	std::vector<std::string> errors(const json& doc, const std::string& def) const
	{
		std::vector<std::string> out;
		check(json{{"$ref", "#/$defs/" + def}}, doc, "$", out);
		return out;
	}

private:
	static bool is_type(const json& v, const std::string& t)
	{
		if (t == "object")
			return v.is_object();
		if (t == "array")
			return v.is_array();
		if (t == "string")
			return v.is_string();
		if (t == "integer")
			return v.is_number_integer();
		if (t == "number")
			return v.is_number();
		if (t == "boolean")
			return v.is_boolean();
		if (t == "null")
			return v.is_null();
		return false;
	}

	void check(const json& s, const json& v, const std::string& at, std::vector<std::string>& out) const
	{
		static const std::set<std::string> known = {"$ref", "anyOf", "type", "enum", "required", "properties",
							    "additionalProperties", "items", "description"};
		for (const auto& [k, _] : s.items())
			if (!known.count(k))
				out.push_back(at + ": schema keyword '" + k + "' is not one the validator knows");
		if (s.contains("$ref")) {
			const std::string ref = s.at("$ref");
			const std::string prefix = "#/$defs/";
			if (!ref.starts_with(prefix) || !root_.at("$defs").contains(ref.substr(prefix.size()))) {
				out.push_back(at + ": unresolved $ref " + ref);
				return;
			}
			check(root_.at("$defs").at(ref.substr(prefix.size())), v, at, out);
		}
		if (s.contains("anyOf")) {
			bool any = false;
			std::string why;
			for (const json& alt : s.at("anyOf")) {
				std::vector<std::string> e;
				check(alt, v, at, e);
				any = any || e.empty();
				if (!e.empty())
					why += " [" + e.front() + "]";
			}
			if (!any)
				out.push_back(at + ": matches none of anyOf:" + why);
		}
		if (s.contains("type")) {
			const json& t = s.at("type");
			bool ok = false;
			for (const json& one : t.is_array() ? t : json::array({t}))
				ok = ok || is_type(v, one.get<std::string>());
			if (!ok) {
				out.push_back(at + ": " + v.type_name() + " where the schema says " + t.dump());
				return;
			}
		}
		if (s.contains("enum")) {
			bool ok = false;
			for (const json& e : s.at("enum"))
				ok = ok || e == v;
			if (!ok)
				out.push_back(at + ": " + v.dump() + " is not one of " + s.at("enum").dump());
		}
		if (v.is_object()) {
			if (s.contains("required"))
				for (const json& k : s.at("required"))
					if (!v.contains(k.get<std::string>()))
						out.push_back(at + ": required field '" + k.get<std::string>() + "' is missing");
			const json props = s.value("properties", json::object());
			for (const auto& [k, x] : v.items()) {
				if (props.contains(k))
					check(props.at(k), x, at + "." + k, out);
				else if (s.contains("additionalProperties") && s.at("additionalProperties").is_object())
					check(s.at("additionalProperties"), x, at + "." + k, out);
				else if (s.contains("additionalProperties") && s.at("additionalProperties") == false)
					out.push_back(at + ": field '" + k + "' is not in the schema");
			}
		}
		if (v.is_array() && s.contains("items"))
			for (std::size_t i = 0; i < v.size(); i++)
				check(s.at("items"), v.at(i), at + "[" + std::to_string(i) + "]", out);
	}

	json root_;
};

const validator& schema()
{
	static const validator v(json::parse(slurp(PTESPEC_JSON_SCHEMA)));
	return v;
}

std::string joined(const std::vector<std::string>& lines)
{
	std::string s;
	for (const std::string& l : lines)
		s += l + "\n";
	return s;
}

// `ptespec args...`, its stdout parsed and validated as `command`'s document,
// with the exit code asked.
json valid_document(const std::vector<std::string>& args, const std::string& command, int status)
{
	const outcome o = run_ptespec(args);
	EXPECT_EQ(o.status, status) << o.show();
	json j;
	try {
		j = json::parse(o.out);
	} catch (const json::exception& e) {
		ADD_FAILURE() << "not JSON: " << e.what() << "\n" << o.show();
		return j;
	}
	const std::vector<std::string> e = schema().errors(j, command);
	EXPECT_TRUE(e.empty()) << joined(e) << j.dump(2).substr(0, 4000);
	EXPECT_EQ(j.value("command", ""), command);
	EXPECT_EQ(j.value("schema", 0), 1);
	return j;
}

// The document with its timing fields taken out: what must not change
// between two runs of the same command.
json without_timing(json j)
{
	if (j.is_object()) {
		for (const char* k : {"seconds", "run_seconds", "solve_seconds"})
			j.erase(k);
		for (auto& [k, v] : j.items())
			v = without_timing(v);
	} else if (j.is_array()) {
		for (auto& v : j)
			v = without_timing(v);
	}
	return j;
}

void expect_same_twice(const std::vector<std::string>& args)
{
	const outcome a = run_ptespec(args), b = run_ptespec(args);
	EXPECT_EQ(a.status, b.status) << a.show() << b.show();
	EXPECT_EQ(without_timing(json::parse(a.out)).dump(1), without_timing(json::parse(b.out)).dump(1));
}

// The totals against the text's "N passed, N failed, N undecided" line
// (`prefix` before it, e.g. "cells: "), the same command without --json.
void expect_totals_as_the_text_says(const json& totals, const std::vector<std::string>& args, const std::string& prefix)
{
	const outcome o = run_ptespec(args);
	const std::string line = prefix + std::to_string(totals.at("passed").get<int>()) + " passed, " +
				 std::to_string(totals.at("failed").get<int>()) + " failed, " +
				 std::to_string(totals.at("undecided").get<int>()) + " undecided";
	EXPECT_NE(o.out.find("\n" + line), std::string::npos) << "'" << line << "' missing from\n" << o.out;
}

// --- the validator's controls ---

json a_list_document()
{
	return json::parse(R"({"schema": 1, "command": "list",
			       "strategies": [{"name": "n", "description": "d", "origin": "builtin"}],
			       "callers": [{"name": "core-mm", "description": "d", "origin": "builtin"}]})");
}

TEST(cli_json, the_validator_accepts_a_right_document)
{
	EXPECT_EQ(joined(schema().errors(a_list_document(), "list")), "");
}

// Each fault alone must be found: a wrong type, a missing field, a field
// the schema does not name, a value outside an enum, a wrong item, and a
// counterexample that is neither null nor the object.
TEST(cli_json, the_validator_rejects_a_wrong_document)
{
	std::vector<json> wrong(6, a_list_document());
	wrong[0]["schema"] = "1";
	wrong[1].erase("command");
	wrong[2]["extra"] = true;
	wrong[3]["command"] = "lists";
	wrong[4]["strategies"][0]["name"] = 7;
	wrong[5] = json::parse(R"({"schema": 1, "command": "prove", "unproved": [], "totals": {"passed": 0, "failed": 1, "undecided": 0},
				  "results": [{"strategy": "s", "obligation": "o", "granule": "4k", "verdict": "refuted",
					       "detail": "", "seconds": 0.5, "run_seconds": 0.1, "solve_seconds": 0.1,
					       "paths": 1, "path_questions": 0, "time_stops": 0, "replay": "confirmed", "counterexample": "calls...",
					       "covers": {"properties": [], "calls": [], "tables": ""}}]})");
	for (std::size_t k = 0; k < wrong.size(); k++)
		EXPECT_FALSE(schema().errors(wrong[k], k == 5 ? "prove" : "list").empty()) << k << ": " << wrong[k].dump();
	// The last one is right once its counterexample is null.
	wrong[5]["results"][0]["counterexample"] = nullptr;
	EXPECT_EQ(joined(schema().errors(wrong[5], "prove")), "");
}

// Every field the schema names is described in docs/json.md.
TEST(cli_json, the_doc_names_every_field_of_the_schema)
{
	const std::string doc = slurp(PTESPEC_JSON_DOC);
	ASSERT_FALSE(doc.empty());
	const json root = json::parse(slurp(PTESPEC_JSON_SCHEMA));
	std::set<std::string> fields;
	// Schema by schema, not key by key: a field may be called "properties".
	auto walk = [&](auto&& self, const json& s) -> void {
		const json props = s.value("properties", json::object()), alts = s.value("anyOf", json::array());
		for (const auto& [k, v] : props.items()) {
			fields.insert(k);
			self(self, v);
		}
		for (const char* sub : {"items", "additionalProperties"})
			if (s.contains(sub) && s.at(sub).is_object())
				self(self, s.at(sub));
		for (const json& alt : alts)
			self(self, alt);
	};
	for (const auto& [name, def] : root.at("$defs").items())
		walk(walk, def);
	ASSERT_GT(fields.size(), 50u);
	for (const std::string& f : fields)
		EXPECT_NE(doc.find("`" + f + "`"), std::string::npos) << f << " is not in docs/json.md";
}

// --- every command ---

TEST(cli_json, list)
{
	const json j = valid_document({"list", "--json"}, "list", 0);
	EXPECT_FALSE(j.value("strategies", json::array()).empty());
}

TEST(cli_json, test_failing_with_its_counterexample)
{
	const std::vector<std::string> args{"test", "--strategy", "simple", "--property", "per-call", "--granule", "4k",
					    "--seed", "1", "--cases", "1000"};
	std::vector<std::string> with_json = args;
	with_json.push_back("--json");
	const json j = valid_document(with_json, "test", 1);
	ASSERT_EQ(j.at("results").size(), 1u);
	const json& ce = j.at("results").at(0).at("counterexample");
	ASSERT_TRUE(ce.is_object()) << j.dump(2);
	EXPECT_FALSE(ce.at("calls").empty());
	EXPECT_EQ(ce.at("violation").at("property"), "per-call");
	EXPECT_NE(ce.at("reproduce").get<std::string>().find("--seed 1"), std::string::npos);
	expect_totals_as_the_text_says(j.at("totals"), args, "");
	expect_same_twice(with_json);
}

TEST(cli_json, test_undecided)
{
	const json j = valid_document({"--plugin", NO_MAP_PLUGIN, "test", "--strategy", "test-no-map", "--property",
				       "per-call", "--seed", "1", "--cases", "10", "--json"},
				      "test", 4);
	EXPECT_EQ(j.at("totals").at("undecided"), 1);
	EXPECT_TRUE(j.at("results").at(0).contains("why")) << j.dump(2);
}

TEST(cli_json, prove_refuted_with_the_replayed_counterexample)
{
	const std::vector<std::string> args{"prove", "--strategy", "simple", "--granule", "4k", "--obligation",
					    "per-call/one-call"};
	std::vector<std::string> with_json = args;
	with_json.push_back("--json");
	const json j = valid_document(with_json, "prove", 1);
	ASSERT_EQ(j.at("results").size(), 1u);
	const json& r = j.at("results").at(0);
	EXPECT_EQ(r.at("verdict"), "refuted");
	const json& ce = r.at("counterexample");
	ASSERT_TRUE(ce.is_object()) << r.dump(2);
	EXPECT_EQ(ce.at("property"), "per-call");
	ASSERT_TRUE(ce.at("replayed").is_object()) << r.dump(2);
	EXPECT_FALSE(ce.at("replayed").at("calls").empty());
	EXPECT_TRUE(ce.at("replayed").at("message").is_string()) << r.dump(2);
	expect_totals_as_the_text_says(j.at("totals"), args, "");
	expect_same_twice(with_json);
}

TEST(cli_json, prove_undecided)
{
	const json j = valid_document({"prove", "--strategy", "mainline", "--timeout-ms", "1", "--obligation",
				       "per-call/one-call", "--json"},
				      "prove", 4);
	EXPECT_GE(j.at("totals").at("undecided"), 1);
}

// prove's text rows come in the catalogue's order whatever order the
// children finish in: two runs over several obligations on two jobs print
// the same rows, the seconds column aside.
TEST(cli_json, prove_text_rows_in_the_same_order_twice)
{
	const std::vector<std::string> args{"prove", "--strategy", "simple", "--strategy", "mainline", "--granule", "4k",
					    "--obligation", "per-call/", "--obligation", "helpers/", "--jobs", "2"};
	const std::regex seconds(" [0-9]+\\.[0-9]+ ");
	const outcome a = run_ptespec(args), b = run_ptespec(args);
	EXPECT_EQ(a.status, 1) << a.show();
	EXPECT_EQ(std::regex_replace(a.out, seconds, " T "), std::regex_replace(b.out, seconds, " T "));
}

// A refuted cell carries the refutation's counterexample; the totals count
// cells as the text's "cells:" line does.
TEST(cli_json, check_with_a_refuted_and_an_undecided_cell)
{
	const std::vector<std::string> args{"check", "--strategy", "simple", "--granule", "4k", "--cases", "50",
					    "--seed", "1"};
	std::vector<std::string> with_json = args;
	with_json.push_back("--json");
	const json j = valid_document(with_json, "check", 1);
	bool refuted = false;
	for (const json& c : j.at("results")) {
		if (c.at("proof") != "refuted")
			continue;
		refuted = true;
		ASSERT_FALSE(c.at("refuted_by").empty()) << c.dump(2);
		const json& ce = c.at("refuted_by").at(0).at("counterexample");
		EXPECT_EQ(ce.at("property"), c.at("property"));
		ASSERT_TRUE(ce.at("replayed").is_object()) << c.dump(2);
		EXPECT_FALSE(ce.at("replayed").at("calls").empty());
	}
	EXPECT_TRUE(refuted) << j.dump(2).substr(0, 4000);
	EXPECT_GE(j.at("totals").at("undecided"), 1);
	EXPECT_FALSE(j.at("proofs").empty());
	expect_totals_as_the_text_says(j.at("totals"), args, "cells: ");
}

// A caller that breaks a caller rule: test's counterexample and explore's
// scenario name it, and both documents stay inside the schema.
TEST(cli_json, test_and_explore_with_a_caller_that_breaks_a_rule)
{
	const json t = valid_document({"--plugin", BATCH_PAST_FOLIO_PLUGIN, "test", "--caller", "test-batch-past-folio",
				       "--strategy", "mainline", "--property", "no-loss", "--seed", "1", "--json"},
				      "test", 1);
	EXPECT_EQ(t.at("caller"), "test-batch-past-folio");
	EXPECT_EQ(t.at("results").at(0).at("counterexample").at("violation").at("caller_rule"), "one-folio");
	const json e = valid_document({"--plugin", BATCH_PAST_FOLIO_PLUGIN, "explore", "--caller",
				       "test-batch-past-folio", "--strategy", "mainline", "--scenario", "dontneed-inner",
				       "--hw-events", "0", "--json"},
				      "explore", 1);
	EXPECT_EQ(e.at("scenarios").at(0).at("status"), "caller breach");
}

TEST(cli_json, explore_violation_with_its_history)
{
	const std::vector<std::string> args{"explore", "--strategy", "clear-block", "--cont-ptes", "4", "--scenario",
					    "dontneed-start", "--hw-events", "1", "--json"};
	const json j = valid_document(args, "explore", 1);
	ASSERT_EQ(j.at("scenarios").size(), 1u);
	const json& v = j.at("scenarios").at(0).at("violation");
	ASSERT_TRUE(v.is_object()) << j.dump(2);
	EXPECT_FALSE(v.at("calls").empty());
	EXPECT_EQ(j.at("totals"), json::parse(R"({"passed": 0, "failed": 1, "undecided": 0})"));
	expect_same_twice(args);
}

TEST(cli_json, explore_incomplete_is_undecided)
{
	const json j = valid_document({"explore", "--strategy", "mainline", "--time-limit", "0.05", "--json"}, "explore", 4);
	EXPECT_GE(j.at("totals").at("undecided"), 1);
	EXPECT_EQ(j.at("totals").at("failed"), 0);
}

TEST(cli_json, cost)
{
	const std::vector<std::string> args{"cost", "--all", "--folios", "4", "--json"};
	const json j = valid_document(args, "cost", 0);
	EXPECT_FALSE(j.at("rows").empty());
	expect_same_twice(args);
}

} // namespace
} // namespace ptespec::cli_test
