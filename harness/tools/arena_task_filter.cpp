// arena-task-filter: rejects degenerate tasks, on the CPU, from their oracle, and flags
// launch-bound configurations from a perf result.
//
//   arena-task-filter --task <task.json> --reference <reference.so | py:torch:oracle:<dir>>
//                     [--result <file.json>] [--max-elements N] [--max-configs K] [--trivial-fraction F]
//                     [--fuzz-seeds S1,S2,...]
//   arena-task-filter --task <task.json> --perf-result <solution_faster.json> [--min-baseline-us U]
//                     [--result <file.json>]
//
// Oracle checks, on the task's own configurations (seen and unseen, the largest K whose tensors
// hold at most N elements in all; at least the two smallest; largest first), with inputs drawn
// exactly as the correctness gate draws them (declared distributions, rounded through each dtype):
//   constant             every expected value of an output, over all checked configurations,
//                        matches one value within the output's tolerance
//   mostly below tol     a kernel writing zeros would match more than F of an output's values
//   mostly one value     a kernel writing one value (the most frequent or the median) would
//                        match more than F of them
//   identical            two configurations with as many output elements, drawn from different
//                        inputs, give the same outputs within tolerance
//   independent input    redrawing one input tensor changes no expected value beyond the
//                        tolerance on any checked configuration
//   independent param    changing a param that no tensor shape depends on (a float, or an int
//                        such as a divisor) changes no expected value beyond the tolerance
//   fuzz                 the correctness gate's own task checks (each output informative, two
//                        input draws giving different outputs) on the fuzz domain's low corner
//                        and the draws of fuzz seeds S (default 1,2,3), each under N elements
// (The oracle checks are in task_filter_oracle.cpp, the fuzz checks in task_filter_fuzz.cpp.)
// Perf mode: a seen configuration whose baseline (hip2hip, triton2triton) or eager PyTorch
// (torch2hip) median is under U µs (default 5) is launch-bound: the comparison measures launch
// and scheduling overheads, not kernels.
//
// Exit status: 0 the task passes, 1 rejected (each reason printed as "REJECTED: ..."), 2 usage or
// task error, 77 skipped (no PyTorch for a Python oracle, or no perf result to read).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate_report.h"
#include "runner_options.h"
#include "task_filter_oracle.h"
#include "task_spec.h"

using namespace arena;
using json = nlohmann::json;
using arena::task_filter::fmt;

namespace {

std::string g_result_path;  // --result: where skip_gate() writes, too

// "1,2,3" as seeds.
std::vector<uint64_t> parse_seeds(const std::string& list) {
  std::vector<uint64_t> out;
  size_t at = 0;
  while (at <= list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("--fuzz-seeds: '" + item + "' is not a seed (want S1,S2,...)");
    out.push_back(std::stoull(item));
    at = end + 1;
  }
  return out;
}

int run_perf_check(const TaskSpec& t, const std::string& perf_path, double min_us, json& result) {
  std::ifstream in(perf_path);
  if (!in) {
    skip_gate("no perf result at " + perf_path + " (run the task's solution_faster selftest on a GPU first)",
              g_result_path, result);
  }
  json perf;
  try {
    in >> perf;
  } catch (const std::exception& e) {
    throw std::runtime_error(perf_path + ": not JSON (" + e.what() + ")");
  }
  if (perf.value("status", "") == "skipped" || !perf.contains("configs") || perf["configs"].empty())
    skip_gate(perf_path + " holds no timings (its gate was skipped or failed before timing)",
              g_result_path, result);
  const std::string who = perf.value("baseline_name", "baseline");
  std::vector<std::string> problems;
  json cjs = json::array();
  double fastest = 1e300;
  for (const auto& c : perf["configs"]) {
    if (!c.contains("baseline") || !c["baseline"].contains("median_ms")) continue;
    const double us = c["baseline"]["median_ms"].get<double>() * 1e3;
    fastest = std::min(fastest, us);
    const std::string label = c.value("label", "?"), params = c.value("params", "");
    cjs.push_back({{"label", label}, {"params", params}, {"baseline_median_us", us}, {"launch_bound", us < min_us}});
    std::printf("  %s (%s): %s median %s us\n", label.c_str(), params.c_str(), who.c_str(), fmt(us).c_str());
    if (us < min_us)
      problems.push_back("launch-bound: " + who + " takes " + fmt(us) + " us on " + label + " (" + params +
                         "), under " + fmt(min_us) + " us: the comparison would time launches, not kernels");
  }
  if (cjs.empty()) skip_gate(perf_path + " holds no baseline timings", g_result_path, result);
  result["configs"] = cjs;
  result["problems"] = problems;
  std::printf("%s: %zu seen configuration(s) timed, fastest %s median %s us (limit %s us)\n",
              (t.suite + "/" + t.name).c_str(), cjs.size(), who.c_str(), fmt(fastest).c_str(), fmt(min_us).c_str());
  for (const auto& p : problems) std::printf("REJECTED: %s\n", p.c_str());
  print_measurement("baseline_fastest_us", fastest);
  return problems.empty() ? 0 : 1;
}

}  // namespace

int arena_task_filter_main(int argc, char** argv) {
  json result;
  std::string& result_path = g_result_path;
  try {
    RunnerOptions opt(argc, argv,
                      {"task", "reference", "perf-result", "result", "max-elements", "max-configs", "trivial-fraction",
                       "min-baseline-us", "fuzz-seeds"});
    if (opt.passthrough().size() > 1)
      throw std::invalid_argument(std::string("unknown argument '") + opt.passthrough()[1] + "'");
    result_path = opt.get("result");
    TaskSpec t = load_task(opt.require("task"));
    result = {{"gate", opt.has("perf-result") ? "launch_bound" : "filter"},
              {"task", t.suite + "/" + t.name},
              {"started", utc_now()}};
    task_filter::Options o;
    o.max_elements = static_cast<int64_t>(opt.number("max-elements", static_cast<double>(o.max_elements)));
    o.max_configs = static_cast<int>(opt.number("max-configs", o.max_configs));
    o.trivial_fraction = opt.number("trivial-fraction", o.trivial_fraction);
    if (opt.has("fuzz-seeds")) o.fuzz_seeds = parse_seeds(opt.get("fuzz-seeds"));
    auto t0 = std::chrono::steady_clock::now();
    int rc;
    if (opt.has("perf-result")) {
      rc = run_perf_check(t, opt.get("perf-result"), opt.number("min-baseline-us", 5.0), result);
    } else {
      rc = task_filter::run_oracle_checks(t, opt.require("reference"), o, result_path, result);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result["seconds"] = secs;
    result["status"] = rc == 0 ? "passed" : "rejected";
    if (!result_path.empty()) write_json_atomic(result_path, result);
    print_measurement("seconds", secs);
    std::printf("%s\n", rc == 0 ? "passed" : "FAILED: the task is degenerate (REJECTED lines above)");
    return rc;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-task-filter: %s\n", e.what());
    if (!result_path.empty()) {
      result["status"] = "error";
      result["error"] = e.what();
      write_json_atomic(result_path, result);
    }
    return 2;
  }
}

#ifndef ARENA_TOOLS_LIBRARY
int main(int argc, char** argv) { return arena_task_filter_main(argc, argv); }
#endif
