#include "board_load.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "ctest_xml.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace arena::score {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double num(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : kNaN;
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

bool flag(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// The value most tasks give (ties: the smallest), "" when none gives one.
std::string most_common(const std::map<std::string, int>& counts) {
  std::string best;
  int n = 0;
  for (const auto& [v, c] : counts)
    if (!v.empty() && c > n) best = v, n = c;
  return best;
}

std::string slug_of(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return out.empty() ? "run" : out;
}

}  // namespace

BoardTask::BoardTask()
    : speedup(kNaN), ci_low(kNaN), ci_high(kNaN), fraction_of_peak(kNaN), vs(kNaN), vs_low(kNaN), vs_high(kNaN) {}

std::vector<std::string> find_scores_files(const std::vector<std::string>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) {
    const fs::path p(d);
    if (fs::is_regular_file(p)) {
      out.push_back(p.string());
      continue;
    }
    if (!fs::is_directory(p)) throw InputError(d + ": no such folder");
    if (fs::is_regular_file(p / "scores.json")) {
      out.push_back((p / "scores.json").string());
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(p))
      if (e.is_directory() && e.path().filename().string()[0] != '.' && fs::is_regular_file(e.path() / "scores.json"))
        found.push_back((e.path() / "scores.json").string());
    if (found.empty()) throw InputError(d + ": no scored run here (neither <dir>/scores.json nor <dir>/<run>/scores.json)");
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

BoardRun board_run_from_scores(const json& s, const std::string& path) {
  if (!s.is_object() || !s.contains("tasks") || !s["tasks"].is_array() || !s.contains("run") || !s["run"].is_string())
    throw InputError(path + ": not a scores.json written by arena-score (no run name or task list)");
  BoardRun r;
  r.run = s["run"].get<std::string>();
  r.created = str(s, "created");
  r.files = {path};
  const json ctx = s.contains("context") && s["context"].is_object() ? s["context"] : json::object();
  r.version = ctx.contains("kernelarena_version") ? str(ctx, "kernelarena_version") : "unknown";
  const json ctx_tasks = ctx.contains("tasks") && ctx["tasks"].is_object() ? ctx["tasks"] : json::object();
  std::set<std::string> hosts;
  if (s.contains("inputs") && s["inputs"].is_array())
    for (const auto& in : s["inputs"]) {
      const double t = num(in, "start_test_time");
      if (std::isfinite(t) && t > 0 && (r.started == 0 || t < r.started)) r.started = static_cast<long long>(t);
      if (!str(in, "site").empty()) hosts.insert(str(in, "site"));
      r.fingerprint.push_back(str(in, "site") + "|" + str(in, "build_stamp") + "|" + str(in, "start_test_time"));
    }
  std::sort(r.fingerprint.begin(), r.fingerprint.end());
  r.hosts.assign(hosts.begin(), hosts.end());
  if (r.started > 0) {
    std::time_t t = static_cast<std::time_t>(r.started);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    r.date = buf;
  } else {
    r.date = r.created.substr(0, 10);
  }
  std::map<std::string, int> gpus, drivers, agents, models;
  for (const auto& j : s["tasks"]) {
    BoardTask t;
    t.id = str(j, "id");
    t.suite = str(j, "suite");
    t.task = str(j, "task");
    if (t.id.empty() || t.suite.empty()) throw InputError(path + ": a task without id or suite");
    t.compiled = flag(j, "compiled");
    t.correct_seen = flag(j, "correct_seen");
    t.correct_unseen = flag(j, "correct_unseen");
    t.correct = flag(j, "correct");
    t.judged = flag(j, "judged");
    t.verdict = str(j, "verdict");
    t.speedup = num(j, "speedup");
    t.ci_low = num(j, "ci95_low");
    t.ci_high = num(j, "ci95_high");
    t.fraction_of_peak = num(j, "fraction_of_peak");
    if (j.contains("gates") && j["gates"].is_object())
      for (const char* g : {"correct_seen", "correct_unseen", "perf"}) {
        const std::string o = j["gates"].contains(g) ? str(j["gates"][g], "outcome") : "";
        t.gpu_judged |= !o.empty() && o != "skipped" && o != "missing" && o != "not run" && o != "not_run";
      }
    if (j.contains("speedup_vs") && j["speedup_vs"].is_object() && !j["speedup_vs"].empty()) {
      auto it = j["speedup_vs"].begin();
      t.vs_name = it.key();
      t.vs = num(*it, "speedup");
      t.vs_low = num(*it, "ci95_low");
      t.vs_high = num(*it, "ci95_high");
    }
    t.score = j;
    t.context = ctx_tasks.contains(t.id) ? ctx_tasks[t.id] : json::object();
    if (!str(t.context, "category").empty()) t.category = str(t.context, "category");
    t.source = path;
    gpus[t.context.contains("gpu") ? str(t.context, "gpu") : str(j, "device")]++;
    drivers[str(t.context, "driver_version")]++;
    agents[str(t.context, "agent")]++;
    models[str(t.context, "model")]++;
    r.tasks[t.id] = std::move(t);
  }
  r.gpu = most_common(gpus);
  r.driver = most_common(drivers);
  if (!most_common(agents).empty()) r.agent = most_common(agents);
  r.model = most_common(models);
  return r;
}

std::vector<BoardRun> merge_board_runs(std::vector<BoardRun> runs, std::vector<std::string>* notes) {
  std::stable_sort(runs.begin(), runs.end(), [](const BoardRun& a, const BoardRun& b) { return a.created < b.created; });
  // A run scored twice: the same Test.xml inputs. The first scoring stays.
  std::vector<BoardRun> unique;
  std::map<std::vector<std::string>, size_t> by_inputs;
  for (auto& r : runs) {
    auto it = r.fingerprint.empty() ? by_inputs.end() : by_inputs.find(r.fingerprint);
    if (it != by_inputs.end()) {
      const BoardRun& kept = unique[it->second];
      notes->push_back(r.files.front() + ": the same Test.xml inputs as " + kept.files.front() +
                       " (scored twice): counted once, as run " + kept.run);
      continue;
    }
    if (!r.fingerprint.empty()) by_inputs[r.fingerprint] = unique.size();
    unique.push_back(std::move(r));
  }
  // Shards of one run: same key, tasks united.
  std::vector<BoardRun> merged;
  std::map<std::string, size_t> by_key;
  for (auto& r : unique) {
    auto it = by_key.find(r.key());
    if (it == by_key.end()) {
      by_key[r.key()] = merged.size();
      merged.push_back(std::move(r));
      continue;
    }
    BoardRun& m = merged[it->second];
    for (auto& [id, t] : r.tasks) {
      if (m.tasks.count(id)) {
        m.notes.push_back(id + ": in " + m.tasks[id].source + " and " + t.source + "; the first is used");
        continue;
      }
      m.tasks[id] = std::move(t);
    }
    m.files.insert(m.files.end(), r.files.begin(), r.files.end());
    for (const auto& h : r.hosts)
      if (std::find(m.hosts.begin(), m.hosts.end(), h) == m.hosts.end()) m.hosts.push_back(h);
    if (r.started > 0 && (m.started == 0 || r.started < m.started)) m.started = r.started, m.date = r.date;
    if (m.agent == "unknown") m.agent = r.agent, m.model = r.model;
    notes->push_back(r.files.front() + ": merged into run " + m.run + " (same run, GPU, driver and version)");
  }
  std::stable_sort(merged.begin(), merged.end(), [](const BoardRun& a, const BoardRun& b) {
    return a.started != b.started ? a.started < b.started : a.key() < b.key();
  });
  std::set<std::string> slugs;
  for (auto& r : merged) {
    std::string s = slug_of(r.run), base = s;
    for (int i = 2; slugs.count(s); ++i) s = base + "-" + std::to_string(i);
    slugs.insert(s);
    r.slug = s;
  }
  return merged;
}

}  // namespace arena::score
