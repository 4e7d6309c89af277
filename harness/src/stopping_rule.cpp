#include "stopping_rule.h"

#include <algorithm>
#include <cmath>

#include "stats.h"

namespace arena {

namespace {

std::vector<double> all_samples(const std::vector<std::vector<double>>& rounds) {
  std::vector<double> all;
  for (const auto& r : rounds) all.insert(all.end(), r.begin(), r.end());
  return all;
}

}  // namespace

double target_half_width(double median_ms) {
  const double us = median_ms * 1e3;
  const double pts[][2] = {{20, 0.02}, {50, 0.0075}, {100, 0.005}};
  if (us <= pts[0][0]) return std::log1p(pts[0][1]);
  for (int i = 1; i < 3; ++i)
    if (us < pts[i][0]) {
      const double f = (us - pts[i - 1][0]) / (pts[i][0] - pts[i - 1][0]);
      return std::log1p(pts[i - 1][1] * (1 - f) + pts[i][1] * f);
    }
  return std::log1p(pts[2][1]);
}

TightOrPlateauRule::TightOrPlateauRule(int min_rounds, uint64_t seed, int resamples)
    : min_rounds_(min_rounds), seed_(seed), resamples_(resamples) {}

std::unique_ptr<StoppingRule> TightOrPlateauRule::fresh() const {
  return std::make_unique<TightOrPlateauRule>(min_rounds_, seed_, resamples_);
}

bool TightOrPlateauRule::done(const RoundsSoFar& r) {
  if (static_cast<int>(r.complete_rounds) < min_rounds_) return false;
  // The rule follows the primary comparison; further references get the same rounds. It reads
  // the rounds' interval alone: the per-process term of the report's does not shrink with rounds.
  SpeedupEstimate e = estimate_speedup(r.baseline, r.candidate, seed_, resamples_, RoundLayout::AlternatingSets);
  half_widths_.push_back(e.log_half_width);
  const double m = std::max(median(all_samples(r.baseline)), median(all_samples(r.candidate)));
  return ci_is_tight(e.log_half_width, target_half_width(m)) || ci_has_plateaued(half_widths_);
}

}  // namespace arena
