// arena-summary: the per-task table of one build's gate results (<build>/arena/results),
// printed after a suite run. A gate with no result file was not run (a failed fixture, or
// filtered out); a skipped gate says why.
//
//   arena-summary <results dir> [--suite NAME]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return nullptr;
  json j = json::parse(in, nullptr, false);
  return j.is_discarded() ? json{{"status", "error"}, {"error", "unreadable result " + p.string()}} : j;
}

std::string gate_cell(const json& j, std::map<std::string, int>& skips) {
  if (j.is_null()) return "not run";
  if (j.contains("compiled")) return j["compiled"].get<bool>() ? "ok" : "FAILED";
  std::string status = j.value("status", "?");
  if (status == "skipped") {
    skips[j.value("skip_reason", "unknown reason")]++;
    return "skipped";
  }
  if (j.contains("passed_configs") && j.contains("total_configs"))
    return std::to_string(j["passed_configs"].get<int>()) + "/" + std::to_string(j["total_configs"].get<int>()) +
           (status == "passed" ? "" : " FAILED");
  return status == "passed" ? "ok" : "FAILED";
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: arena-summary <results dir> [--suite NAME]\n");
    return 2;
  }
  fs::path root = argv[1];
  std::string only_suite = argc >= 4 && std::string(argv[2]) == "--suite" ? argv[3] : "";
  if (!fs::is_directory(root)) {
    std::fprintf(stderr, "arena-summary: no results at %s (did the gates run?)\n", root.c_str());
    return 1;
  }
  std::map<std::string, int> skips;
  std::set<fs::path> task_dirs;
  for (const auto& suite : fs::directory_iterator(root))
    if (suite.is_directory() && (only_suite.empty() || suite.path().filename() == only_suite))
      for (const auto& task : fs::directory_iterator(suite.path()))
        if (task.is_directory()) task_dirs.insert(task.path());

  std::printf("%-28s %-8s %-14s %-14s %-26s %-10s %s\n", "task", "compile", "correct_seen", "correct_unseen",
              "speedup [95% CI]", "verdict", "cand/peak");
  int n = 0, compiled = 0, seen_ok = 0, unseen_ok = 0;
  for (const auto& dir : task_dirs) {
    const std::string id = dir.parent_path().filename().string() + "/" + dir.filename().string();
    json c = read_json(dir / "compile.json"), s = read_json(dir / "correct_seen.json"),
         u = read_json(dir / "correct_unseen.json"), p = read_json(dir / "perf.json");
    std::string speed = "-", verdict = "-", peak = "-";
    if (!p.is_null() && p.value("status", "") != "skipped" && p.contains("speedup")) {
      speed = fmt("%.3f", p["speedup"].get<double>()) + " [" + fmt("%.3f", p["ci95_low"].get<double>()) + ", " +
              fmt("%.3f", p["ci95_high"].get<double>()) + "]";
      verdict = p.value("verdict", "-");
      double worst = 1e300;
      for (const auto& cfg : p["configs"]) worst = std::min(worst, cfg["candidate"]["fraction_of_peak"].get<double>());
      if (worst < 1e300) peak = fmt("%.0f%%", worst * 100) + " (min)";
      if (p.value("status", "") != "passed") verdict += " FAILED";
    } else if (!p.is_null()) {
      verdict = gate_cell(p, skips);
    }
    std::printf("%-28s %-8s %-14s %-14s %-26s %-10s %s\n", id.c_str(), gate_cell(c, skips).c_str(),
                gate_cell(s, skips).c_str(), gate_cell(u, skips).c_str(), speed.c_str(), verdict.c_str(),
                peak.c_str());
    ++n;
    compiled += !c.is_null() && c.value("compiled", false);
    seen_ok += !s.is_null() && s.value("status", "") == "passed";
    unseen_ok += !u.is_null() && u.value("status", "") == "passed";
  }
  std::printf("\n%d task(s): %d compiled, %d correct on seen, %d correct on unseen configurations\n", n, compiled,
              seen_ok, unseen_ok);
  for (const auto& [why, count] : skips) std::printf("skipped %d gate(s): %s\n", count, why.c_str());
  return 0;
}
