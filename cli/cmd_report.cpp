// ptespec report: one markdown file a reviewer can read -- the verdict
// table (every strategy against every property), the proofs (hook below),
// the cost table of exit(), and a chart of it drawn by gnuplot.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>


#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/progress.h"
#include "cli/report.h"
#include "cli/thread_figures.h"
#include "cli/verdicts.h"
#include "explore/cost.h"
#include "model/errors.h"
#include "proofs/catalogue.h"
#include "properties/runner.h"

namespace ptespec::cli {

namespace {

namespace fs = std::filesystem;


std::string find_on_path(const std::string& name)
{
	const char* path = std::getenv("PATH");
	std::string p = path ? path : "";
	for (std::size_t start = 0; start <= p.size();) {
		const std::size_t end = std::min(p.find(':', start), p.size());
		const fs::path cand = fs::path(p.substr(start, end - start)) / name;
		std::error_code ec;
		if (end > start && fs::is_regular_file(cand, ec))
			return cand.string();
		start = end + 1;
	}
	return "";
}

std::string shell_quote(const std::string& s)
{
	std::string q = "'";
	for (char c : s)
		q += c == '\'' ? std::string("'\\''") : std::string(1, c);
	return q + "'";
}

void write_file(const fs::path& p, const std::string& text)
{
	std::ofstream f(p);
	f << text;
	if (!f)
		throw usage_error(fmt::format("--out: cannot write {}; expected a writable directory", p.string()));
}

// " --caller NAME" when the report's calls come from another caller than
// core-mm's.
std::string caller_flag(const report_cli& c)
{
	return c.caller.empty() || c.caller == "core-mm" ? "" : " --caller " + c.caller;
}

std::string sweep_flag(const report_cli& c)
{
	return c.sweeps.flags();
}

// The verdict table `ptespec check --all` prints for the same seed and
// cases (computed by the same function), then one row per strategy and
// obligation of the proofs it ran.
std::string verdict_section(const report_cli& c, const verdict_table& vt)
{
	const granule g = parse_granule(c.proof_granule);
	std::string md = fmt::format("## Verdicts\n\n`ptespec check{}{} --seed {} --granule {}{}` ({}): each "
				     "strategy against each property, sampled and proved; a failing cell is in bold, the "
				     "legend below says what each word means.\n\n",
				     c.selection_flags(), c.cases > 0 ? fmt::format(" --cases {}", c.cases) : "", c.seed,
				     c.proof_granule, hardware_flag(c.hw) + caller_flag(c) + sweep_flag(c),
				     cases_text({g}, c.cases));
	md += "| strategy |";
	for (property p : all_properties)
		md += fmt::format(" {} |", to_string(p));
	md += "\n|---|";
	for (std::size_t k = 0; k < nr_properties; k++)
		md += "---|";
	md += "\n";
	std::set<std::string> used;
	for (std::size_t i = 0; i < vt.cells.size(); i++) {
		const cell& x = vt.cells[i];
		if (i % nr_properties == 0)
			md += fmt::format("| {} |", x.test.strategy);
		md += fmt::format(" {} |", x.out == outcome::failed ? "**" + x.word + "**" : x.word);
		add_words(used, x);
		if (i % nr_properties == nr_properties - 1)
			md += "\n";
	}
	md += "\n```\n" + legend(used) + "```\n";
	std::set<std::string> partial;
	for (const cell& x : vt.cells)
		if (!x.proof_covers.covered.empty())
			partial.insert(fmt::format("- {}: {}", to_string(x.test.prop), x.proof_covers.whole()));
	if (!partial.empty())
		md += "\nWhat the partial proofs covered:\n\n";
	for (const std::string& l : partial)
		md += l + "\n";
	// Each sampled failure of a proved strategy, re-judged by the proofs from
	// the table its failing call began from (a disagreement never gets here:
	// it stops the command, exit 3).
	std::string rejudged;
	for (const cell& x : vt.cells)
		if (!x.agreement.empty())
			rejudged += fmt::format("- {} {}: {}\n", x.test.strategy, to_string(x.test.prop), x.agreement);
	if (!rejudged.empty())
		md += "\nThe sampled failures, re-judged by the proofs from the table the failing call began from:\n\n" +
		      rejudged;
	md += fmt::format("\ncells: {} passed, {} failed, {} undecided\n", vt.counts[0], vt.counts[1], vt.counts[2]);
	return md;
}

// `ptespec prove --all --granule G`, one row per strategy, one column per
// obligation: the verdict and its seconds.
std::string proofs_section(const report_cli& c, const std::vector<proofs::proof_result>& rs)
{
	const granule g = parse_granule(c.proof_granule);
	const std::vector<strategy*> all = c.strategies();
	std::vector<std::string> columns;
	for (const proofs::proof_result& r : rs)
		if (!r.strategy.empty() && std::find(columns.begin(), columns.end(), r.obligation) == columns.end())
			columns.push_back(r.obligation);
	std::string md = fmt::format("## Proofs ({})\n\n`ptespec prove{} --granule {}`: each obligation for every "
				     "table of its shape and every hardware interleaving (Z3), seconds in brackets; "
				     "a refutation is replayed on the concrete machine and its checker.\n\n",
				     to_string(g), c.selection_flags(), to_string(g));
	md += "| strategy |";
	for (const std::string& col : columns)
		md += fmt::format(" {} |", col);
	md += "\n|---|";
	for (std::size_t k = 0; k < columns.size(); k++)
		md += "---|";
	md += "\n";
	for (strategy* s : all) {
		md += fmt::format("| {} |", s->info().name);
		for (const std::string& col : columns) {
			std::string cell = "n/a";
			for (const proofs::proof_result& r : rs)
				if (r.strategy == s->info().name && r.obligation == col) {
					cell = fmt::format("{} ({:.1f})", to_string(r.verdict), r.seconds);
					if (r.verdict == proofs::proof_verdict::refuted)
						cell += r.replay == "confirmed" ? ", replay confirmed" : ", replay " + r.replay;
				}
			md += fmt::format(" {} |", cell);
		}
		md += "\n";
	}
	md += "\nWhat each family of obligations covers (the calls it runs, the tables it starts from):\n\n";
	for (const proofs::obligation_family& f : proofs::obligation_table()) {
		md += fmt::format("- `{}*` ({}): {}; {}\n", f.prefix, proofs::scope_properties(f.scope),
				  proofs::scope_calls(f.scope), f.scope.tables);
	}
	return md;
}

// Draws cost.png from cost.dat and cost-close.dat with gnuplot.  gnuplot
// runs in the report's directory, so the script names its files relatively
// and the folder can move.  Four bars per strategy (the model on one and two
// nodes, the thread's measurement on one and two), each with its value above
// it.
void draw_cost_chart(const fs::path& dir, std::size_t folios, const std::string& gnuplot)
{
	auto panel = [](const char* title, const char* file) {
		std::string p = fmt::format("set title '{}'\nplot '{}' using 2:xtic(1) title 'model, 1 node', "
					    "'' using 3 title 'model, 2 nodes', '' using 4 title 'thread, 1 node', "
					    "'' using 5 title 'thread, 2 nodes'",
					    title, file);
		for (int col = 2; col <= 5; col++)
			p += fmt::format(", '' using ($0{:+.1f}):{}:(sprintf('%+.{}f', ${})) with labels rotate by 90 "
					 "left offset 0,0.3 font ',8' notitle",
					 (col - 3.5) / 5.0, col, col <= 3 ? 1 : 0, col);
		return p + "\n";
	};
	auto script = [&](const char* terminal) {
		return fmt::format("set terminal {} size 1400,620\n"
				   "set output 'cost.png'\n"
				   "set datafile missing '-'\n"
				   "set ylabel 'percent over nocont'\n"
				   "set style data histograms\nset style histogram clustered gap 1\n"
				   "set style fill solid 0.8 border -1\nset xtics rotate by -30\nset grid ytics\n"
				   "set key below\n"
				   "set multiplot layout 1,2 title 'exit() cost over nocont, {} folios of 64K: the model "
				   "and the measurements of the thread'\n"
				   "{}{}unset multiplot\n",
				   terminal, folios, panel("every strategy", "cost.dat"),
				   panel("without unfold", "cost-close.dat"));
	};
	bool drawn = false;
	for (const char* terminal : {"pngcairo", "png"}) {
		write_file(dir / "cost.gp", script(terminal));
		const std::string cmd = fmt::format("cd {} && {} cost.gp 2>/dev/null", shell_quote(dir.string()),
						    shell_quote(gnuplot));
		if (std::system(cmd.c_str()) == 0 && fs::exists(dir / "cost.png")) {
			drawn = true;
			break;
		}
	}
	if (!drawn)
		throw internal_error(fmt::format("gnuplot ({}) failed to draw {}", gnuplot, (dir / "cost.png").string()));
}

std::string cost_section(const report_cli& c, const fs::path& dir, const std::string& gnuplot)
{
	using namespace explore;
	cost_options o;
	o.folios = c.folios;
	o.hw = c.hw;
	o.caller = &caller_of(c.caller);
	const cost_profile numa1 = load_profile("numa1"), numa2 = load_profile("numa2");
	const cost_row base = measure(registry::global().get("nocont"), o);
	std::string md = fmt::format("## Cost of exit()\n\n`ptespec cost{} --scenario exit --folios {}`: primitive "
				     "counts on a bare harness, weighted cost as percent over `nocont`.\n\n",
				     c.selection_flags() + caller_flag(c), c.folios);
	md += "| strategy | reads | writes | atomics | tlbi_page | tlbi_range | tlbi_all | numa1 | numa2 |\n"
	      "|---|---|---|---|---|---|---|---|---|\n";
	// cost.dat has every strategy, cost-close.dat all but the far outlier
	// (unfold), so the second panel keeps the close ones apart; '-' where
	// the thread measured nothing.
	const std::string header = "# strategy model-1-node% model-2-nodes% thread-1-node% thread-2-nodes%\n";
	std::string dat = header, close = header;
	for (strategy* s : c.strategies()) {
		const cost_row r = measure(*s, o);
		const double a = percent_over(r, base, numa1), b = percent_over(r, base, numa2);
		md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {:+.1f}% | {:+.1f}% |\n", r.strategy, r.counts.reads,
				  r.counts.writes, r.counts.atomics, r.counts.tlbi_page, r.counts.tlbi_range,
				  r.counts.tlbi_all, a, b);
		const auto t = thread_figure(r.strategy);
		const std::string row = fmt::format("\"{}\" {:.2f} {:.2f} {} {}\n", r.strategy, a, b,
						    t ? std::to_string(t->first) : "-", t ? std::to_string(t->second) : "-");
		dat += row;
		if (r.strategy != "unfold")
			close += row;
	}
	write_file(dir / "cost.dat", dat);
	write_file(dir / "cost-close.dat", close);
	draw_cost_chart(dir, c.folios, gnuplot);
	md += "\n![exit() cost over baseline](cost.png)\n\n"
	      "The chart is drawn by gnuplot from `cost.dat` and `cost-close.dat` with `cost.gp`, run in this "
	      "directory. The thread's bars are its measurements on an Ampere Altra, for the strategies it "
	      "measured.\n";
	return md;
}

int run_report(const report_cli& c)
{
	(void)c.sweeps.resolve();	// --sweep beside --mprotect: refused before anything is printed
	const std::string gnuplot = report_prerequisites(c);
	const mm::caller& via = caller_of(c.caller);
	fmt::print("seed {}{}{}{}, {}\n", c.seed, c.hw.is_default() ? "" : ", hardware " + to_string(c.hw),
		   &via == &mm::core_mm() ? "" : ", caller " + via.info().name, c.sweeps.with_text(),
		   cases_text({parse_granule(c.proof_granule)}, c.cases));
	std::fflush(stdout);
	progress_line where("report");
	const verdict_table vt = compute_verdicts(c.strategies(), {parse_granule(c.proof_granule)},
						  {report_proofs(c.jobs), c.cases, c.seed, c.hw, &via, c.sweeps.resolve(), c.sweeps.mprotect,
						   c.sweeps.swarm},
						  [&where](const std::string& what) { where.update(what); });
	where.clear();
	write_report(c, vt, gnuplot);
	fmt::print("cells: {} passed, {} failed, {} undecided\n", vt.counts[0], vt.counts[1], vt.counts[2]);
	return exit_for(vt.failed(), vt.undecided());
}

} // namespace

std::string report_cli::selection_flags() const
{
	std::string f;
	for (const std::string& n : names)
		f += " --strategy " + n;
	return f.empty() ? " --all" : f;
}

proofs::prove_options report_proofs(unsigned jobs)
{
	proofs::prove_options o;
	o.schedule.jobs = jobs;
	for (const proofs::obligation_family& f : proofs::obligation_table())
		if (!f.opt_in)
			o.only.push_back(f.prefix);
	return o;
}

std::string report_prerequisites(const report_cli& c)
{
	c.strategies();	// an unknown name stops the report before its long work
	const std::string gnuplot = find_on_path("gnuplot");
	if (gnuplot.empty())
		throw usage_error("gnuplot: not found on PATH; expected it to draw the cost chart (Debian: gnuplot-nox)");
	const fs::path dir(c.out);
	std::error_code ec;
	fs::create_directories(dir, ec);
	if (ec || !fs::is_directory(dir))
		throw usage_error(fmt::format("--out {}: cannot create it; expected a writable directory", c.out));
	return gnuplot;
}

void write_report(const report_cli& c, const verdict_table& vt, const std::string& gnuplot)
{
	// The helper algebra is not in a report (check proves it beside the table).
	std::vector<proofs::proof_result> proved;
	for (const proofs::proof_result& r : vt.proofs)
		if (!r.strategy.empty())
			proved.push_back(r);
	const fs::path dir(c.out);
	std::string md = "# ptespec report\n\n";
	md += verdict_section(c, vt) + "\n" + proofs_section(c, proved) + "\n" + cost_section(c, dir, gnuplot);
	write_file(dir / "report.md", md);
	fmt::print("wrote {}\n", (dir / "report.md").string());
}

action define_report(CLI::App& sub)
{
	auto c = std::make_shared<report_cli>();
	// Every value is refused as the command line is read: the report's
	// long work must not start on one it would stop at.
	add_once(
		sub, "--out",
		[c](const std::string& d) {
			if (d.empty())
				throw usage_error("--out '': expected a DIR to write the report into");
			c->out = d;
		},
		"directory for report.md, cost.dat, cost-close.dat, cost.gp, cost.png (default ./report)", "DIR");
	add_once(
		sub, "--cases",
		[c](const std::string& n) { c->cases = static_cast<int>(parse_count("--cases", n, 1, max_cases, "cases")); },
		"RapidCheck cases per strategy and property, 1 to 1000000 (default: check's)", "N");
	add_once(
		sub, "--seed", [c](const std::string& s) { c->seed = parse_seed("--seed", s); },
		"seed of the property runs, decimal or 0x-hex (default 1)", "S");
	add_once(
		sub, "--folios",
		[c](const std::string& n) { c->folios = parse_count("--folios", n, 1, max_folios, "folios"); },
		"64K folios in the cost workload, 1 to 65536 (default 256)", "M");
	add_repeatable(
		sub, "--strategy",
		[c](const std::string& n) {
			if (std::find(c->names.begin(), c->names.end(), n) != c->names.end())
				throw usage_error(fmt::format("--strategy '{}' given twice; expected each strategy once", n));
			c->names.push_back(n);
		},
		"report on this strategy (repeatable; default: every one)", "NAME");
	add_once(
		sub, "--proof-granule",
		[c](const std::string& g) {
			parse_granule_flag("--proof-granule", g);
			c->proof_granule = g;
		},
		"granule of the proofs section: 4k, 16k or 64k (default 4k)", "G");
	add_jobs(sub, c->jobs, "cells and obligations");
	add_hardware(sub, c->hw);
	add_caller(sub, c->caller);
	add_sweep_flags(sub, c->sweeps);
	return [c] { return run_report(*c); };
}

} // namespace ptespec::cli
