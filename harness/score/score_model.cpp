#include "score_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "failure_lines.h"
#include "format.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const char* const kSlowerPrefix = "candidate is slower on ";


bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

double measured(const GateResult& g, const std::string& name) {
  auto it = g.record.numbers.find(name);
  return it == g.record.numbers.end() ? kNaN : it->second;
}

// The candidate's failures the perf gate reported: from its JSON, else its FAILED: lines.
std::vector<std::string> perf_failures(const GateResult& g) {
  std::vector<std::string> out;
  if (g.result.is_object() && g.result.contains("failures") && g.result["failures"].is_array()) {
    for (const auto& f : g.result["failures"])
      if (f.is_string()) out.push_back(f.get<std::string>());
    if (g.result.contains("error") && g.result["error"].is_string()) out.push_back(g.result["error"].get<std::string>());
    return out;
  }
  size_t pos = 0;
  const std::string& o = g.record.output;
  while ((pos = o.find("FAILED: ", pos)) != std::string::npos) {
    size_t end = o.find('\n', pos);
    out.push_back(o.substr(pos + 8, end == std::string::npos ? std::string::npos : end - pos - 8));
    pos = end == std::string::npos ? o.size() : end;
  }
  return out;
}

void read_perf(const GateResult& g, TaskScore& t) {
  const json& j = g.result;
  if (j.is_object() && j.contains("speedup")) {
    t.speedup = number_or_nan(j, "speedup");
    t.ci_low = number_or_nan(j, "ci95_low");
    t.ci_high = number_or_nan(j, "ci95_high");
    t.verdict = j.value("verdict", "");
    t.reference = j.value("baseline_name", "baseline");
    if (j.contains("speedup_vs") && j["speedup_vs"].is_object())
      for (const auto& [name, x] : j["speedup_vs"].items())
        t.speedup_vs[name] = {number_or_nan(x, "speedup"), number_or_nan(x, "ci95_low"), number_or_nan(x, "ci95_high")};
    if (j.contains("device") && j["device"].is_object()) t.device = j["device"].value("name", "");
    if (j.contains("configs") && j["configs"].is_array())
      for (const auto& c : j["configs"]) {
        PerfConfig pc{c.value("label", "?"), c.value("params", ""), c.value("verdict", ""),
                      number_or_nan(c, "speedup"), number_or_nan(c, "ci95_low"), number_or_nan(c, "ci95_high"),
                      kNaN, kNaN, kNaN};
        if (c.contains("candidate") && c["candidate"].is_object()) {
          pc.fraction_of_peak = number_or_nan(c["candidate"], "fraction_of_peak");
          pc.candidate_us = number_or_nan(c["candidate"], "median_ms") * 1e3;
        }
        if (c.contains("baseline") && c["baseline"].is_object())
          pc.baseline_us = number_or_nan(c["baseline"], "median_ms") * 1e3;
        t.configs.push_back(pc);
      }
  } else {  // the headline numbers CTest kept from the gate's output
    t.speedup = measured(g, "speedup");
    t.ci_low = measured(g, "ci95_low");
    t.ci_high = measured(g, "ci95_high");
    auto v = g.record.texts.find("verdict");
    if (v != g.record.texts.end()) t.verdict = v->second;
    auto r = g.record.texts.find("baseline_name");
    if (r != g.record.texts.end()) t.reference = r->second;
    const std::string vs = "speedup_vs.";
    for (const auto& [name, value] : g.record.numbers)
      if (name.rfind(vs, 0) == 0 && !ends_with(name, ".ci95_low") && !ends_with(name, ".ci95_high"))
        t.speedup_vs[name.substr(vs.size())] = {value, measured(g, name + ".ci95_low"), measured(g, name + ".ci95_high")};
    const std::string prefix = "speedup.";
    for (const auto& [name, value] : g.record.numbers)
      if (name.rfind(prefix, 0) == 0) {
        const std::string label = name.substr(prefix.size());
        t.configs.push_back({label, "", "", value, kNaN, kNaN, measured(g, "candidate_fraction_of_peak." + label),
                             measured(g, "baseline_median_us." + label), measured(g, "candidate_median_us." + label)});
      }
  }
  t.fraction_of_peak = kNaN;
  for (const auto& c : t.configs)
    if (std::isfinite(c.fraction_of_peak))
      t.fraction_of_peak = std::isfinite(t.fraction_of_peak) ? std::min(t.fraction_of_peak, c.fraction_of_peak)
                                                             : c.fraction_of_peak;
}

GateView view_of(const GateResult& g) {
  GateView v;
  v.outcome = g.outcome;
  v.time_s = g.outcome != Outcome::missing ? g.record.execution_time : -1;
  v.detail = g.detail;
  v.result_path = g.result_path;
  v.result_problem = g.result_problem;
  v.files = g.files;
  if (g.outcome == Outcome::conflict) return v;  // the records disagree: no numbers from either
  for (const char* k : {"configs_passed", "configs_total", "max_abs_err", "max_rel_err", "seconds"}) {
    double x = measured(g, k);
    if (std::isfinite(x)) v.numbers[k] = x;
  }
  if (g.result.is_object()) {  // the result file is authoritative for config counts
    if (g.result.contains("passed_configs")) v.numbers["configs_passed"] = number_or_nan(g.result, "passed_configs");
    if (g.result.contains("total_configs")) v.numbers["configs_total"] = number_or_nan(g.result, "total_configs");
  }
  return v;
}

// The first lines saying why a gate did not pass.
std::vector<std::string> gate_errors(const std::string& gate, const GateResult& g) {
  std::vector<std::string> lines;
  const json& j = g.result;
  if (g.outcome == Outcome::timeout || g.outcome == Outcome::crashed || g.outcome == Outcome::conflict)
    lines.push_back(g.detail);
  if (g.outcome == Outcome::conflict) return {gate + ": " + g.detail};
  if (gate == "compile") {
    for (const auto& l : failure_lines(g.record.output, 2))
      if (l.find("the compiler output is above") == std::string::npos &&
          l.find("the compiler's output follows") == std::string::npos)
        lines.push_back(l);
    if (j.is_object() && j.contains("message") && j["message"].is_string()) {
      std::string m = one_line(j["message"].get<std::string>());
      if (std::find(lines.begin(), lines.end(), m) == lines.end()) lines.push_back(m);
    }
  } else if ((gate == "correct_seen" || gate == "correct_unseen") && j.is_object() &&
             (j.contains("configs") || j.contains("error"))) {
    if (j.contains("error") && j["error"].is_string()) lines.push_back(one_line(j["error"].get<std::string>()));
    if (j.contains("configs") && j["configs"].is_array())
      for (const auto& c : j["configs"]) {
        if (c.value("passed", true) || lines.size() >= 3) continue;
        std::string first = c.contains("problems") && c["problems"].is_array() && !c["problems"].empty() &&
                                    c["problems"][0].is_string()
                                ? c["problems"][0].get<std::string>()
                                : "failed";
        const std::string label = c.value("label", "?");
        // arena-correct's problems already say "... on <label> (<params>), trial t, launch l"
        lines.push_back(one_line(first.find(label) != std::string::npos ? first
                                 : label + (c.contains("params") ? " (" + c.value("params", "") + ")" : "") + ": " + first));
      }
  } else if (gate == "perf") {
    for (const auto& f : perf_failures(g))
      if (lines.size() < 3) lines.push_back(one_line(f));
  }
  if (lines.empty() || (lines.size() == 1 && g.outcome != Outcome::failed))  // timeout, crash: what it printed last
    for (const auto& l : failure_lines(g.record.output, lines.empty() ? 2 : 1))
      if (std::find(lines.begin(), lines.end(), l) == lines.end()) lines.push_back(l);
  if (lines.empty()) lines.push_back(g.detail.empty() ? std::string(outcome_name(g.outcome)) : g.detail);
  if (!g.record.output_note.empty()) lines.push_back("(" + g.record.output_note + ")");
  if (lines.size() > 3) lines.resize(3);
  for (auto& l : lines) l = gate + ": " + l;
  return lines;
}

}  // namespace

double number_or_nan(const json& j, const char* key) {
  if (!j.is_object()) return kNaN;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : kNaN;
}

double aka_points(bool compiled, bool correct, double speedup) {
  if (!compiled) return 0;
  if (!correct) return 20;
  return 120 + 100 * speedup;
}

TaskScore score_task(const std::string& suite, const std::string& task,
                     const std::map<std::string, const GateResult*>& gates) {
  TaskScore t;
  t.suite = suite;
  t.task = task;
  t.id = suite + "/" + task;
  t.speedup = t.ci_low = t.ci_high = t.fraction_of_peak = kNaN;
  static const GateResult kMissing;
  auto gate = [&](const std::string& name) -> const GateResult& {
    auto it = gates.find(name);
    return it == gates.end() || !it->second ? kMissing : *it->second;
  };
  for (const auto& name : kGates)
    if (gates.count(name) && gates.at(name)) t.gates[name] = view_of(*gates.at(name));
    else if (name != "agent" && name != "profile") t.gates[name] = GateView{};
  if (gates.count("profile") && gates.at("profile")) {
    const std::string prefix = "bottleneck.";
    for (const auto& [k, v] : gate("profile").record.texts)
      if (k.rfind(prefix, 0) == 0) t.bottleneck[k.substr(prefix.size())] = v;
    if (!t.bottleneck.empty()) {
      std::string line = "profile:";
      for (const auto& [side, cls] : t.bottleneck) line += " " + side + " " + cls + ";";
      line.pop_back();
      t.notes.push_back(line);
    }
  }
  t.agent_seconds = kNaN;
  if (gates.count("agent") && gates.at("agent")) {
    const GateResult& a = gate("agent");
    auto status = a.record.texts.find("agent_status");
    t.agent = a.outcome == Outcome::passed && status != a.record.texts.end() ? status->second : outcome_name(a.outcome);
    t.agent_seconds = measured(a, "agent_seconds");
    if (t.agent != "passed" && t.agent != "finished") {
      char secs[48] = "";
      if (std::isfinite(t.agent_seconds)) std::snprintf(secs, sizeof secs, " after %.0f s", t.agent_seconds);
      t.notes.push_back("agent: " + t.agent + secs + "; the gates judged what it left");
    }
  }

  const GateResult &compile = gate("compile"), &seen = gate("correct_seen"), &unseen = gate("correct_unseen"),
                   &perf = gate("perf");
  t.compiled = compile.outcome == Outcome::passed;
  for (const auto& l : compile.record.labels) t.candidate_fallback |= l == "candidate_fallback";
  if (t.candidate_fallback)
    t.notes.push_back("candidate: none in the candidate folder; its baseline was judged (ARENA_CANDIDATE_FALLBACK)");
  for (const GateResult* g : {&seen, &unseen, &perf})
    t.gpu_judged |= g->outcome != Outcome::skipped && g->outcome != Outcome::missing && g->outcome != Outcome::not_run;
  t.correct_seen = seen.outcome == Outcome::passed;
  t.correct_unseen = unseen.outcome == Outcome::passed;
  if (compile.outcome == Outcome::missing && (t.correct_seen || t.correct_unseen)) {
    t.compiled = true;  // the correctness gates load the compiled candidate
    t.notes.push_back("compile: not in the Test.xml files; compiled inferred from a passing correctness gate");
  }
  if (perf.outcome == Outcome::passed || perf.outcome == Outcome::failed) read_perf(perf, t);
  if (std::isfinite(t.speedup) && t.speedup > 0) {
    if (perf.outcome == Outcome::passed) {
      t.perf_valid = true;
    } else if (perf.outcome == Outcome::failed) {
      auto f = perf_failures(perf);
      t.perf_valid = !f.empty() && std::all_of(f.begin(), f.end(), [](const std::string& s) {
        return s.rfind(kSlowerPrefix, 0) == 0;
      });
    }
  }
  t.correct = t.correct_seen && t.correct_unseen && t.perf_valid;

  // Is the outcome settled, or did a skipped or absent gate leave it open?
  auto open = [&](const char* name, const GateResult& g) {
    t.judged = false;
    t.unjudged_reason = std::string(name) + " " + outcome_name(g.outcome);
  };
  if (is_failure(compile.outcome)) {  // settled: not compiled
  } else if (!t.compiled) {
    open("compile", compile);
  } else if (is_failure(seen.outcome) || is_failure(unseen.outcome)) {  // settled: not correct
  } else if (is_unknown(seen.outcome)) {
    open("correct_seen", seen);
  } else if (is_unknown(unseen.outcome)) {
    open("correct_unseen", unseen);
  } else if (is_failure(perf.outcome) && !t.perf_valid) {  // settled: perf found it wrong or broke
  } else if (is_unknown(perf.outcome)) {
    open("perf", perf);
  } else if (!t.perf_valid) {
    t.judged = false;
    t.unjudged_reason = "perf passed but recorded no speedup (no result file and no measurements)";
  }
  t.aka_score = aka_points(t.compiled, t.correct, t.speedup);

  // Errors: the first lines of each gate that did not pass; not-run gates in one line.
  std::vector<std::string> not_run, skipped;
  std::string not_run_why, skipped_why;
  for (const std::string& name : {std::string("agent"), std::string("compile"), std::string("correct_seen"),
                                  std::string("correct_unseen"), std::string("perf")}) {
    auto it = gates.find(name);
    if (it == gates.end() || !it->second) {
      if (name != "agent" && !(name == "compile" && t.compiled)) t.notes.push_back(name + ": not in the Test.xml files");
      continue;
    }
    const GateResult& g = *it->second;
    if (g.outcome == Outcome::not_run) {
      not_run.push_back(name);
      if (not_run_why.empty()) not_run_why = g.detail;
    } else if (g.outcome == Outcome::skipped) {
      skipped.push_back(name);
      if (skipped_why.empty()) skipped_why = g.detail;
    } else if (is_failure(g.outcome) && !(name == "perf" && t.perf_valid)) {
      for (auto& l : gate_errors(name, g)) t.errors.push_back(l);
    } else if (name == "perf" && g.outcome == Outcome::failed && t.perf_valid) {
      t.notes.push_back("perf: the gate failed on a confirmed slowdown; the speedup counts");
    }
    if (!g.result_problem.empty()) t.notes.push_back(name + ": " + g.result_problem);
    if (g.files.size() > 1) t.notes.push_back(name + ": recorded in " + std::to_string(g.files.size()) + " Test.xml files");
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (!not_run.empty()) t.errors.push_back(join(not_run) + ": not run (" + one_line(not_run_why) + ")");
  if (skipped_why.rfind("SKIPPED: ", 0) == 0) skipped_why = skipped_why.substr(9);
  if (!skipped.empty()) {
    t.skip_reason = one_line(skipped_why);
    t.notes.push_back(join(skipped) + ": skipped (" + t.skip_reason + ")");
  }
  if (perf.outcome == Outcome::passed && !std::isfinite(t.speedup))
    t.errors.push_back("perf: passed but no speedup was recorded (no result file and no measurements)");
  return t;
}

json task_to_json(const TaskScore& t) {
  json gates = json::object();
  for (const auto& [name, g] : t.gates) {
    json jg = {{"outcome", outcome_name(g.outcome)}};
    if (!g.detail.empty()) jg["detail"] = g.detail;
    if (!g.result_path.empty()) jg["result"] = g.result_path;
    if (!g.result_problem.empty()) jg["result_problem"] = g.result_problem;
    if (!g.files.empty()) jg["files"] = g.files;
    for (const auto& [k, v] : g.numbers) jg[k] = finite_or_null(v);
    if (g.time_s >= 0) jg["time_s"] = g.time_s;
    gates[name] = jg;
  }
  json configs = json::array();
  for (const auto& c : t.configs)
    configs.push_back({{"label", c.label}, {"params", c.params}, {"verdict", c.verdict},
                       {"speedup", finite_or_null(c.speedup)}, {"ci95_low", finite_or_null(c.ci_low)},
                       {"ci95_high", finite_or_null(c.ci_high)}, {"fraction_of_peak", finite_or_null(c.fraction_of_peak)},
                       {"baseline_median_us", finite_or_null(c.baseline_us)},
                       {"candidate_median_us", finite_or_null(c.candidate_us)}});
  json speedup_vs = json::object();
  for (const auto& [name, x] : t.speedup_vs)
    speedup_vs[name] = {{"speedup", finite_or_null(x.speedup)}, {"ci95_low", finite_or_null(x.ci_low)},
                        {"ci95_high", finite_or_null(x.ci_high)}};
  json j = {{"id", t.id},
            {"suite", t.suite},
            {"task", t.task},
            {"agent", t.agent},
            {"agent_seconds", finite_or_null(t.agent_seconds)},
            {"compiled", t.compiled},
            {"correct_seen", t.correct_seen},
            {"correct_unseen", t.correct_unseen},
            {"perf_valid", t.perf_valid},
            {"correct", t.correct},
            {"judged", t.judged},
            {"candidate_fallback", t.candidate_fallback},
            {"speedup", finite_or_null(t.speedup)},
            {"ci95_low", finite_or_null(t.ci_low)},
            {"ci95_high", finite_or_null(t.ci_high)},
            {"verdict", t.verdict.empty() ? json(nullptr) : json(t.verdict)},
            {"reference", t.reference},
            {"speedup_vs", speedup_vs},
            {"fraction_of_peak", finite_or_null(t.fraction_of_peak)},
            {"device", t.device.empty() ? json(nullptr) : json(t.device)},
            {"bottleneck", t.bottleneck},
            {"aka_score", t.judged ? json(t.aka_score) : json(nullptr)},
            {"errors", t.errors},
            {"notes", t.notes},
            {"gates", gates},
            {"configs", configs}};
  if (!t.judged) j["unjudged_reason"] = t.unjudged_reason;
  return j;
}

}  // namespace arena::score
