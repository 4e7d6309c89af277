#include "run_context.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#ifndef ARENA_VERSION
#define ARENA_VERSION "unknown"
#endif

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace arena::score {

const char* const kArenaVersion = ARENA_VERSION;

namespace {

constexpr size_t kSourceLimit = 256 << 10;      // a candidate larger than this is not kept
constexpr size_t kTranscriptTail = 32 << 10;    // the end of the transcript the board shows
constexpr size_t kMaxChecks = 2000;
constexpr size_t kCheckSourcesLimit = 2 << 20;  // the candidates the checks saw, all together
constexpr size_t kMaxFlagged = 20;
// "y: all 16777216 matched (max abs 0.00098 at [6113], max rel 0.00049)" (harness/src/compare.h)
const std::regex kMaxAbs(R"(max abs ([0-9.eE+-]+))");
const std::regex kMaxRel(R"(max rel ([0-9.eE+-]+))");

// The file's bytes, or its last `tail` bytes; "" when it is missing or (tail 0) larger than limit.
std::string read_text(const fs::path& p, size_t limit, size_t tail = 0) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return "";
  const auto size = fs::file_size(p, ec);
  if (ec || (tail == 0 && size > limit)) return "";
  std::ifstream in(p, std::ios::binary);
  if (tail && size > tail) in.seekg(static_cast<std::streamoff>(size - tail));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The first file in `dir` named <stem>.<anything>.
fs::path find_with_stem(const fs::path& dir, const std::string& stem) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().stem() == stem && e.is_regular_file(ec)) return e.path();
  return {};
}

// Gate labels that are not the task's category.
bool is_category_label(const std::string& l, const std::string& suite) {
  static const std::set<std::string> kOther = {"compile", "gpu", "perf", "correct_seen", "correct_unseen", "agent",
                                               "profile", "candidate_fallback", "framework", "selftest"};
  return l != suite && !kOther.count(l);
}

std::string workspace_of(const AgentResult& a) {
  for (const auto& arg : a.command) {
    const auto at = arg.find("/workspace");
    if (at != std::string::npos && (at + 10 == arg.size() || arg[at + 10] == '/')) return arg.substr(0, at + 10);
  }
  return "";
}

json agent_trail(const GateResult& g) {
  json out = json::object();
  if (g.agent) {
    out["agent"] = g.agent->agent;
    if (!g.agent->model.empty()) out["model"] = g.agent->model;
    out["agent_status"] = g.agent->agent_status;
    out["sandboxed"] = g.agent->sandboxed;
  }
  if (g.result_path.empty()) return out;
  const fs::path dir = fs::path(g.result_path).parent_path();
  json checks = json::array();
  std::ifstream in(dir / "agent_checks.jsonl");
  size_t kept_bytes = 0;
  for (std::string line; std::getline(in, line) && checks.size() < kMaxChecks;) {
    json c = json::parse(line, nullptr, false);
    if (!c.is_object()) continue;
    // The candidate as this check saw it, where it changed (the runner's copy: "checks/<n>-<file>").
    const std::string copy = c.value("candidate_copy", json("")).is_string() ? c.value("candidate_copy", "") : "";
    if (copy.rfind("checks/", 0) == 0 && copy.find("..") == std::string::npos && kept_bytes < kCheckSourcesLimit &&
        (checks.empty() || checks.back().value("candidate_copy", json("")) != c["candidate_copy"])) {
      const std::string src = read_text(dir / "agent_checks" / copy.substr(7), kSourceLimit);
      if (!src.empty()) c["source"] = src, kept_bytes += src.size();
    }
    checks.push_back(c);
  }
  out["checks_kept"] = static_cast<bool>(in) || fs::exists(dir / "agent_checks.jsonl");
  out["checks"] = checks;
  std::string transcript = read_text(dir / "agent_stdout.log", 0, kTranscriptTail);
  const std::string err = read_text(dir / "agent_stderr.log", 0, kTranscriptTail);
  if (!err.empty()) transcript += (transcript.empty() ? "" : "\n") + std::string("--- stderr ---\n") + err;
  if (!transcript.empty()) out["transcript_tail"] = transcript;
  out["outside_reads"] = outside_reads(transcript, g.agent ? workspace_of(*g.agent) : "");
  for (const auto& [stem, key] : {std::pair<const char*, const char*>{"agent_candidate", "candidate_source"},
                                  {"agent_start", "start_source"}}) {
    const fs::path p = find_with_stem(dir, stem);
    if (!p.empty()) out[key] = read_text(p, kSourceLimit);
  }
  return out;
}

}  // namespace

std::vector<std::string> outside_reads(const std::string& transcript, const std::string& workspace) {
  std::vector<std::string> flagged;
  std::string build_root, run_dir;
  if (!workspace.empty()) {
    run_dir = fs::path(workspace).parent_path().string();
    const auto at = workspace.find("/arena/");
    if (at != std::string::npos) build_root = workspace.substr(0, at);
  }
  static const std::regex kPath(R"((/[A-Za-z0-9_.+@-]+)+/?)");
  static const std::regex kHidden(R"((^|/)(tasks|_oracles)/[A-Za-z0-9_]+/|(^|/)(solution|oracle)\.(hip|py|cu)\b)");
  std::istringstream lines(transcript);
  for (std::string line; std::getline(lines, line) && flagged.size() < kMaxFlagged;) {
    bool bad = false;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kPath); it != std::sregex_iterator() && !bad; ++it) {
      const std::string p = it->str();
      if (std::regex_search(p, kHidden)) bad = true;
      else if (!build_root.empty() && p.rfind(build_root + "/", 0) == 0 && p.rfind(run_dir + "/workspace", 0) != 0 &&
               p.rfind(run_dir + "/tools", 0) != 0)
        bad = true;
    }
    if (bad) flagged.push_back(line.size() > 300 ? line.substr(0, 300) + "..." : line);
  }
  return flagged;
}

json run_context(const std::map<std::string, GateResult>& gates) {
  json tasks = json::object();
  for (const auto& [name, g] : gates) {
    std::string suite, task, gate;
    if (!split_gate_test_name(name, &suite, &task, &gate)) continue;
    json& t = tasks[suite + "/" + task];
    if (!t.contains("category") && g.outcome != Outcome::missing)
      for (const auto& l : g.record.labels)
        if (is_category_label(l, suite)) {
          t["category"] = l;
          break;
        }
    if (gate == "perf" && g.perf && g.perf->device) {
      t["gpu"] = g.perf->device->name;
      t["driver_version"] = g.perf->device->driver_version;
      t["runtime_version"] = g.perf->device->runtime_version;
    }
    if (gate == "perf" && g.perf && g.perf->report) {  // the kept timed samples' worst error, for the audit
      double worst_abs = -1, worst_rel = -1;
      for (const auto& c : g.perf->report->configs)
        for (const auto& k : c.post_timing_checks) {
          if (!k.is_object() || !k.contains("summary") || !k["summary"].is_string() ||
              k.value("kernel", json("")) != "candidate")
            continue;
          const std::string summary = k["summary"].get<std::string>();
          std::smatch m;
          if (std::regex_search(summary, m, kMaxAbs)) worst_abs = std::max(worst_abs, std::stod(m[1].str()));
          if (std::regex_search(summary, m, kMaxRel)) worst_rel = std::max(worst_rel, std::stod(m[1].str()));
        }
      if (worst_abs >= 0) t["kept_max_abs_err"] = worst_abs;
      if (worst_rel >= 0) t["kept_max_rel_err"] = worst_rel;
    }
    if ((gate == "correct_seen" || gate == "correct_unseen") && g.correct)
      for (const auto& [key, v] : {std::pair<const char*, double>{"correct_max_abs_err", g.correct->max_abs_err},
                                   {"correct_max_rel_err", g.correct->max_rel_err}})
        if (std::isfinite(v)) t[key] = std::max(t.value(key, 0.0), v);
    if (gate == "compile" && g.compile && !g.compile->source.empty() && !t.contains("candidate_source")) {
      const std::string src = read_text(g.compile->source, kSourceLimit);  // where the run kept the source
      if (!src.empty()) t["candidate_source"] = src;
    }
    if (gate == "agent") {
      const json trail = agent_trail(g);
      for (const auto& [k, v] : trail.items()) t[k] = v;  // the agent's copy is the one it left
    }
  }
  return {{"kernelarena_version", kArenaVersion}, {"tasks", tasks}};
}

}  // namespace arena::score
