#include "stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

namespace arena {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void require_nonempty(const std::vector<double>& v, const char* what) {
  if (v.empty()) throw std::invalid_argument(std::string(what) + ": empty sample");
}

// The median of one round, checked: a ratio of medians needs both to be positive.
double checked_round_median(const std::vector<double>& samples, const char* which, size_t round) {
  const std::string where = std::string("estimate_speedup: round ") + std::to_string(round) +
                            " of " + which;
  if (samples.empty()) throw std::invalid_argument(where + " has no samples");
  const double m = median(samples);
  if (!(m > 0) || !std::isfinite(m))
    throw std::invalid_argument(where + " has median time " + std::to_string(m) +
                                " ms; timings must be positive and finite");
  return m;
}

// Means of `resamples` bootstrap resamples (with replacement) of `values`.
std::vector<double> bootstrap_means(const std::vector<double>& values, uint64_t seed,
                                    int resamples) {
  std::mt19937_64 rng(seed);
  const uint64_t k = values.size();
  std::vector<double> means(static_cast<size_t>(resamples));
  for (double& m : means) {
    double sum = 0;
    // Plain modulo rather than uniform_int_distribution, whose algorithm differs between
    // standard libraries; the bias is about k / 2^64.
    for (uint64_t i = 0; i < k; ++i) sum += values[rng() % k];
    m = sum / static_cast<double>(k);
  }
  return means;
}

SpeedupEstimate insufficient_estimate(int rounds, int units) {
  SpeedupEstimate e;
  e.rounds = rounds;
  e.units = units;
  e.ci_low = e.t_low = e.boot_low = 0;
  e.ci_high = e.t_high = e.boot_high = kInf;
  e.log_half_width = kInf;
  e.ci_method = "insufficient";
  return e;
}

bool is_insufficient(const SpeedupEstimate& e) {
  return e.units < 2 || e.ci_method == "insufficient" || !std::isfinite(e.log_half_width);
}

}  // namespace

double sorted_quantile(const std::vector<double>& sorted, double p) {
  const double h = (static_cast<double>(sorted.size()) - 1.0) * p;
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double mean_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sample_stdev(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double m = mean_of(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

double median(std::vector<double> v) { return quantile(std::move(v), 0.5); }

double quantile(std::vector<double> v, double p) {
  require_nonempty(v, "quantile");
  if (!(p >= 0 && p <= 1)) throw std::invalid_argument("quantile: p must lie in [0, 1]");
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, p);
}

double student_t_975(int dof) {
  // t_{0.975}(dof) for dof = 1..30.
  static const double table[] = {
      12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
      2.364624252,  2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
      2.160368656,  2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
      2.093024054,  2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
      2.059538553,  2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456};
  if (dof < 1) throw std::invalid_argument("student_t_975: dof must be at least 1");
  if (dof <= 30) return table[dof - 1];
  // Cornish-Fisher expansion of the t quantile in powers of 1/dof (Abramowitz & Stegun 26.7.5).
  const double z = 1.959963984540054;  // normal 0.975 quantile
  const double z2 = z * z, v = dof;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

SpeedupEstimate estimate_speedup(const std::vector<std::vector<double>>& a_rounds,
                                 const std::vector<std::vector<double>>& b_rounds,
                                 uint64_t bootstrap_seed, int bootstrap_resamples, RoundLayout layout) {
  if (a_rounds.size() != b_rounds.size())
    throw std::invalid_argument("estimate_speedup: " + std::to_string(a_rounds.size()) +
                                " rounds of A but " + std::to_string(b_rounds.size()) +
                                " rounds of B");
  if (bootstrap_resamples < 1)
    throw std::invalid_argument("estimate_speedup: bootstrap_resamples must be at least 1");

  std::vector<double> per_round;
  for (size_t j = 0; j < a_rounds.size(); ++j)
    per_round.push_back(std::log(checked_round_median(a_rounds[j], "A", j) /
                                 checked_round_median(b_rounds[j], "B", j)));
  std::vector<double> log_ratios;  // one per unit
  if (layout == RoundLayout::AlternatingSets) {
    for (size_t j = 0; j + 1 < per_round.size(); j += 2) log_ratios.push_back((per_round[j] + per_round[j + 1]) / 2);
  } else {
    log_ratios = per_round;
  }
  const int k = static_cast<int>(log_ratios.size());

  SpeedupEstimate e = insufficient_estimate(static_cast<int>(per_round.size()), k);
  const double mean_log = k ? mean_of(log_ratios) : kNaN;
  e.speedup = std::exp(mean_log);
  e.speedup_median_of_rounds = k ? std::exp(median(log_ratios)) : kNaN;
  if (k < 2) return e;

  const double t_half = student_t_975(k - 1) * sample_stdev(log_ratios) / std::sqrt(double(k));
  e.t_low = std::exp(mean_log - t_half);
  e.t_high = std::exp(mean_log + t_half);

  std::vector<double> means = bootstrap_means(log_ratios, bootstrap_seed, bootstrap_resamples);
  std::sort(means.begin(), means.end());
  const double boot_low_log = sorted_quantile(means, 0.025);
  const double boot_high_log = sorted_quantile(means, 0.975);
  e.boot_low = std::exp(boot_low_log);
  e.boot_high = std::exp(boot_high_log);

  // Take the wider: the t interval assumes normal log ratios, the percentile bootstrap does not
  // but is too narrow for few rounds; neither should make the verdict overconfident.
  const double boot_half = (boot_high_log - boot_low_log) / 2;
  if (boot_half > t_half) {
    e.ci_low = e.boot_low, e.ci_high = e.boot_high;
    e.log_half_width = boot_half;
    e.ci_method = "bootstrap";
  } else {
    e.ci_low = e.t_low, e.ci_high = e.t_high;
    e.log_half_width = t_half;
    e.ci_method = "t";
  }
  e.stat_se = e.log_half_width / student_t_975(k - 1);
  return e;
}

SpeedupEstimate with_process_spread(SpeedupEstimate e, double process_sd) {
  if (!(process_sd >= 0) || !std::isfinite(process_sd))
    throw std::invalid_argument("with_process_spread: the process spread must be finite and not negative, not " +
                                std::to_string(process_sd));
  if (process_sd == 0 || is_insufficient(e)) return e;
  const int dof = e.units - 1;
  const double stat_var = e.stat_se * e.stat_se;
  const double se = std::sqrt(stat_var + process_sd * process_sd);
  const double eff_dof = stat_var > 0 ? se * se * se * se / (stat_var * stat_var / dof) : 1e9;
  const int eff_int = static_cast<int>(std::clamp(std::floor(eff_dof + 1e-6), 1.0, 1e9));
  const double half = student_t_975(eff_int) * se;
  const double mean_log = std::log(e.speedup);
  e.ci_low = std::exp(mean_log - half);
  e.ci_high = std::exp(mean_log + half);
  e.log_half_width = half;
  e.process_sd = process_sd;
  return e;
}

SpeedupEstimate combine(const std::vector<SpeedupEstimate>& per_config) {
  if (per_config.empty()) throw std::invalid_argument("combine: no estimates to combine");
  const double k = static_cast<double>(per_config.size());
  double sum_log = 0, sum_log_median = 0, var_sum = 0, ws_denominator = 0, process_sd = 0;
  int min_rounds = std::numeric_limits<int>::max(), min_units = min_rounds;
  bool insufficient = false;
  for (const SpeedupEstimate& e : per_config) {
    sum_log += std::log(e.speedup);
    sum_log_median += std::log(e.speedup_median_of_rounds);
    min_rounds = std::min(min_rounds, e.rounds);
    min_units = std::min(min_units, e.units);
    if (is_insufficient(e)) {
      insufficient = true;
      continue;
    }
    const int dof = e.units - 1;
    const double se = e.stat_se;
    var_sum += se * se;
    ws_denominator += se * se * se * se / dof;
    process_sd = std::max(process_sd, e.process_sd);
  }

  SpeedupEstimate c = insufficient_estimate(min_rounds, min_units);
  c.speedup = std::exp(sum_log / k);
  c.speedup_median_of_rounds = std::exp(sum_log_median / k);
  if (insufficient) return c;

  // Welch-Satterthwaite degrees of freedom of the summed variances; the process term's are
  // infinite, so it adds to the numerator only.
  const double var = var_sum / (k * k) + process_sd * process_sd;
  const double dof = ws_denominator > 0 ? var * var / (ws_denominator / (k * k * k * k)) : 1e9;
  // Rounded down (conservative), with slack so that 8.999999... from rounding counts as 9.
  const int dof_int = static_cast<int>(std::clamp(std::floor(dof + 1e-6), 1.0, 1e9));
  const double half = student_t_975(dof_int) * std::sqrt(var);
  const double mean_log = sum_log / k;
  c.ci_low = c.t_low = std::exp(mean_log - half);
  c.ci_high = c.t_high = std::exp(mean_log + half);
  c.boot_low = c.boot_high = kNaN;
  c.log_half_width = half;
  c.stat_se = std::sqrt(var_sum) / k;
  c.process_sd = process_sd;
  c.ci_method = "t";
  return c;
}

bool ci_is_tight(double log_half_width, double target) { return log_half_width < target; }

bool ci_has_plateaued(const std::vector<double>& half_width_history) {
  constexpr size_t kWindow = 6;  // 5 rounds of change
  if (half_width_history.size() < kWindow) return false;
  const auto first = half_width_history.end() - kWindow;
  const auto [lo, hi] = std::minmax_element(first, half_width_history.end());
  if (!(*lo > 0) || !std::isfinite(*hi)) return false;
  return *hi - *lo < 0.05 * *lo;
}

}  // namespace arena
