#include "cli/flags.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "model/errors.h"
#include "model/transcript.h"

namespace ptespec::cli {

namespace {

bool all_digits(std::string_view s)
{
	if (s.empty())
		return false;
	for (char c : s)
		if (c < '0' || c > '9')
			return false;
	return true;
}

// "-12" or "12": shown bare in a range error; anything else is quoted.
bool looks_like_integer(std::string_view s)
{
	return all_digits(s.starts_with('-') ? s.substr(1) : s);
}

std::string names_of(const std::vector<std::string>& v)
{
	return fmt::format("{}", fmt::join(v, ", "));
}

// Where a flag is declared, on the program or on any command: for its
// type name in a message.
const CLI::Option* find_option(const CLI::App& app, const std::string& name)
{
	if (const CLI::Option* o = app.get_option_no_throw(name))
		return o;
	for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
		if (const CLI::Option* o = sub->get_option_no_throw(name))
			return o;
	return nullptr;
}

} // namespace

std::uint64_t parse_seed(std::string_view flag, std::string_view text)
{
	const bool hex = text.starts_with("0x") || text.starts_with("0X");
	const std::string_view digits = hex ? text.substr(2) : text;
	std::uint64_t v = 0;
	bool ok = !digits.empty() && (hex || all_digits(digits)) && (hex || digits.size() == 1 || digits[0] != '0');
	if (ok) {
		const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
		ok = ec == std::errc() && end == digits.data() + digits.size();
	}
	if (!ok)
		throw usage_error(fmt::format("{} '{}': expected a decimal or 0x-hex number from 0 to 18446744073709551615 "
					      "(no sign, no leading zero)",
					      flag, text));
	return v;
}

std::uint64_t parse_count(std::string_view flag, std::string_view text, std::uint64_t lo, std::uint64_t hi,
			  std::string_view unit)
{
	const std::string expected = fmt::format("expected a whole number{}{} from {} to {}", unit.empty() ? "" : " of ",
						 unit, lo, hi);
	const bool integer = looks_like_integer(text);
	const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
	if (!integer || (digits.size() > 1 && digits[0] == '0'))
		throw usage_error(fmt::format("{} '{}': {}", flag, text, expected));
	std::uint64_t v = 0;
	const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
	if (text.starts_with('-') || ec != std::errc() || end != digits.data() + digits.size() || v < lo || v > hi)
		throw usage_error(fmt::format("{} {}: {}", flag, text, expected));
	return v;
}

double parse_seconds(std::string_view flag, std::string_view text, double hi, std::string_view zero_means)
{
	const std::string expected =
		fmt::format("expected a number of seconds from 0{} to {}", zero_means.empty() ? "" : fmt::format(" ({})", zero_means), hi);
	double v = 0;
	// from_chars also reads "nan" and "inf": a limit must be a number.
	const bool numeric = !text.empty() && (std::isdigit(static_cast<unsigned char>(text.back())) || text.back() == '.');
	const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
	if (!numeric || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
		throw usage_error(fmt::format("{} '{}': {}", flag, text, expected));
	if (v < 0 || v > hi)
		throw usage_error(fmt::format("{} {}: {}", flag, text, expected));
	return v;
}

granule parse_granule_flag(std::string_view flag, std::string_view text)
{
	try {
		return parse_granule(text);
	} catch (const usage_error&) {
		throw usage_error(fmt::format("{} '{}': expected 4k, 16k or 64k", flag, text));
	}
}

std::vector<granule> parse_granules(std::string_view flag, const std::vector<std::string>& texts)
{
	std::vector<granule> out;
	for (const std::string& t : texts) {
		if (t == "all")
			return {granule::k4, granule::k16, granule::k64};
		try {
			out.push_back(parse_granule(t));
		} catch (const usage_error&) {
			throw usage_error(fmt::format("{} '{}': expected 4k, 16k, 64k or all", flag, t));
		}
	}
	return out;
}

hardware_options parse_hardware(std::string_view flag, std::string_view text)
{
	std::vector<std::string> known;
	for (const hardware_feature& f : hardware_features)
		known.emplace_back(f.name);
	const std::string expected =
		fmt::format("expected default, or a comma-separated list of {}, each once", names_of(known));
	if (text == "default")
		return {};
	hardware_options hw;
	std::size_t at = 0;
	while (at <= text.size()) {
		const std::size_t comma = std::min(text.find(',', at), text.size());
		const std::string_view name = text.substr(at, comma - at);
		const hardware_feature* found = nullptr;
		for (const hardware_feature& f : hardware_features)
			if (f.name == name)
				found = &f;
		if (!found || hw.*found->flag)
			throw usage_error(fmt::format("{} '{}': {}", flag, text, expected));
		hw.*found->flag = true;
		at = comma + 1;
	}
	return hw;
}

CLI::Option* add_hardware(CLI::App& sub, hardware_options& hw)
{
	std::string names;
	for (const hardware_feature& f : hardware_features)
		names += fmt::format("{}{} ({})", names.empty() ? "" : "; ", f.name, f.what);
	return add_once(
		sub, "--hardware", [&hw](const std::string& t) { hw = parse_hardware("--hardware", t); },
		"the hardware to model, a comma-separated list: " + names + " (default: none of them)", "LIST");
}

run_options::sweeps sweep_flags::resolve() const
{
	if (!mprotect && !swarm)
		return sweep.value_or(run_options::sweeps::all);
	if (sweep)
		throw usage_error(fmt::format("--sweep with {}: expected one or the other (--mprotect and --swarm shape "
					      "one sweep of their own)",
					      mprotect ? "--mprotect" : "--swarm"));
	return run_options::sweeps::as_given;
}

void sweep_flags::apply(run_options& o) const
{
	o.sweep = resolve();
	o.mprotect = mprotect;
	o.swarm = swarm;
}

std::string sweep_flags::with_text() const
{
	return std::string(mprotect ? ", with mprotect" : "") + (swarm ? ", swarm testing" : "");
}

std::string sweep_flags::flags() const
{
	switch (resolve()) {
	case run_options::sweeps::as_given: return std::string(mprotect ? " --mprotect" : "") + (swarm ? " --swarm" : "");
	case run_options::sweeps::core: return " --sweep core";
	case run_options::sweeps::kernel: return " --sweep kernel";
	case run_options::sweeps::hugetlb: return " --sweep hugetlb";
	case run_options::sweeps::both: return " --sweep both";
	case run_options::sweeps::all: break;
	}
	return "";
}

void add_sweep_flags(CLI::App& sub, sweep_flags& f)
{
	add_once(
		sub, "--sweep",
		[&f](const std::string& t) {
			if (t == "core")
				f.sweep = run_options::sweeps::core;
			else if (t == "kernel")
				f.sweep = run_options::sweeps::kernel;
			else if (t == "both")
				f.sweep = run_options::sweeps::both;
			else if (t == "hugetlb")
				f.sweep = run_options::sweeps::hugetlb;
			else if (t == "all")
				f.sweep = run_options::sweeps::all;
			else
				throw usage_error(
					fmt::format("--sweep '{}': expected core, kernel, both, hugetlb or all", t));
		},
		"which sweeps each cell makes, each its own cases from the seed: core (core-mm's everyday callers: "
		"faults, fork, munmap, exit, reclaim, MADV_FREE), kernel (every caller -- mprotect, NUMA hinting, "
		"guard pages, MADV_COLD, mremap, migration too -- with swarm testing, and BBML2 drawn per case unless "
		"--hardware is given), both (core then kernel), hugetlb (the hugetlb callers over CONT_PTE hugepages -- "
		"fault, access, unmap, fork, mprotect, migration, mremap), or all: core, kernel, then hugetlb with a "
		"quarter of the cases, for a strategy with hugetlb calls (the default)",
		"S");
	sub.add_flag("--mprotect", f.mprotect,
		     "one sweep: core-mm's callers and those that change protections -- mprotect (change_pte_range: "
		     "modify_prot_start_ptes and modify_prot_commit_ptes per folio batch, to read-only, read-write or "
		     "PROT_NONE), NUMA balancing (change_prot_numa, and the hinting fault's one-entry restores), "
		     "MADV_GUARD_INSTALL/REMOVE, MADV_COLD (clear_young_dirty_ptes of young alone) and mremap "
		     "(move_ptes: ptep_get_and_clear of every entry, present or not)");
	sub.add_flag("--swarm", f.swarm,
		     "one sweep with swarm testing: in half the cases each caller action is left out, kept or made "
		     "three times as likely, so some lives run long without exit or munmap");
}

std::string sampled_lines(const sweep_flags& f, const hardware_options& hw)
{
	run_options o;
	o.hw = hw;
	f.apply(o);
	std::string out;
	if (const std::string s = sweeps_text(o); !s.empty())
		out += wrapped_text("sampled in " + s, 2);
	if (const std::string nr = not_run_line(f, hw); !nr.empty())
		out += wrapped_text(nr, 2);
	return out;
}

std::string not_run_line(const sweep_flags& f, const hardware_options& hw)
{
	const run_options::sweeps s = f.resolve();
	const bool kernel = s == run_options::sweeps::kernel || s == run_options::sweeps::both ||
			    s == run_options::sweeps::all;
	const bool hugetlb = s == run_options::sweeps::hugetlb || s == run_options::sweeps::all;
	std::vector<std::string> missing;
	if (!kernel && !f.mprotect)
		missing.push_back("the mprotect, NUMA-hinting, guard-page, MADV_COLD, mremap and migration callers (--sweep all)");
	if (!hugetlb)
		missing.push_back("the hugetlb callers (--sweep all)");
	if (!hw.bbml2_noabort && !((kernel || hugetlb) && hw.is_default()))
		missing.push_back(hw.is_default() ? "BBML2 hardware (--sweep all)" : "BBML2 hardware (--hardware bbml2)");
	if (!hw.one_cpu)
		missing.push_back("a single CPU (--hardware one-cpu)");
	if (!hw.no_hafdbs)
		missing.push_back("hardware without HAFDBS (--hardware no-hafdbs)");
	std::string out;
	for (const std::string& m : missing)
		out += (out.empty() ? "" : ", ") + m;
	return out.empty() ? "" : "not run: " + out;
}

CLI::Option* add_jobs(CLI::App& sub, unsigned& jobs, std::string_view what)
{
	return add_once(
		sub, "--jobs",
		[&jobs](const std::string& n) { jobs = static_cast<unsigned>(parse_count("--jobs", n, 1, max_jobs)); },
		fmt::format("{} run at once, each in a process of its own, 1 to {} (default: one per core; the output "
			    "is the same whatever the number)",
			    what, max_jobs),
		"N");
}

strategy& parse_strategy(std::string_view flag, std::string_view text)
{
	if (strategy* s = registry::global().find(text))
		return *s;
	std::vector<std::string> known;
	for (const strategy* s : registry::global().all())
		known.push_back(s->info().name);
	throw usage_error(fmt::format("{} '{}': unknown; expected one of: {}", flag, text,
				      known.empty() ? "(no strategy is registered)" : names_of(known)));
}

const mm::caller& parse_caller(std::string_view flag, std::string_view text)
{
	if (const mm::caller* c = mm::caller_registry::global().find(text))
		return *c;
	std::vector<std::string> known;
	for (const mm::caller* c : mm::caller_registry::global().all())
		known.push_back(c->info().name);
	throw usage_error(fmt::format("{} '{}': unknown; expected one of: {}", flag, text, names_of(known)));
}

CLI::Option* add_caller(CLI::App& sub, std::string& name)
{
	return add_once(
		sub, "--caller",
		[&name](const std::string& t) {
			if (t.empty())
				throw usage_error("--caller '': expected a caller name (see 'ptespec list')");
			name = t;
		},
		"the core-mm caller variant that makes the calls (see 'ptespec list'; default core-mm): every call it "
		"makes is checked against the rules the arch code relies on before the strategy sees it",
		"NAME");
}

const mm::caller& caller_of(const std::string& name)
{
	return name.empty() ? mm::core_mm() : parse_caller("--caller", name);
}

std::string parse_choice(std::string_view flag, std::string_view text, const std::vector<std::string>& known)
{
	for (const std::string& k : known)
		if (k == text)
			return k;
	throw usage_error(fmt::format("{} '{}': expected one of {}", flag, text, names_of(known)));
}

explore::scenario parse_scenario_flag(std::string_view flag, std::string_view text,
				      const std::vector<explore::scenario>& allowed, std::string_view why_not,
				      std::string_view leading)
{
	using explore::scenario;
	const scenario every[] = {scenario::exit,	    scenario::exit_per_entry, scenario::exit_split, scenario::dontneed_start,
				  scenario::dontneed_end,   scenario::dontneed_inner, scenario::munmap,
				  scenario::fork,	    scenario::madv_free,     scenario::mprotect};
	std::vector<std::string> names;
	if (!leading.empty())
		names.emplace_back(leading);
	for (scenario s : allowed)
		names.push_back(s == scenario::munmap ? "munmap (or dontneed)" : std::string(to_string(s)));
	bool known = false;
	for (scenario s : every) {
		if (to_string(s) != text && !(s == scenario::munmap && text == "dontneed"))
			continue;
		known = true;
		for (scenario a : allowed)
			if (a == s)
				return s;
	}
	throw usage_error(fmt::format("{} '{}': expected one of {}{}", flag, text, names_of(names),
				      known && !why_not.empty() ? fmt::format(" ({})", why_not) : ""));
}

namespace {

CLI::Option* add_parsed(CLI::App& sub, const std::string& flag, std::function<void(const std::string&)> take,
			const std::string& help, const std::string& type, bool once)
{
	const CLI::callback_t callback = [flag, take, once](const CLI::results_t& got) {
		if (once && got.size() > 1)
			throw usage_error(fmt::format("{} given {} times ('{}'); expected it once", flag, got.size(),
						      fmt::join(got, "', '")));
		for (const std::string& g : got)
			take(g);
		return true;
	};
	CLI::Option* o = sub.add_option(flag, callback, help);
	o->type_name(type)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
	return o;
}

} // namespace

CLI::Option* add_once(CLI::App& sub, const std::string& flag, std::function<void(const std::string&)> take,
		      const std::string& help, const std::string& type)
{
	return add_parsed(sub, flag, std::move(take), help, type, true);
}

CLI::Option* add_repeatable(CLI::App& sub, const std::string& flag, std::function<void(const std::string&)> take,
			    const std::string& help, const std::string& type)
{
	return add_parsed(sub, flag, std::move(take), help, type, false);
}

void reject_empty_values(const CLI::App& app, int argc, char** argv)
{
	for (int i = 1; i < argc; i++) {
		const std::string_view a = argv[i];
		if (a == "--")
			return;
		if (!a.starts_with("--") || !a.ends_with('=') || a.find('=') != a.size() - 1)
			continue;
		const std::string name(a.substr(0, a.size() - 1));
		const CLI::Option* o = find_option(app, name);
		if (!o)
			continue;	// an unknown option: said as such after parsing
		if (o->get_expected_max() == 0)
			throw usage_error(fmt::format("{}: a value after '='; expected {} alone (it takes no value)", a, name));
		throw usage_error(fmt::format("{}: an empty value; expected {}={}", a, name, o->get_type_name()));
	}
}

std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e)
{
	const std::string what = e.what();
	// "--strategy: 1 required NAME missing": the value did not follow.
	if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && what.starts_with("-") && what.ends_with(" missing")) {
		const std::string name = what.substr(0, what.find(':'));
		const CLI::Option* o = find_option(app, name);
		return fmt::format("{}: no value given; expected {} {}", name, name, o ? o->get_type_name() : "VALUE");
	}
	// "Could not convert: --json = abc", on a flag given a value.
	const std::string conv = "Could not convert: ";
	if (dynamic_cast<const CLI::ConversionError*>(&e) && what.starts_with(conv)) {
		const std::size_t eq = what.find(" = ");
		if (eq != std::string::npos) {
			const std::string name = what.substr(conv.size(), eq - conv.size());
			return fmt::format("{} '{}': expected {} alone (it takes no value)", name, what.substr(eq + 3), name);
		}
	}
	if (dynamic_cast<const CLI::ConversionError*>(&e) && what.find(": too many inputs for a flag") != std::string::npos) {
		const std::string name = what.substr(0, what.find(':'));
		return fmt::format("{}: a value given; expected {} alone (it takes no value)", name, name);
	}
	return what;
}

} // namespace ptespec::cli
