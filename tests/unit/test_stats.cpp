#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "stats.h"

using namespace arena;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
using Rounds = std::vector<std::vector<double>>;

// Simulated timings: B takes 1 ms and A takes `true_ratio` ms, each sample with lognormal noise,
// and each round scaled by a common drift factor (the machine getting faster or slower) that
// the paired design should cancel.
struct Simulation {
  double true_ratio = 1.0;
  int rounds = 10;
  int samples_per_round = 5;
  double sample_noise = 0.05;
  double round_drift = 0.2;
  double process_effect = 0;  // log-space, on every sample of A: one worker process's own speed
};

// Standard normal by Box-Muller on the raw engine output: std::normal_distribution differs
// between standard libraries, and these tests should draw the same numbers everywhere.
double standard_normal(std::mt19937_64& rng) {
  const double two_pow_53 = 9007199254740992.0;
  const double u1 = (static_cast<double>(rng() >> 11) + 1.0) / (two_pow_53 + 1.0);  // (0, 1]
  const double u2 = static_cast<double>(rng() >> 11) / two_pow_53;                  // [0, 1)
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

void simulate(const Simulation& s, std::mt19937_64& rng, Rounds& a, Rounds& b) {
  a.assign(s.rounds, {});
  b.assign(s.rounds, {});
  for (int j = 0; j < s.rounds; ++j) {
    const double drift = std::exp(s.round_drift * standard_normal(rng));
    for (int i = 0; i < s.samples_per_round; ++i) {
      a[j].push_back(s.true_ratio * drift * std::exp(s.process_effect + s.sample_noise * standard_normal(rng)));
      b[j].push_back(drift * std::exp(s.sample_noise * standard_normal(rng)));
    }
  }
}

SpeedupEstimate simulated_estimate(const Simulation& s, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Rounds a, b;
  simulate(s, rng, a, b);
  return estimate_speedup(a, b, seed + 1);
}

bool contains(const SpeedupEstimate& e, double value) {
  return e.ci_low <= value && value <= e.ci_high;
}

// An estimate with a known log-space standard error, for combine().
SpeedupEstimate estimate_with_se(double speedup, double se, int rounds) {
  SpeedupEstimate e;
  e.rounds = e.units = rounds;
  e.speedup = e.speedup_median_of_rounds = speedup;
  e.log_half_width = student_t_975(rounds - 1) * se;
  e.stat_se = se;
  e.ci_low = e.t_low = speedup * std::exp(-e.log_half_width);
  e.ci_high = e.t_high = speedup * std::exp(e.log_half_width);
  e.ci_method = "t";
  return e;
}

}  // namespace

TEST(Stats, MedianAndQuantiles) {
  EXPECT_EQ(median({5, 1, 3}), 3);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({7}), 7);
  EXPECT_EQ(quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_EQ(quantile({1, 2, 3, 4}, 0.75), 3.25);
  EXPECT_EQ(quantile({1, 2, 3, 4}, 0.0), 1);
  EXPECT_EQ(quantile({1, 2, 3, 4}, 1.0), 4);
  EXPECT_THROW(median({}), std::invalid_argument);
  EXPECT_THROW(quantile({1.0}, 1.5), std::invalid_argument);
}

TEST(Stats, StudentTQuantiles) {
  EXPECT_NEAR(student_t_975(1), 12.706, 5e-4);
  EXPECT_NEAR(student_t_975(2), 4.303, 5e-4);
  EXPECT_NEAR(student_t_975(9), 2.262, 5e-4);
  EXPECT_NEAR(student_t_975(30), 2.042, 5e-4);
  EXPECT_NEAR(student_t_975(31), 2.039513, 1e-5);  // first value from the expansion
  EXPECT_NEAR(student_t_975(60), 2.000298, 1e-5);
  EXPECT_NEAR(student_t_975(120), 1.979930, 1e-5);
  EXPECT_NEAR(student_t_975(1000000), 1.960, 5e-4);
  for (int dof = 1; dof < 2000; ++dof)
    ASSERT_GT(student_t_975(dof), student_t_975(dof + 1)) << "not decreasing at dof " << dof;
  EXPECT_THROW(student_t_975(0), std::invalid_argument);
}

TEST(Stats, IdenticalDistributionsGiveIntervalAroundOne) {
  Simulation aa;
  aa.true_ratio = 1.0;
  aa.rounds = 30;
  SpeedupEstimate e = simulated_estimate(aa, 11);
  EXPECT_EQ(e.rounds, 30);
  EXPECT_TRUE(contains(e, 1.0)) << e.ci_low << " .. " << e.ci_high;
  EXPECT_NEAR(e.speedup, 1.0, 0.05);
  EXPECT_LT(e.log_half_width, 0.05);
  EXPECT_NE(decide(e.ci_low, e.ci_high, 0.05), Verdict::Faster);
  EXPECT_NE(decide(e.ci_low, e.ci_high, 0.05), Verdict::Slower);
}

TEST(Stats, TwiceAsFastIsFound) {
  Simulation twice;
  twice.true_ratio = 2.0;
  SpeedupEstimate e = simulated_estimate(twice, 12);
  EXPECT_TRUE(contains(e, 2.0)) << e.ci_low << " .. " << e.ci_high;
  EXPECT_FALSE(contains(e, 1.0));
  EXPECT_NEAR(e.speedup_median_of_rounds, 2.0, 0.1);
  EXPECT_EQ(decide(e.ci_low, e.ci_high, 0.01), Verdict::Faster);

  Simulation half = twice;
  half.true_ratio = 0.5;
  SpeedupEstimate s = simulated_estimate(half, 13);
  EXPECT_TRUE(contains(s, 0.5)) << s.ci_low << " .. " << s.ci_high;
  EXPECT_EQ(decide(s.ci_low, s.ci_high, 0.01), Verdict::Slower);
}

TEST(Stats, IntervalCoverageIsAboutNinetyFivePercent) {
  Simulation sim;
  sim.true_ratio = 1.3;
  int covered = 0;
  const int experiments = 200;
  for (int i = 0; i < experiments; ++i)
    covered += contains(simulated_estimate(sim, 1000 + 7 * i), sim.true_ratio) ? 1 : 0;
  EXPECT_GE(covered, 176) << covered << " of " << experiments;  // 88 %
  EXPECT_LE(covered, 198) << covered << " of " << experiments;  // 99 %
}

TEST(Stats, ChosenIntervalIsTheWiderOne) {
  // With few rounds t is the wider; with many, the bootstrap is wider in some experiments.
  int chose_t = 0, chose_bootstrap = 0;
  for (int rounds : {8, 100}) {
    Simulation sim;
    sim.rounds = rounds;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      SpeedupEstimate e = simulated_estimate(sim, seed);
      const double t_half = std::log(e.t_high / e.t_low) / 2;
      const double boot_half = std::log(e.boot_high / e.boot_low) / 2;
      EXPECT_NEAR(e.log_half_width, std::max(t_half, boot_half), 1e-12);
      EXPECT_EQ(e.ci_method, t_half >= boot_half ? "t" : "bootstrap");
      const bool t_chosen = e.ci_method == "t";
      EXPECT_EQ(e.ci_low, t_chosen ? e.t_low : e.boot_low);
      EXPECT_EQ(e.ci_high, t_chosen ? e.t_high : e.boot_high);
      EXPECT_NEAR(std::log(e.speedup), (std::log(e.t_low) + std::log(e.t_high)) / 2, 1e-12);
      (t_chosen ? chose_t : chose_bootstrap) += 1;
    }
  }
  EXPECT_GT(chose_t, 0);
  EXPECT_GT(chose_bootstrap, 0);
}

TEST(Stats, BootstrapIsDeterministicForASeed) {
  std::mt19937_64 rng(5);
  Rounds a, b;
  simulate(Simulation{}, rng, a, b);
  SpeedupEstimate x = estimate_speedup(a, b, 99);
  SpeedupEstimate y = estimate_speedup(a, b, 99);
  SpeedupEstimate z = estimate_speedup(a, b, 100);
  EXPECT_EQ(x.boot_low, y.boot_low);
  EXPECT_EQ(x.boot_high, y.boot_high);
  EXPECT_TRUE(x.boot_low != z.boot_low || x.boot_high != z.boot_high);
  EXPECT_EQ(x.t_low, z.t_low) << "the t interval does not depend on the seed";
}

TEST(Stats, KnownRatiosGiveExactPointEstimates) {
  // Round ratios 2, 2, 8 (medians 4/2, 6/3, 8/1): geometric mean cbrt(32), median 2.
  Rounds a = {{4, 100, 1}, {6, 6}, {8}};
  Rounds b = {{2}, {3, 3, 3}, {1, 1}};
  SpeedupEstimate e = estimate_speedup(a, b, 1);
  EXPECT_NEAR(e.speedup, std::cbrt(2.0 * 2.0 * 8.0), 1e-12);
  EXPECT_NEAR(e.speedup_median_of_rounds, 2.0, 1e-12);
  EXPECT_EQ(e.rounds, 3);
}

TEST(Stats, FewerThanTwoRoundsIsInsufficient) {
  SpeedupEstimate one = estimate_speedup({{2.0, 2.0}}, {{1.0}}, 1);
  EXPECT_EQ(one.ci_method, "insufficient");
  EXPECT_EQ(one.ci_low, 0);
  EXPECT_EQ(one.ci_high, kInf);
  EXPECT_DOUBLE_EQ(one.speedup, 2.0);
  EXPECT_EQ(decide(one.ci_low, one.ci_high, 0.01), Verdict::Ambiguous);

  SpeedupEstimate none = estimate_speedup({}, {}, 1);
  EXPECT_EQ(none.ci_method, "insufficient");
  EXPECT_EQ(none.rounds, 0);
  EXPECT_EQ(none.ci_high, kInf);
}

TEST(Stats, RejectsBadTimings) {
  EXPECT_THROW(estimate_speedup({{1.0}, {1.0}}, {{1.0}}, 1), std::invalid_argument);
  EXPECT_THROW(estimate_speedup({{1.0}, {0.0, 0.0}}, {{1.0}, {1.0}}, 1), std::invalid_argument);
  EXPECT_THROW(estimate_speedup({{1.0}, {1.0}}, {{1.0}, {-2.0}}, 1), std::invalid_argument);
  EXPECT_THROW(estimate_speedup({{1.0}, {}}, {{1.0}, {1.0}}, 1), std::invalid_argument);
  EXPECT_THROW(estimate_speedup({{1.0}, {1.0}}, {{1.0}, {1.0}}, 1, 0), std::invalid_argument);
  try {
    estimate_speedup({{1.0}, {0.0}}, {{1.0}, {1.0}}, 1);
    FAIL() << "expected an exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("round 1 of A"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("positive"), std::string::npos) << e.what();
  }
}

TEST(Stats, DecideEachVerdict) {
  EXPECT_EQ(decide(1.05, 1.10, 0.01), Verdict::Faster);
  EXPECT_EQ(decide(0.90, 0.95, 0.01), Verdict::Slower);
  EXPECT_EQ(decide(0.995, 1.005, 0.01), Verdict::Same);
  EXPECT_EQ(decide(0.99, 1.01, 0.01), Verdict::Same) << "the bounds themselves are inside";
  EXPECT_EQ(decide(0.98, 1.05, 0.01), Verdict::Ambiguous);
  EXPECT_EQ(decide(1.005, 1.02, 0.01), Verdict::Ambiguous) << "faster, but maybe not by delta";
  EXPECT_EQ(decide(1.01, 1.02, 0.01), Verdict::Ambiguous) << "FASTER needs ci_low > 1 + delta";
  EXPECT_EQ(decide(0, kInf, 0.01), Verdict::Ambiguous);
  EXPECT_EQ(decide(std::nan(""), 1.0, 0.01), Verdict::Ambiguous);
  EXPECT_STREQ(verdict_name(Verdict::Faster), "FASTER");
  EXPECT_STREQ(verdict_name(Verdict::Same), "SAME");
  EXPECT_STREQ(verdict_name(Verdict::Slower), "SLOWER");
  EXPECT_STREQ(verdict_name(Verdict::Ambiguous), "AMBIGUOUS");
}

TEST(Stats, CombineOneEstimateKeepsIt) {
  Simulation sim;
  sim.true_ratio = 1.5;
  SpeedupEstimate e = simulated_estimate(sim, 21);
  SpeedupEstimate c = combine({e});
  EXPECT_NEAR(c.speedup, e.speedup, 1e-12);
  EXPECT_EQ(c.rounds, e.rounds);
  // The chosen interval may have been the bootstrap one, whose se is then read through t.
  EXPECT_NEAR(c.log_half_width, e.log_half_width, 1e-12);
  EXPECT_EQ(c.ci_method, "t");
}

TEST(Stats, CombineKnownStandardErrors) {
  // Speedups 2 and 0.5: geometric mean 1. Four configurations with se 0.1 each: se of the
  // mean 0.05; Welch-Satterthwaite dof = 4 * 999, so the factor is about 1.9606.
  std::vector<SpeedupEstimate> four = {estimate_with_se(2.0, 0.1, 1000),
                                       estimate_with_se(0.5, 0.1, 1000),
                                       estimate_with_se(2.0, 0.1, 1000),
                                       estimate_with_se(0.5, 0.1, 1000)};
  SpeedupEstimate c = combine(four);
  EXPECT_NEAR(c.speedup, 1.0, 1e-12);
  EXPECT_NEAR(c.log_half_width, 0.05 * student_t_975(3996), 1e-9);
  EXPECT_NEAR(c.ci_low, std::exp(-c.log_half_width), 1e-12);
  EXPECT_NEAR(c.ci_high, std::exp(c.log_half_width), 1e-12);
  EXPECT_TRUE(std::isnan(c.boot_low));

  // Few rounds per configuration: dof = 2 * 4 = 8 (equal se), a wider factor than normal.
  SpeedupEstimate few = combine({estimate_with_se(1.2, 0.1, 5), estimate_with_se(1.2, 0.1, 5)});
  EXPECT_NEAR(few.speedup, 1.2, 1e-12);
  EXPECT_NEAR(few.log_half_width, student_t_975(8) * std::sqrt(0.02) / 2, 1e-9);
  EXPECT_EQ(few.rounds, 5);
}

TEST(Stats, CombinedIntervalCoverage) {
  // 100 experiments of four configurations each: the combined interval should contain the
  // geometric mean of the true ratios about 95 % of the time.
  const double ratios[] = {1.1, 1.4, 0.9, 1.25};
  double log_truth = 0;
  for (double r : ratios) log_truth += std::log(r) / 4;
  int covered = 0;
  for (int x = 0; x < 100; ++x) {
    std::vector<SpeedupEstimate> per_config;
    for (int i = 0; i < 4; ++i) {
      Simulation sim;
      sim.true_ratio = ratios[i];
      per_config.push_back(simulated_estimate(sim, 5000 + 10 * x + i));
    }
    SpeedupEstimate c = combine(per_config);
    covered += contains(c, std::exp(log_truth)) ? 1 : 0;
    // Averaging four configurations halves the root-mean-square half-width (the t factor for
    // the pooled degrees of freedom can only be smaller than for one configuration's).
    double mean_square = 0;
    for (const auto& e : per_config) mean_square += e.log_half_width * e.log_half_width / 4;
    ASSERT_LE(c.log_half_width, 0.5 * std::sqrt(mean_square) * (1 + 1e-12));
    ASSERT_GT(c.log_half_width, 0.4 * std::sqrt(mean_square));
  }
  EXPECT_GE(covered, 85);
  EXPECT_LE(covered, 99);
}

TEST(Stats, AlternatingSetsCancelAPlacementEffectInsteadOfWideningTheInterval) {
  // The baseline runs 6 % slower on buffer set 0 (even rounds) than on set 1; the candidate,
  // which takes the other set in each round, does not care. True speedup 2 on average.
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0, 0.002);
  Rounds a(40), b(40);
  for (int j = 0; j < 40; ++j)
    for (int i = 0; i < 10; ++i) {
      a[j].push_back(2.0 * (j % 2 == 0 ? 1.03 : 1 / 1.03) * std::exp(noise(rng)));
      b[j].push_back(std::exp(noise(rng)));
    }
  SpeedupEstimate plain = estimate_speedup(a, b, 1);
  SpeedupEstimate paired = estimate_speedup(a, b, 1, 2000, RoundLayout::AlternatingSets);
  EXPECT_EQ(paired.rounds, 40);
  EXPECT_EQ(paired.units, 20);
  EXPECT_NEAR(paired.speedup, plain.speedup, 1e-12);  // the same 40 rounds, averaged
  EXPECT_NEAR(paired.speedup, 2.0, 0.002);
  EXPECT_GT(plain.log_half_width, 0.008);  // the placement effect read as noise: +-3 % / sqrt(40)
  EXPECT_LT(paired.log_half_width, 0.002);
  EXPECT_GT(plain.log_half_width, 5 * paired.log_half_width);
  EXPECT_TRUE(contains(paired, 2.0));
  // An odd round is left out of the pairs.
  a.pop_back();
  b.pop_back();
  SpeedupEstimate odd = estimate_speedup(a, b, 1, 2000, RoundLayout::AlternatingSets);
  EXPECT_EQ(odd.rounds, 39);
  EXPECT_EQ(odd.units, 19);
}

TEST(Stats, CombineInsufficientAndEmpty) {
  SpeedupEstimate one_round = estimate_speedup({{2.0}}, {{1.0}}, 1);
  SpeedupEstimate c = combine({estimate_with_se(1.0, 0.1, 10), one_round});
  EXPECT_EQ(c.ci_method, "insufficient");
  EXPECT_EQ(c.ci_high, kInf);
  EXPECT_NEAR(c.speedup, std::sqrt(2.0), 1e-12);
  EXPECT_THROW(combine({}), std::invalid_argument);
}

TEST(Stats, StoppingRule) {
  EXPECT_TRUE(ci_is_tight(0.009, 0.01));
  EXPECT_FALSE(ci_is_tight(0.01, 0.01));
  EXPECT_FALSE(ci_is_tight(kInf, 0.01));

  // Half-widths shrinking like 1/sqrt(k): still improving at 10 rounds, flat by 100.
  auto history_up_to = [](int rounds) {
    std::vector<double> h;
    for (int k = 2; k <= rounds; ++k) h.push_back(0.3 / std::sqrt(static_cast<double>(k)));
    return h;
  };
  EXPECT_FALSE(ci_has_plateaued(history_up_to(10)));
  EXPECT_TRUE(ci_has_plateaued(history_up_to(100)));
  EXPECT_FALSE(ci_has_plateaued({0.02, 0.02, 0.02, 0.02, 0.02})) << "needs 5 rounds of change";
  EXPECT_TRUE(ci_has_plateaued({0.02, 0.02, 0.02, 0.02, 0.02, 0.02}));
  EXPECT_FALSE(ci_has_plateaued({0.02, 0.021, 0.02, 0.0195, 0.022, 0.02})) << "10 % swings";
  EXPECT_FALSE(ci_has_plateaued({kInf, kInf, kInf, kInf, kInf, kInf}));
  EXPECT_FALSE(ci_has_plateaued({}));
}

TEST(Stats, ProcessSpreadAddsInQuadratureWithEffectiveDegreesOfFreedom) {
  // Rounds' se 0.002 on 8 degrees of freedom, process term 0.0015: se 0.0025, and
  // Welch-Satterthwaite gives 8 * (0.0025 / 0.002)^4 = 19.5, rounded down to 19.
  const SpeedupEstimate rounds_only = estimate_with_se(1.5, 0.002, 9);
  const SpeedupEstimate e = with_process_spread(rounds_only, 0.0015);
  const double half = student_t_975(19) * 0.0025;
  EXPECT_NEAR(e.log_half_width, half, 1e-12);
  EXPECT_NEAR(e.ci_low, 1.5 * std::exp(-half), 1e-12);
  EXPECT_NEAR(e.ci_high, 1.5 * std::exp(half), 1e-12);
  EXPECT_EQ(e.process_sd, 0.0015);
  // What the rounds alone say is kept beside it.
  EXPECT_EQ(e.stat_se, 0.002);
  EXPECT_EQ(e.t_low, rounds_only.t_low);
  EXPECT_EQ(e.t_high, rounds_only.t_high);
  EXPECT_EQ(e.speedup, 1.5);
}

TEST(Stats, ProcessSpreadOfZeroOrOnTooFewRoundsChangesNothing) {
  const SpeedupEstimate e = estimate_with_se(1.2, 0.01, 10);
  const SpeedupEstimate same = with_process_spread(e, 0);
  EXPECT_EQ(same.ci_low, e.ci_low);
  EXPECT_EQ(same.ci_high, e.ci_high);
  EXPECT_EQ(same.process_sd, 0);
  const SpeedupEstimate one = with_process_spread(estimate_speedup({{2.0}}, {{1.0}}, 1), 0.01);
  EXPECT_EQ(one.ci_method, "insufficient");
  EXPECT_EQ(one.ci_high, kInf);
  EXPECT_THROW(with_process_spread(e, -0.001), std::invalid_argument);
  EXPECT_THROW(with_process_spread(e, std::nan("")), std::invalid_argument);
}

TEST(Stats, CombineTakesTheProcessTermWhole) {
  // Four configurations with the rounds' se 0.001 and a process term 0.002: the rounds'
  // part averages down to 0.0005, the process term does not (the same processes time them all).
  std::vector<SpeedupEstimate> four;
  for (int i = 0; i < 4; ++i) four.push_back(with_process_spread(estimate_with_se(1.1, 0.001, 1000), 0.002));
  const SpeedupEstimate c = combine(four);
  const double var = 4 * 0.001 * 0.001 / 16 + 0.002 * 0.002;
  const double dof = var * var / (4 * std::pow(0.001, 4) / 999 / 256);
  EXPECT_NEAR(c.log_half_width, student_t_975(static_cast<int>(dof)) * std::sqrt(var), 1e-12);
  EXPECT_GT(c.log_half_width, 1.959 * 0.002);
  EXPECT_EQ(c.process_sd, 0.002);
  EXPECT_NEAR(c.stat_se, 0.0005, 1e-15);
  // Without it, combine is what it was: the rounds' se over k.
  std::vector<SpeedupEstimate> plain(4, estimate_with_se(1.1, 0.001, 1000));
  EXPECT_NEAR(combine(plain).log_half_width, student_t_975(3996) * 0.0005, 1e-12);
}

TEST(Stats, ProcessSpreadRestoresCoverageOfAPerProcessEffect) {
  // A/A runs, each with its own process effect (sd 1 %) that every round shares: intervals from
  // the rounds alone miss 1.0 most of the time; with the process term they cover it about 95 %
  // of the time.
  const double process_sd = 0.01;
  int covered_rounds_only = 0, covered = 0;
  std::mt19937_64 effects(77);
  for (int x = 0; x < 200; ++x) {
    Simulation sim;
    sim.rounds = 16;
    sim.sample_noise = 0.01;
    sim.process_effect = process_sd * standard_normal(effects);
    const SpeedupEstimate e = simulated_estimate(sim, 9000 + x);
    covered_rounds_only += contains(e, 1.0) ? 1 : 0;
    covered += contains(with_process_spread(e, process_sd), 1.0) ? 1 : 0;
  }
  EXPECT_LT(covered_rounds_only, 120);
  EXPECT_GE(covered, 180);
  EXPECT_LE(covered, 199);
}
