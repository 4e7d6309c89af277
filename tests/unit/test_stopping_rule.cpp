#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "stats.h"
#include "stopping_rule.h"

using namespace arena;

namespace {

using Rounds = std::vector<std::vector<double>>;

// `n` rounds of 10 samples around `ms`, each sample scaled by a factor uniform in
// [1 - spread, 1 + spread] (raw engine bits: the same numbers on every standard library).
Rounds synthetic_rounds(int n, double ms, double spread, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Rounds r(static_cast<size_t>(n));
  for (auto& round : r)
    for (int i = 0; i < 10; ++i) {
      const double u = static_cast<double>(rng() >> 11) / 9007199254740992.0;  // [0, 1)
      round.push_back(ms * (1 - spread + 2 * spread * u));
    }
  return r;
}

}  // namespace

TEST(StoppingRule, TargetHalfWidthFollowsKernelTime) {
  EXPECT_DOUBLE_EQ(target_half_width(0.010), std::log1p(0.02));
  EXPECT_DOUBLE_EQ(target_half_width(0.020), std::log1p(0.02));
  EXPECT_DOUBLE_EQ(target_half_width(0.035), std::log1p(0.01375));  // halfway from 20 to 50 us
  EXPECT_DOUBLE_EQ(target_half_width(0.050), std::log1p(0.0075));
  EXPECT_DOUBLE_EQ(target_half_width(0.075), std::log1p(0.00625));
  EXPECT_DOUBLE_EQ(target_half_width(0.100), std::log1p(0.005));
  EXPECT_DOUBLE_EQ(target_half_width(5.0), std::log1p(0.005));
}

TEST(StoppingRule, TightDataStopsOnceMinRoundsAreDone) {
  const Rounds a = synthetic_rounds(15, 1.5, 0.001, 1), b = synthetic_rounds(15, 1.0, 0.001, 2);
  TightOrPlateauRule rule(15, 12345);
  // Every side must have finished min_rounds, however many the primary pair has.
  EXPECT_FALSE(rule.done({a, b, 14}));
  EXPECT_TRUE(rule.half_widths().empty());  // no estimate before min_rounds
  EXPECT_TRUE(rule.done({a, b, 15}));
  ASSERT_EQ(rule.half_widths().size(), 1u);
  EXPECT_LT(rule.half_widths()[0], target_half_width(1.5));
}

TEST(StoppingRule, NoisyDataRunsUntilTheIntervalPlateaus) {
  const Rounds a = synthetic_rounds(15, 0.05, 0.4, 3), b = synthetic_rounds(15, 0.05, 0.4, 4);
  TightOrPlateauRule rule(15, 12345);
  // The same rounds every batch: the half-width stays put, so the 6th estimate is a plateau.
  for (int batch = 1; batch <= 5; ++batch) EXPECT_FALSE(rule.done({a, b, 15})) << "batch " << batch;
  EXPECT_GT(rule.half_widths().back(), target_half_width(0.05));
  EXPECT_TRUE(rule.done({a, b, 15}));
}

TEST(StoppingRule, ShrinkingIntervalIsNotAPlateau) {
  TightOrPlateauRule rule(2, 7);
  // Noisy rounds, more of them every batch: the interval narrows by more than 5 % a batch.
  for (int n = 4; n <= 4 << 6; n *= 2) {
    const Rounds a = synthetic_rounds(n, 0.05, 0.4, 5), b = synthetic_rounds(n, 0.05, 0.4, 6);
    EXPECT_FALSE(rule.done({a, b, static_cast<size_t>(n)})) << n << " rounds";
  }
  EXPECT_EQ(rule.half_widths().size(), 7u);
}

TEST(StoppingRule, FreshRuleHasNoHistory) {
  const Rounds a = synthetic_rounds(15, 0.05, 0.4, 3), b = synthetic_rounds(15, 0.05, 0.4, 4);
  TightOrPlateauRule rule(15, 12345);
  for (int batch = 0; batch < 5; ++batch) rule.done({a, b, 15});
  auto other = rule.fresh();
  EXPECT_FALSE(other->done({a, b, 15}));  // one estimate: no plateau yet
  EXPECT_TRUE(rule.done({a, b, 15}));     // the first rule's sixth
}

TEST(StoppingRule, UnequalRoundCountsAreRejected) {
  const Rounds a = synthetic_rounds(15, 1.0, 0.01, 1), b = synthetic_rounds(16, 1.0, 0.01, 2);
  TightOrPlateauRule rule(15, 12345);
  EXPECT_THROW(rule.done({a, b, 15}), std::invalid_argument);
}
