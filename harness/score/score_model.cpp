#include "score_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "failure_lines.h"
#include "format.h"
#include "schema_fields.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const char* const kSlowerPrefix = "candidate is slower on ";


// The agent test's own measurements (its record stays outside the gate results).
double measured(const GateResult& g, const std::string& name) {
  auto it = g.record.numbers.find(name);
  return it == g.record.numbers.end() ? kNaN : it->second;
}

// The candidate's failures the perf gate reported: from its result, else its FAILED: lines.
std::vector<std::string> perf_failures(const GateResult& g) {
  std::vector<std::string> out;
  if (g.perf) {
    out = g.perf->failures;
    if (!g.perf->header.error.empty()) out.push_back(g.perf->header.error);
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

double statistic(const std::map<std::string, double>& s, const char* key) {
  auto it = s.find(key);
  return it == s.end() ? kNaN : it->second;
}

void read_perf(const GateResult& g, TaskScore& t) {
  t.fraction_of_peak = kNaN;
  if (!g.perf || !g.perf->report) return;  // no numbers without a result file
  const PerfReport& r = *g.perf->report;
  t.speedup = r.speedup.speedup;
  t.ci_low = r.speedup.ci95_low;
  t.ci_high = r.speedup.ci95_high;
  t.verdict = verdict_name(r.speedup.verdict);
  t.reference = r.baseline_name;
  for (const auto& [name, x] : r.speedup_vs) t.speedup_vs[name] = {x.speedup, x.ci95_low, x.ci95_high};
  if (g.perf->device) t.device = g.perf->device->name;
  for (const PerfConfig& c : r.configs) {
    ConfigScore cs{c.label, c.params, "", kNaN, kNaN, kNaN, {}};
    if (c.error.empty()) {
      cs.verdict = verdict_name(c.speedup.verdict);
      cs.speedup = c.speedup.speedup;
      cs.ci_low = c.speedup.ci95_low;
      cs.ci_high = c.speedup.ci95_high;
      cs.statistics = c.statistics;
    }
    t.configs.push_back(cs);
  }
  for (const auto& c : t.configs) {
    const double f = statistic(c.statistics, kFractionOfPeak);
    if (std::isfinite(f)) t.fraction_of_peak = std::isfinite(t.fraction_of_peak) ? std::min(t.fraction_of_peak, f) : f;
  }
}

GateView view_of(const GateResult& g) {
  GateView v;
  v.outcome = g.outcome;
  v.time_s = g.outcome != Outcome::missing ? g.record.execution_time : -1;
  v.detail = g.detail;
  v.result_path = g.result_path;
  v.result_problem = g.result_problem;
  v.files = g.files;
  if (g.outcome == Outcome::conflict || !g.correct) return v;  // the records disagree, or no counts to show
  const CorrectResult& c = *g.correct;
  if (c.passed_configs) v.numbers["configs_passed"] = *c.passed_configs;
  if (c.total_configs) v.numbers["configs_total"] = *c.total_configs;
  for (const auto& [k, x] : {std::pair<const char*, double>{"max_abs_err", c.max_abs_err},
                             {"max_rel_err", c.max_rel_err},
                             {"seconds", c.seconds}})
    if (std::isfinite(x)) v.numbers[k] = x;
  return v;
}

// The first lines saying why a gate did not pass.
std::vector<std::string> gate_errors(const std::string& gate, const GateResult& g) {
  std::vector<std::string> lines;
  if (g.outcome == Outcome::timeout || g.outcome == Outcome::crashed || g.outcome == Outcome::conflict)
    lines.push_back(g.detail);
  if (g.outcome == Outcome::conflict) return {gate + ": " + g.detail};
  if (gate == "compile") {
    for (const auto& l : failure_lines(g.record.output, 2))
      if (l.find("the compiler output is above") == std::string::npos &&
          l.find("the compiler's output follows") == std::string::npos)
        lines.push_back(l);
    if (g.compile && !g.compile->message.empty()) {
      // The tool prints its message too ("FAILED: <what>: <message>"): said once.
      const std::string m = one_line(g.compile->message);
      if (std::none_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(m) != std::string::npos; }))
        lines.push_back(m);
    }
  } else if ((gate == "correct_seen" || gate == "correct_unseen") && g.correct) {
    if (!g.correct->header.error.empty()) lines.push_back(one_line(g.correct->header.error));
    for (const CorrectConfig& c : g.correct->configs) {
      if (c.passed || lines.size() >= 3) continue;
      std::string first = c.problems.empty() ? "failed" : c.problems[0];
      // arena-correct's problems already say "... on <label> (<params>), trial t, launch l"
      lines.push_back(one_line(first.find(c.label) != std::string::npos ? first
                               : c.label + (c.params.empty() ? "" : " (" + c.params + ")") + ": " + first));
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

double aka_points(bool compiled, bool correct, double speedup) {
  if (!compiled) return 0;
  if (!correct) return 20;
  return 120 + 100 * speedup;
}

namespace {

// Every gate's view (agent and profile only when they ran), and the profile's bottleneck classes.
void read_gate_views(const std::map<std::string, const GateResult*>& gates, const GateResult& profile,
                     TaskScore& t) {
  for (const auto& name : kGates)
    if (gates.count(name) && gates.at(name)) t.gates[name] = view_of(*gates.at(name));
    else if (name != "agent" && name != "profile") t.gates[name] = GateView{};
  if (gates.count("profile") && gates.at("profile") && profile.profile) {
    for (const auto& [side, p] : profile.profile->sides) t.bottleneck[side] = p.bottleneck;
    if (!t.bottleneck.empty()) {
      std::string line = "profile:";
      for (const auto& [side, cls] : t.bottleneck) line += " " + side + " " + cls + ";";
      line.pop_back();
      t.notes.push_back(line);
    }
  }
}

// How the agent ended, and how long it took; a note when it did not finish.
void read_agent(const std::map<std::string, const GateResult*>& gates, const GateResult& a, TaskScore& t) {
  t.agent_seconds = kNaN;
  if (!gates.count("agent") || !gates.at("agent")) return;
  // The step passes whenever the runner worked; how the agent itself ended is in its result.
  t.agent = a.outcome == Outcome::passed && a.agent ? a.agent->agent_status : outcome_name(a.outcome);
  if (a.agent) t.agent_seconds = a.agent->seconds;  // without its result the notes say why
  if (t.agent != "passed" && t.agent != "finished") {
    char secs[48] = "";
    if (std::isfinite(t.agent_seconds)) std::snprintf(secs, sizeof secs, " after %.0f s", t.agent_seconds);
    t.notes.push_back("agent: " + t.agent + secs + "; the gates judged what it left");
  }
}

// A perf gate that failed only on confirmed slowdowns still measured a speedup that counts.
bool perf_speedup_counts(const GateResult& perf, double speedup) {
  if (!std::isfinite(speedup) || speedup <= 0) return false;
  if (perf.outcome == Outcome::passed) return true;
  if (perf.outcome != Outcome::failed) return false;
  auto f = perf_failures(perf);
  return !f.empty() && std::all_of(f.begin(), f.end(), [](const std::string& s) {
    return s.rfind(kSlowerPrefix, 0) == 0;
  });
}

// compiled, correct on seen and unseen configurations, the perf gate's numbers and correct overall.
void read_verdicts(const GateResult& compile, const GateResult& seen, const GateResult& unseen,
                   const GateResult& perf, TaskScore& t) {
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
  t.perf_valid = perf_speedup_counts(perf, t.speedup);
  t.correct = t.correct_seen && t.correct_unseen && t.perf_valid;
}

// Is the outcome settled, or did a skipped or absent gate leave it open? (judged, unjudged_reason)
void settle_judged(const GateResult& compile, const GateResult& seen, const GateResult& unseen,
                   const GateResult& perf, TaskScore& t) {
  auto open = [&](const char* name, const GateResult& g) {
    t.judged = false;
    t.unjudged_reason = std::string(name) + " " + outcome_name(g.outcome);
  };
  // A correctness gate whose own allocations ran out of device memory (result status "error",
  // error "out of device memory ...") judged nothing: the task is not judged, and not correct.
  auto out_of_memory = [](const GateResult& g) {
    return g.outcome == Outcome::failed && g.correct && is_out_of_device_memory(g.correct->header);
  };
  const bool seen_wrong = is_failure(seen.outcome) && !out_of_memory(seen);
  const bool unseen_wrong = is_failure(unseen.outcome) && !out_of_memory(unseen);
  if (is_failure(compile.outcome)) {  // settled: not compiled
  } else if (!t.compiled) {
    open("compile", compile);
  } else if (seen_wrong || unseen_wrong) {  // settled: not correct
  } else if (out_of_memory(seen) || out_of_memory(unseen)) {
    const GateResult& g = out_of_memory(seen) ? seen : unseen;
    t.judged = false;
    t.unjudged_reason = std::string(&g == &seen ? "correct_seen" : "correct_unseen") + " " + g.correct->header.error;
  } else if (is_unknown(seen.outcome)) {
    open("correct_seen", seen);
  } else if (is_unknown(unseen.outcome)) {
    open("correct_unseen", unseen);
  } else if (is_failure(perf.outcome) && !t.perf_valid) {  // settled: perf found it wrong or broke
  } else if (is_unknown(perf.outcome)) {
    open("perf", perf);
  } else if (!t.perf_valid) {
    t.judged = false;
    t.unjudged_reason = "perf passed but recorded no speedup (no result file with one)";
  }
}

std::string join_commas(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Errors: the first lines of each gate that did not pass; not-run and skipped gates in one line each.
void collect_errors(const std::map<std::string, const GateResult*>& gates, const GateResult& perf, TaskScore& t) {
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
  if (!not_run.empty()) t.errors.push_back(join_commas(not_run) + ": not run (" + one_line(not_run_why) + ")");
  if (skipped_why.rfind("SKIPPED: ", 0) == 0) skipped_why = skipped_why.substr(9);
  if (!skipped.empty()) {
    t.skip_reason = one_line(skipped_why);
    t.notes.push_back(join_commas(skipped) + ": skipped (" + t.skip_reason + ")");
  }
  if (perf.outcome == Outcome::passed && !std::isfinite(t.speedup))
    t.errors.push_back("perf: passed but no speedup was recorded (no result file with one)");
}

}  // namespace

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
  read_gate_views(gates, gate("profile"), t);
  read_agent(gates, gate("agent"), t);
  const GateResult &compile = gate("compile"), &seen = gate("correct_seen"), &unseen = gate("correct_unseen"),
                   &perf = gate("perf");
  read_verdicts(compile, seen, unseen, perf, t);
  settle_judged(compile, seen, unseen, perf, t);
  t.aka_score = aka_points(t.compiled, t.correct, t.speedup);
  collect_errors(gates, perf, t);
  return t;
}

namespace {
// A speedup and its 95 % interval, each null where unknown.
void put_interval(json& j, double speedup, double ci_low, double ci_high) {
  j[key::speedup] = finite_or_null(speedup);
  j[key::ci95_low] = finite_or_null(ci_low);
  j[key::ci95_high] = finite_or_null(ci_high);
}
}  // namespace

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
  for (const auto& c : t.configs) {
    json cj = {{"label", c.label}, {"params", c.params}, {key::verdict, c.verdict}};
    put_interval(cj, c.speedup, c.ci_low, c.ci_high);
    for (const ConfigStatistic& s : config_statistics()) cj[s.key] = finite_or_null(statistic(c.statistics, s.key));
    configs.push_back(cj);
  }
  json speedup_vs = json::object();
  for (const auto& [name, x] : t.speedup_vs) put_interval(speedup_vs[name], x.speedup, x.ci_low, x.ci_high);

  // What is unknown is null: a number that is not finite, an empty string, an unjudged task's points.
  json j = json::object();
  auto as_is = [&](const char* key, const auto& v) { j[key] = v; };
  auto number = [&](const char* key, double v) { j[key] = finite_or_null(v); };
  auto text = [&](const char* key, const std::string& v) { j[key] = v.empty() ? json(nullptr) : json(v); };
  ARENA_EACH_FIELD(as_is, t, id, suite, task, agent, compiled, correct_seen, correct_unseen, perf_valid, correct,
                   judged, candidate_fallback, reference, bottleneck, errors, notes);
  ARENA_EACH_FIELD(number, t, agent_seconds, fraction_of_peak);
  ARENA_EACH_FIELD(text, t, verdict, device);
  put_interval(j, t.speedup, t.ci_low, t.ci_high);
  j["aka_score"] = t.judged ? json(t.aka_score) : json(nullptr);
  j["speedup_vs"] = speedup_vs;
  j["gates"] = gates;
  j["configs"] = configs;
  if (!t.judged) j["unjudged_reason"] = t.unjudged_reason;
  return j;
}

}  // namespace arena::score
