// arena-score: scores KernelArena runs from CTest's Test.xml and the gates' result JSON, and
// compares two scored runs.
//
//   arena-score [score] <Test.xml | build folder | Testing folder>... [--run NAME]
//               [--results-dir DIR] [--gate-results DIR]... [--allow-mixed-seeds]
//               [--junit FILE] [--fail-on SLOWER,INCORRECT,UNJUDGED,NOT_FASTER]
//       -> <results dir>/<run>/{scores.json, summary.md, index.html, junit.xml}
//
// Exit status: 0 scored; 1 bad input (nothing written); 2 usage; 3 scored, but the run breaks
// the --fail-on policy (policy.h), each offending task named.
//   arena-score compare <runA> <runB> [--delta D] [--out DIR]   (run folders or their scores.json)
//       -> Markdown on stdout; with --out, DIR/{compare.json, compare.md}
//
// Several Test.xml files (shards) are merged into one score; shards whose correctness gates
// used different fuzz seeds are refused unless --allow-mixed-seeds. The run folder is written to a
// temporary folder and renamed into place; an existing folder is never overwritten: a --run
// name that exists is refused, a default name (the Test.xml's tag) gets -2, -3, ... added.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "board_command.h"
#include "compare.h"
#include "ctest_xml.h"
#include "format.h"
#include "policy.h"
#include "report.h"
#include "run_folder.h"
#include "scorer.h"

#ifndef ARENA_SCORE_RESULTS_DIR
#define ARENA_SCORE_RESULTS_DIR "results"
#endif

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace arena::score;

namespace {

const char* kUsage =
    "usage:\n"
    "  arena-score [score] <Test.xml | build folder | Testing folder>... [--run NAME] [--results-dir DIR]\n"
    "              [--gate-results DIR]... [--allow-mixed-seeds] [--junit FILE] [--fail-on CONDITIONS]\n"
    "      writes DIR/NAME/{scores.json, summary.md, index.html, junit.xml} (DIR defaults to " ARENA_SCORE_RESULTS_DIR ";\n"
    "      NAME defaults to the first Test.xml's tag, with -2, -3, ... added if taken; an explicit --run\n"
    "      that exists is refused). Several Test.xml files (shards) merge into one run. Gate results\n"
    "      are read from <build>/arena/results beside each Test.xml, then from each --gate-results DIR\n"
    "      (an arena/results folder kept apart from its Test.xml); --allow-mixed-seeds scores shards whose gates used\n"
    "      different fuzz seeds (refused otherwise: they are not one run). --junit also writes the JUnit XML\n"
    "      to FILE. --fail-on SLOWER,INCORRECT,UNJUDGED,NOT_FASTER: exit 3 (after writing the run) when a\n"
    "      task's verdict is SLOWER / a judged task is not correct / a task could not be judged / a correct\n"
    "      task is not FASTER. Exit status: 0 scored, 1 bad input, 2 usage, 3 --fail-on policy broken.\n"
    "  arena-score compare <runA> <runB> [--delta D] [--out DIR]\n"
    "      each run a scored run folder (results/<run>) or its scores.json;\n"
    "      prints the comparison as Markdown; --out also writes DIR/{compare.json, compare.md}\n";

// The usage with the board's lines (board_command.cpp).
std::string full_usage() { return std::string(kUsage) + kBoardUsage; }

[[noreturn]] void usage_error(const std::string& why) {
  std::fprintf(stderr, "arena-score: %s\n%s", why.c_str(), full_usage().c_str());
  std::exit(2);
}

std::string default_run_name(const std::string& xml) {
  fs::path p = fs::absolute(xml).lexically_normal();
  if (p.parent_path().parent_path().filename() == "Testing") return p.parent_path().filename().string();
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::gmtime(&t));
  return buf;
}

void print_metrics_line(const std::string& name, const json& m) {
  if (m.value("gpu_judged", 1) == 0) {  // only compilation was judged: no rate or speedup to show
    if (m.value("judged", 0) == 0) {
      std::printf("  %-12s %d task(s): compile %s | correctness, speedup, points: not judged (no GPU gate ran)\n",
                  name.c_str(), m.value("tasks", 0), fmt_pct(m["compile_rate"]).c_str());
    } else {  // the tasks that did not compile are judged (0 points) without a GPU
      std::printf("  %-12s %d task(s): compile %s | correctness, speedup: not judged (no GPU gate ran) | points %s "
                  "(%d judged: did not compile)\n",
                  name.c_str(), m.value("tasks", 0), fmt_pct(m["compile_rate"]).c_str(),
                  fmt_num(m["aka_score_mean"], "%.1f").c_str(), m.value("judged", 0));
    }
    return;
  }
  std::printf("  %-12s %d task(s): compile %s | seen %s | unseen %s | correct %s | geomean speedup: %s (correct only), "
              "%s (all, not correct = 1.0) | fast_1.0 %s | points %s",
              name.c_str(), m.value("tasks", 0), fmt_pct(m["compile_rate"]).c_str(),
              fmt_pct(m["correct_seen_rate"]).c_str(), fmt_pct(m["correct_unseen_rate"]).c_str(),
              fmt_pct(m["correct_rate"]).c_str(), fmt_num(m["geomean_speedup_correct"]).c_str(),
              fmt_num(m["geomean_speedup_all"]).c_str(), fmt_pct(m["fast_p"]["1.0"]).c_str(),
              fmt_num(m["aka_score_mean"], "%.1f").c_str());
  if (m.value("unjudged", 0)) std::printf(" | %d not judged", m.value("unjudged", 0));
  std::printf("\n");
}

int run_score(const std::vector<std::string>& args) {
  std::vector<std::string> inputs;
  std::vector<std::string> result_dirs;
  std::string run, results_dir = ARENA_SCORE_RESULTS_DIR, junit_file;
  std::set<std::string> fail_on;
  bool allow_mixed_seeds = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) usage_error(a + " needs a value");
      return args[++i];
    };
    if (a == "--run") run = value();
    else if (a == "--results-dir") results_dir = value();
    else if (a == "--allow-mixed-seeds") allow_mixed_seeds = true;
    else if (a == "--junit") junit_file = value();
    else if (a == "--fail-on") {
      try {
        for (const auto& c : parse_fail_on(value())) fail_on.insert(c);
      } catch (const std::invalid_argument& e) {
        usage_error(e.what());
      }
    }
    else if (a == "--gate-results") result_dirs.push_back(value());
    else if (a.rfind("--", 0) == 0) usage_error("unknown option " + a);
    else inputs.push_back(a);
  }
  if (inputs.empty()) usage_error("no Test.xml given");
  std::vector<std::string> xmls;
  for (const auto& in : inputs) xmls.push_back(resolve_test_xml(in));
  const bool named = !run.empty();
  if (!named) run = default_run_name(xmls.front());

  json scores = score_test_xml_files(xmls, result_dirs, run, allow_mixed_seeds);  // all input errors surface here, before any output
  const std::string folder =
      write_run_folder(results_dir, run, named ? OnExists::refuse : OnExists::suffix, [&](const std::string& name) {
        scores["run"] = name;
        return std::map<std::string, std::string>{{"scores.json", scores.dump(2) + "\n"},
                                                  {"summary.md", render_summary_markdown(scores)},
                                                  {"index.html", render_index_html(scores)},
                                                  {"junit.xml", render_junit_xml(scores)}};
      });
  if (!junit_file.empty()) {
    std::ofstream out(junit_file);
    out << render_junit_xml(scores);
    if (!out) throw InputError(junit_file + ": cannot write the JUnit XML");
  }
  std::printf("arena-score: run %s from %zu Test.xml file(s) -> %s\n", scores["run"].get<std::string>().c_str(),
              xmls.size(), folder.c_str());
  for (const auto& [name, m] : scores["suites"].items()) print_metrics_line(name, m);
  if (scores["suites"].size() > 1) print_metrics_line("overall", scores["overall"]);
  if (scores["notice"].is_string()) std::printf("  %s\n", scores["notice"].get<std::string>().c_str());
  for (const auto& w : scores["warnings"]) std::printf("  warning: %s\n", w.get<std::string>().c_str());
  if (!fail_on.empty()) {
    std::string conditions;
    for (const auto& c : fail_on) conditions += (conditions.empty() ? "" : ",") + c;
    const auto violations = policy_violations(scores, fail_on);
    if (!violations.empty()) {
      std::printf("arena-score: --fail-on %s: %zu task(s) break the policy (exit 3):\n", conditions.c_str(),
                  violations.size());
      for (const auto& v : violations) std::printf("  %s\n", v.c_str());
      return 3;
    }
    std::printf("arena-score: --fail-on %s: no task breaks the policy\n", conditions.c_str());
  }
  return 0;
}

// A scored run is named by its folder (results/<run>) or its scores.json.
json read_scores(const std::string& given) {
  const std::string path =
      std::filesystem::is_directory(given) ? (std::filesystem::path(given) / "scores.json").string() : given;
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the file");
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("tasks") || !j["tasks"].is_array())
    throw InputError(path + ": not a scores.json written by arena-score");
  return j;
}

int run_compare(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string out;
  double delta = 0.01;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--out" && i + 1 < args.size()) out = args[++i];
    else if (a == "--delta" && i + 1 < args.size()) {
      char* end = nullptr;
      delta = std::strtod(args[++i].c_str(), &end);
      if (!end || *end || delta < 0 || delta >= 1) usage_error("--delta wants a number in [0, 1)");
    } else if (a.rfind("--", 0) == 0) usage_error("unknown or incomplete option " + a);
    else files.push_back(a);
  }
  if (files.size() != 2) usage_error("compare wants two scored runs (folders or scores.json files)");
  json c = compare_runs(read_scores(files[0]), read_scores(files[1]), delta);
  c["a"]["file"] = files[0];
  c["b"]["file"] = files[1];
  const std::string md = render_compare_markdown(c);
  if (!out.empty()) {
    fs::path o = fs::absolute(out).lexically_normal();
    write_run_folder(o.parent_path().string(), o.filename().string(), OnExists::refuse, [&](const std::string&) {
      return std::map<std::string, std::string>{{"compare.json", c.dump(2) + "\n"}, {"compare.md", md}};
    });
  }
  std::fwrite(md.data(), 1, md.size(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(full_usage().c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  try {
    if (args[0] == "compare") return run_compare({args.begin() + 1, args.end()});
    if (args[0] == "board") return run_board({args.begin() + 1, args.end()}, usage_error);
    if (args[0] == "score") args.erase(args.begin());
    return run_score(args);
  } catch (const InputError& e) {
    std::fprintf(stderr, "arena-score: %s\n", e.what());
  } catch (const FolderExists& e) {
    std::fprintf(stderr, "arena-score: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-score: %s\n", e.what());
  }
  return 1;
}
