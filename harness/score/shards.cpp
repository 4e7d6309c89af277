#include "shards.h"

#include <algorithm>
#include <fstream>

#include "result_json.h"

namespace arena::score {

namespace {

struct Seen {
  const TestXml* file;
  const TestRecord* record;
  Outcome outcome;
  std::string detail;
};

bool is_framework(const TestRecord& r) {
  return std::find(r.labels.begin(), r.labels.end(), "framework") != r.labels.end();
}

}  // namespace

std::map<std::string, GateResult> merge_gate_tests(const std::vector<TestXml>& files, MergeReport* report) {
  std::map<std::string, std::vector<Seen>> by_name;
  for (const TestXml& f : files)
    for (const TestRecord& r : f.tests) {
      std::string suite, task, gate;
      if (!split_gate_test_name(r.name, &suite, &task, &gate) || is_framework(r)) {
        report->ignored_tests++;
        continue;
      }
      Seen s{&f, &r, Outcome::missing, ""};
      s.outcome = classify(r, &s.detail);
      by_name[r.name].push_back(s);
    }

  std::map<std::string, GateResult> out;
  for (auto& [name, seen] : by_name) {
    GateResult g;
    for (const Seen& s : seen) g.files.push_back(s.file->path);
    std::vector<const Seen*> real;
    for (const Seen& s : seen)
      if (s.outcome != Outcome::skipped) real.push_back(&s);
    const Seen* chosen = real.empty() ? &seen.front() : real.front();
    bool agree = std::all_of(real.begin(), real.end(), [&](const Seen* s) { return s->outcome == chosen->outcome; });
    g.record = *chosen->record;
    g.origin = chosen->file;
    g.outcome = chosen->outcome;
    g.detail = chosen->detail;
    if (seen.size() > 1 && agree) {
      nlohmann::json d = {{"test", name}, {"outcome", outcome_name(chosen->outcome)}, {"files", g.files},
                          {"used", chosen->file->path}};
      if (real.size() < seen.size() && !real.empty()) d["note"] = "skipped in some files; the run's outcome is used";
      report->duplicates.push_back(d);
    } else if (!agree) {
      nlohmann::json recs = nlohmann::json::array();
      std::string summary;
      for (const Seen& s : seen) {
        recs.push_back({{"file", s.file->path}, {"outcome", outcome_name(s.outcome)}, {"detail", s.detail}});
        summary += std::string(summary.empty() ? "" : ", ") + outcome_name(s.outcome) + " in " + s.file->path;
      }
      report->conflicts.push_back({{"test", name}, {"records", recs}});
      g.outcome = Outcome::conflict;
      g.detail = "conflicting outcomes across Test.xml files: " + summary;
    }
    out.emplace(name, std::move(g));
  }
  return out;
}

std::set<std::string> fuzz_seeds(const TestXml& file, const std::vector<std::string>& result_dirs) {
  std::set<std::string> out;
  for (const TestRecord& r : file.tests) {
    std::string suite, task, gate;
    if (!split_gate_test_name(r.name, &suite, &task, &gate) || is_framework(r)) continue;
    if (gate.rfind("correct_", 0) != 0 || (r.status != "passed" && r.status != "failed")) continue;
    for (const std::string& path : result_path_candidates(r.name, file.path, result_dirs)) {
      std::ifstream in(path);
      if (!in) continue;
      nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
      if (j.is_discarded() || !j.is_object()) break;  // scoring names the file
      GateResult g;
      read_gate_result(g, gate, j, path);
      if (g.correct->fuzz_seed) out.insert(std::to_string(*g.correct->fuzz_seed));
      break;
    }
  }
  return out;
}

std::string describe_mixed_fuzz_seeds(const std::vector<TestXml>& files, const std::vector<std::string>& result_dirs) {
  std::map<std::string, std::vector<std::string>> by_seed;  // seed -> files
  for (const TestXml& f : files)
    for (const std::string& s : fuzz_seeds(f, result_dirs)) by_seed[s].push_back(f.path);
  if (by_seed.size() < 2) return "";
  std::string out;
  for (const auto& [seed, paths] : by_seed) {
    out += std::string(out.empty() ? "" : "; ") + "fuzz seed " + seed + " in ";
    for (size_t i = 0; i < paths.size(); ++i) out += (i ? ", " : "") + paths[i];
  }
  return out;
}

}  // namespace arena::score
