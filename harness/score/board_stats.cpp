#include "board_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace arena::score {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kZ95 = 1.96;

double log_se(const Interval& x) {
  if (!(x.est > 0) || !(x.low > 0) || !(x.high > 0)) return 0;
  return std::max(std::log(x.high) - std::log(x.est), std::log(x.est) - std::log(x.low)) / kZ95;
}

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
}  // namespace

Interval::Interval() : est(kNaN), low(kNaN), high(kNaN) {}

EntryMetrics::EntryMetrics()
    : compile_rate(kNaN), correct_seen_rate(kNaN), correct_unseen_rate(kNaN), correct_rate(kNaN), faster_rate(kNaN),
      median_peak(kNaN) {}

Interval geomean_interval(const std::vector<Interval>& xs) {
  if (xs.empty()) return {};
  double sum = 0, var = 0;
  for (const auto& x : xs) {
    if (!(x.est > 0)) return {};
    sum += std::log(x.est);
    const double se = log_se(x);
    var += se * se;
  }
  const double n = static_cast<double>(xs.size()), m = sum / n, se = std::sqrt(var) / n;
  return {std::exp(m), std::exp(m - kZ95 * se), std::exp(m + kZ95 * se)};
}

EntryMetrics entry_metrics(const std::vector<const BoardTask*>& tasks) {
  EntryMetrics m;
  std::vector<Interval> correct, all, vs;
  std::vector<double> peaks;
  for (const BoardTask* t : tasks) {
    m.tasks++;
    m.compiled += t->compiled;
    m.correct_seen += t->correct_seen;
    m.correct_unseen += t->correct_unseen;
    m.correct += t->correct;
    m.faster += t->correct && t->verdict == "FASTER";
    m.gpu_judged += t->gpu_judged;
    if (t->correct && t->speedup > 0) correct.push_back({t->speedup, t->ci_low, t->ci_high});
    if (t->gpu_judged) all.push_back(t->correct && t->speedup > 0 ? Interval{t->speedup, t->ci_low, t->ci_high}
                                                                  : Interval{1.0, 1.0, 1.0});
    if (t->correct && t->vs > 0) {
      vs.push_back({t->vs, t->vs_low, t->vs_high});
      m.vs_name = t->vs_name;
    }
    if (std::isfinite(t->fraction_of_peak)) peaks.push_back(t->fraction_of_peak);
  }
  if (m.tasks == 0) return m;
  const double n = m.tasks;
  m.compile_rate = m.compiled / n;
  if (m.gpu_judged > 0) {
    m.correct_seen_rate = m.correct_seen / n;
    m.correct_unseen_rate = m.correct_unseen / n;
    m.correct_rate = m.correct / n;
    m.faster_rate = m.faster / n;
  }
  m.geomean_correct = geomean_interval(correct);
  m.geomean_all = geomean_interval(all);
  m.geomean_vs = geomean_interval(vs);
  m.median_peak = median(peaks);
  return m;
}

std::vector<int> interval_ranks(const std::vector<Interval>& xs) {
  std::vector<int> ranks(xs.size());
  int with_estimate = 0;
  for (const auto& x : xs) with_estimate += std::isfinite(x.est);
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!std::isfinite(xs[i].est)) {
      ranks[i] = with_estimate + 1;
      continue;
    }
    const double high = std::isfinite(xs[i].high) ? xs[i].high : xs[i].est;
    int above = 0;
    for (size_t j = 0; j < xs.size(); ++j) {
      if (j == i || !std::isfinite(xs[j].est)) continue;
      const double low = std::isfinite(xs[j].low) ? xs[j].low : xs[j].est;
      above += low > high;
    }
    ranks[i] = 1 + above;
  }
  return ranks;
}

VarianceShares variance_shares(const std::vector<Observation>& obs) {
  VarianceShares v{kNaN, kNaN, kNaN, static_cast<int>(obs.size())};
  if (obs.size() < 2) return v;
  double mean = 0;
  for (const auto& o : obs) mean += o.y;
  mean /= static_cast<double>(obs.size());
  double total = 0;
  for (const auto& o : obs) total += (o.y - mean) * (o.y - mean);
  if (!(total > 0)) return v;
  auto between = [&](auto level_of) {
    std::map<std::string, std::pair<double, int>> levels;  // level -> (sum, n)
    for (const auto& o : obs) {
      auto& [sum, n] = levels[level_of(o)];
      sum += o.y;
      n++;
    }
    double ss = 0;
    for (const auto& [name, sn] : levels) {
      const double d = sn.first / sn.second - mean;
      ss += sn.second * d * d;
    }
    return ss / total;
  };
  v.category = between([](const Observation& o) { return o.category; });
  v.agent = between([](const Observation& o) { return o.agent; });
  v.residual = std::max(0.0, 1 - v.category - v.agent);
  return v;
}

std::vector<AuditEntry> audit_entries(const std::vector<BoardRun>& runs, const AuditLimits& limits) {
  std::vector<AuditEntry> out;
  char buf[256];
  for (const auto& r : runs)
    for (const auto& [id, t] : r.tasks) {
      auto add = [&](const std::string& kind, const std::string& detail) {
        out.push_back({r.slug, r.run, r.agent, id, kind, detail});
      };
      if (t.correct && t.speedup > limits.speedup) {
        std::snprintf(buf, sizeof buf, "speedup %.2fx [%.2f, %.2f] is above %.3g", t.speedup, t.ci_low, t.ci_high,
                      limits.speedup);
        add("speedup", buf);
      }
      if (std::isfinite(t.fraction_of_peak) && t.fraction_of_peak > limits.peak) {
        std::snprintf(buf, sizeof buf, "%.1f %% of the device's peak (above %.0f %%)", 100 * t.fraction_of_peak,
                      100 * limits.peak);
        add("peak", buf);
      }
      // Relative errors: the perf configurations' magnitudes differ from the correctness gates'.
      auto number = [&](const char* key) {
        return t.context.contains(key) && t.context[key].is_number() ? t.context[key].get<double>() : kNaN;
      };
      const double kept = number("kept_max_rel_err"), seen = number("correct_max_rel_err");
      if (std::isfinite(kept) && std::isfinite(seen) && kept > limits.kept_error_floor &&
          kept > limits.kept_error * seen) {
        std::snprintf(buf, sizeof buf, "kept timed samples' max relative error %.3g is above %.3g x the correctness "
                      "gates' worst (%.3g)", kept, limits.kept_error, seen);
        add("kept samples", buf);
      }
      if (t.context.contains("outside_reads") && t.context["outside_reads"].is_array() &&
          !t.context["outside_reads"].empty()) {
        const auto& lines = t.context["outside_reads"];
        add("outside reads", std::to_string(lines.size()) + " transcript line(s) name paths outside the workspace, "
                             "first: " + lines[0].get<std::string>().substr(0, 160));
      }
    }
  return out;
}

}  // namespace arena::score
