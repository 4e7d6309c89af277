#include "metrics.h"
#include "format.h"
#include "schema_fields.h"

#include <cmath>
#include <cstdio>
#include <limits>

using json = nlohmann::json;

namespace arena::score {

const std::vector<double> kFastP = {1.0, 1.5, 2.0};

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double fast_p_point(const std::vector<const TaskScore*>& tasks, double p) {
  if (tasks.empty()) return 0;
  int n = 0;
  for (const TaskScore* t : tasks) n += t->correct && t->speedup > p;
  return static_cast<double>(n) / tasks.size();
}

Metrics compute_metrics(const std::vector<const TaskScore*>& tasks) {
  Metrics m;
  m.tasks = static_cast<int>(tasks.size());
  double log_sum_correct = 0, log_sum_all = 0;
  std::vector<int> fast(kFastP.size(), 0);
  double aka_sum = 0;
  for (const TaskScore* t : tasks) {
    m.judged += t->judged;
    m.gpu_judged += t->gpu_judged;
    if (t->judged) aka_sum += t->aka_score;
    m.compiled += t->compiled;
    m.correct_seen += t->correct_seen;
    m.correct_unseen += t->correct_unseen;
    m.correct_both += t->correct_seen && t->correct_unseen;
    for (const auto& [name, g] : t->gates) {
      m.skipped_gates += g.outcome == Outcome::skipped;
      m.failed_gates += g.outcome == Outcome::failed;
      m.timeouts += g.outcome == Outcome::timeout;
      m.crashes += g.outcome == Outcome::crashed;
      m.not_run_gates += g.outcome == Outcome::not_run;
      m.conflicts += g.outcome == Outcome::conflict;
    }
    if (t->correct) {
      m.correct++;
      m.faster += t->verdict == "FASTER";
      log_sum_correct += std::log(t->speedup);
      log_sum_all += std::log(t->speedup);
      for (const auto& [name, x] : t->speedup_vs)
        if (std::isfinite(x.speedup) && x.speedup > 0) {
          auto& [log_sum, count] = m.geomean_speedup_vs[name];
          log_sum += std::log(x.speedup);
          ++count;
        }
      for (size_t i = 0; i < kFastP.size(); ++i)
        fast[i] += kFastP[i] == 1.0 ? t->verdict == "FASTER" && t->speedup > 1.0 : t->speedup > kFastP[i];
    }
  }
  m.unjudged = m.tasks - m.judged;
  const double n = m.tasks;
  m.p_unseen_given_seen = m.correct_seen ? static_cast<double>(m.correct_both) / m.correct_seen : kNaN;
  m.geomean_speedup_correct = m.correct ? std::exp(log_sum_correct / m.correct) : kNaN;
  m.geomean_speedup_all = m.judged ? std::exp(log_sum_all / m.judged) : kNaN;
  for (auto& [name, x] : m.geomean_speedup_vs) x.first = std::exp(x.first / x.second);
  if (m.tasks) {
    m.compile_rate = m.compiled / n;
    m.correct_seen_rate = m.correct_seen / n;
    m.correct_unseen_rate = m.correct_unseen / n;
    m.correct_rate = m.correct / n;
    m.generalization_gap = m.correct_seen_rate - m.correct_unseen_rate;
  }
  m.aka_score_mean = m.judged ? aka_sum / m.judged : kNaN;
  for (size_t i = 0; i < kFastP.size(); ++i) m.fast_p.push_back(m.tasks ? fast[i] / n : 0.0);
  // Only compilation was judged: no rate or speedup to show. The points stay: a task that did not
  // compile is judged (0 points) with or without a GPU, so the mean is over those (null when none).
  if (m.gpu_judged == 0) {
    for (double* x : {&m.correct_seen_rate, &m.correct_unseen_rate, &m.correct_rate, &m.p_unseen_given_seen,
                      &m.generalization_gap, &m.geomean_speedup_correct, &m.geomean_speedup_all})
      *x = kNaN;
    for (auto& f : m.fast_p) f = kNaN;
  }
  return m;
}

json metrics_to_json(const Metrics& m) {
  json vs = json::object();
  for (const auto& [name, x] : m.geomean_speedup_vs) vs[name] = {{"geomean", finite_or_null(x.first)}, {"tasks", x.second}};
  json fast = json::object();
  for (size_t i = 0; i < kFastP.size(); ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "%.1f", kFastP[i]);
    fast[key] = finite_or_null(m.fast_p[i]);
  }
  // Counts as they are; rates, speedups and points as numbers, or null where not a number.
  json j = json::object();
  auto count = [&](const char* key, int v) { j[key] = v; };
  auto number = [&](const char* key, double v) { j[key] = finite_or_null(v); };
  ARENA_EACH_FIELD(count, m, tasks, judged, unjudged, gpu_judged, skipped_gates, compiled, correct_seen,
                   correct_unseen, correct, faster, failed_gates, timeouts, crashes, not_run_gates, conflicts);
  count("correct_seen_and_unseen", m.correct_both);
  ARENA_EACH_FIELD(number, m, compile_rate, correct_seen_rate, correct_unseen_rate, correct_rate, p_unseen_given_seen,
                   generalization_gap, geomean_speedup_correct, geomean_speedup_all, aka_score_mean);
  j["fast_p"] = fast;
  j["geomean_speedup_vs"] = vs;
  return j;
}

}  // namespace arena::score
