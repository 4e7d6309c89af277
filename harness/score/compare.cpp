#include "compare.h"
#include "format.h"
#include "result_schema.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

using json = nlohmann::json;

namespace arena::score {

namespace {

constexpr double kZ = 1.959963984540054;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double get(const json& j, const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : kNaN; }

// Log-space standard error from a 95 % interval (the wider side, for asymmetric intervals).
double log_se(const json& t) {
  double s = get(t, "speedup"), lo = get(t, "ci95_low"), hi = get(t, "ci95_high");
  if (!(s > 0 && lo > 0 && hi > 0)) return kNaN;
  return std::max(std::log(hi / s), std::log(s / lo)) / kZ;
}

std::string state(const json& t) {
  if (!t.value("judged", true)) return "unjudged";
  if (t.value("correct", false)) return "correct";
  return t.value("compiled", false) ? "compiled, not correct" : "not compiled";
}

// A change between two runs, by the perf gate's rule (result_schema.h): FASTER is better,
// SLOWER worse, anything else (the same, or an interval too wide to tell) no detectable change.
std::string change_verdict(double low, double high, double delta) {
  if (!(std::isfinite(low) && std::isfinite(high))) return "no detectable change";
  switch (arena::decide(low, high, delta)) {
    case Verdict::Faster: return "better";
    case Verdict::Slower: return "worse";
    default: return "no detectable change";
  }
}

struct Pooled {
  double sum_d = 0, sum_var = 0;
  int n = 0;
  std::map<std::string, int> verdicts;
};

json task_change(const json* a, const json* b, double delta, Pooled& pool) {
  json out;
  out["id"] = a ? (*a)["id"] : (*b)["id"];
  out["suite"] = a ? (*a)["suite"] : (*b)["suite"];
  if (!a || !b) {
    out["verdict"] = "not comparable";
    out["reason"] = a ? "only in A" : "only in B";
    return out;
  }
  json changes = json::array();
  for (const char* k : {"compiled", "correct_seen", "correct_unseen", "correct"}) {
    bool x = a->value(k, false), y = b->value(k, false);
    if (x != y) changes.push_back(std::string(k) + ": " + (x ? "yes" : "no") + " -> " + (y ? "yes" : "no"));
  }
  for (const auto& [side, t] : {std::pair<const char*, const json*>{"a", a}, {"b", b}})
    out[side] = {{"state", state(*t)}, {"speedup", t->value("speedup", json())},
                 {"ci95_low", t->value("ci95_low", json())}, {"ci95_high", t->value("ci95_high", json())},
                 {"verdict", t->value("verdict", json())}};
  out["correctness_changes"] = changes;
  const bool ca = a->value("correct", false), cb = b->value("correct", false);
  const bool ja = a->value("judged", true), jb = b->value("judged", true);
  if (ca && cb) {
    double sa = get(*a, "speedup"), sb = get(*b, "speedup");
    double d = std::log(sb / sa), se = std::sqrt(std::pow(log_se(*a), 2) + std::pow(log_se(*b), 2));
    out["ratio"] = finite_or_null(sb / sa);
    out["ratio_ci95_low"] = finite_or_null(std::exp(d - kZ * se));
    out["ratio_ci95_high"] = finite_or_null(std::exp(d + kZ * se));
    out["verdict"] = change_verdict(std::exp(d - kZ * se), std::exp(d + kZ * se), delta);
    if (!std::isfinite(se)) out["reason"] = "a speedup without an interval: no test possible";
    if (std::isfinite(se)) {
      pool.sum_d += d;
      pool.sum_var += se * se;
      pool.n++;
    }
  } else if (!ja || !jb) {
    out["verdict"] = "not comparable";
    out["reason"] = std::string("not judged in ") + (!ja && !jb ? "either run" : !ja ? "A" : "B");
  } else if (ca != cb) {
    out["verdict"] = cb ? "better" : "worse";
    out["reason"] = cb ? "correct in B only" : "correct in A only";
  } else {
    out["verdict"] = "no detectable change";
    out["reason"] = "correct in neither run";
  }
  pool.verdicts[out["verdict"].get<std::string>()]++;
  return out;
}

json pooled_json(const Pooled& p, double delta) {
  json j = {{"tasks_with_both_speedups", p.n}, {"verdicts", p.verdicts}};
  for (const char* v : {"better", "worse", "no detectable change", "not comparable"})
    if (!j["verdicts"].contains(v)) j["verdicts"][v] = 0;
  if (p.n == 0) {
    j["geomean_ratio"] = nullptr;
    j["verdict"] = "not comparable";
    return j;
  }
  double d = p.sum_d / p.n, se = std::sqrt(p.sum_var) / p.n;
  j["geomean_ratio"] = std::exp(d);
  j["geomean_ratio_ci95_low"] = std::exp(d - kZ * se);
  j["geomean_ratio_ci95_high"] = std::exp(d + kZ * se);
  j["verdict"] = change_verdict(std::exp(d - kZ * se), std::exp(d + kZ * se), delta);
  return j;
}

json metric_deltas(const json& ma, const json& mb) {
  json out = json::object();
  for (const char* k : {"tasks", "compile_rate", "correct_seen_rate", "correct_unseen_rate", "correct_rate",
                        "p_unseen_given_seen", "generalization_gap", "geomean_speedup_correct", "geomean_speedup_all",
                        "aka_score_mean", "unjudged"}) {
    double x = get(ma, k), y = get(mb, k);
    out[k] = {{"a", finite_or_null(x)}, {"b", finite_or_null(y)}, {"change", finite_or_null(y - x)}};
  }
  for (const char* p : {"1.0", "1.5", "2.0"}) {
    double x = ma.contains("fast_p") ? get(ma["fast_p"], p) : kNaN, y = mb.contains("fast_p") ? get(mb["fast_p"], p) : kNaN;
    out[std::string("fast_") + p] = {{"a", finite_or_null(x)}, {"b", finite_or_null(y)}, {"change", finite_or_null(y - x)}};
  }
  return out;
}

}  // namespace

json compare_runs(const json& a, const json& b, double delta) {
  std::map<std::string, const json*> ta, tb;
  std::set<std::string> ids;
  for (const auto& t : a.at("tasks")) ta[t.at("id").get<std::string>()] = &t, ids.insert(t["id"].get<std::string>());
  for (const auto& t : b.at("tasks")) tb[t.at("id").get<std::string>()] = &t, ids.insert(t["id"].get<std::string>());
  Pooled overall;
  std::map<std::string, Pooled> suites;
  json tasks = json::array();
  for (const auto& id : ids) {
    const json* x = ta.count(id) ? ta[id] : nullptr;
    const json* y = tb.count(id) ? tb[id] : nullptr;
    const std::string suite = (x ? *x : *y).value("suite", "");
    Pooled scratch;
    json c = task_change(x, y, delta, scratch);
    for (auto* p : {&overall, &suites[suite]}) {
      p->sum_d += scratch.sum_d;
      p->sum_var += scratch.sum_var;
      p->n += scratch.n;
      for (const auto& [v, n] : scratch.verdicts) p->verdicts[v] += n;
      if (scratch.verdicts.empty()) p->verdicts["not comparable"]++;
    }
    tasks.push_back(c);
  }
  json suite_out = json::object();
  for (const auto& [name, p] : suites) {
    json j = pooled_json(p, delta);
    const json ma = a.value("suites", json::object()).value(name, json::object());
    const json mb = b.value("suites", json::object()).value(name, json::object());
    j["metrics"] = metric_deltas(ma, mb);
    suite_out[name] = j;
  }
  json over = pooled_json(overall, delta);
  over["metrics"] = metric_deltas(a.value("overall", json::object()), b.value("overall", json::object()));
  return {{"schema", 1},
          {"tool", "arena-score compare"},
          {"a", {{"run", a.value("run", "")}, {"created", a.value("created", "")}}},
          {"b", {{"run", b.value("run", "")}, {"created", b.value("created", "")}}},
          {"delta", delta},
          {"method",
           "per task: correctness changes decide first; when both runs are correct, ratio = speedup_B / speedup_A with "
           "a 95 % interval exp(d -/+ 1.96 sqrt(se_A^2 + se_B^2)), d = ln ratio, se = the wider half-width of each run's "
           "interval in log space / 1.96; better when the interval lies above 1 + delta, worse when below 1 - delta, "
           "else no detectable change. Suites: the same on the mean log ratio over tasks correct in both runs "
           "(standard error sqrt(sum se^2) / n, measurement noise only)."},
          {"tasks", tasks},
          {"suites", suite_out},
          {"overall", over}};
}

}  // namespace arena::score
