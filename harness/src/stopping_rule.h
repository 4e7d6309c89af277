// When the perf engine stops timing a configuration (docs/DESIGN.md, "Performance"). After
// every batch of rounds the engine asks the configuration's rule; a rule may keep history (one
// instance per configuration, made by fresh()). Another rule is one class implementing
// StoppingRule, handed to PerfEngine.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace arena {

// What a rule sees of one configuration after a batch: the samples (milliseconds, one vector
// per round) of the baseline and the candidate, and how many rounds every side (further
// references included) has finished.
struct RoundsSoFar {
  const std::vector<std::vector<double>>& baseline;
  const std::vector<std::vector<double>>& candidate;
  size_t complete_rounds;
};

class StoppingRule {
 public:
  virtual ~StoppingRule() = default;
  // A rule of the same kind and settings with no history, for another configuration.
  virtual std::unique_ptr<StoppingRule> fresh() const = 0;
  // Called once after every batch; true stops the configuration's rounds.
  virtual bool done(const RoundsSoFar& rounds) = 0;
};

// The gate's rule: after at least `min_rounds` rounds, stop when the 95 % interval of the
// speedup (bootstrap of `resamples`, seeded) is tighter than target_half_width() of the slower
// side's median, or when its half-width has plateaued (stats.h, ci_has_plateaued).
class TightOrPlateauRule : public StoppingRule {
 public:
  TightOrPlateauRule(int min_rounds, uint64_t seed, int resamples = 500);
  std::unique_ptr<StoppingRule> fresh() const override;
  bool done(const RoundsSoFar& rounds) override;
  const std::vector<double>& half_widths() const { return half_widths_; }

 private:
  int min_rounds_;
  uint64_t seed_;
  int resamples_;
  std::vector<double> half_widths_;  // log space, one per batch from min_rounds on
};

// Log-space half-width to aim for, by kernel time: 2 % for kernels of 20 us or less, 0.75 %
// at 50 us, 0.5 % from 100 us; linear in between.
double target_half_width(double median_ms);

}  // namespace arena
