#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "inputs.h"

using namespace arena;

namespace {
std::vector<double> draw(const Distribution& d, const TrialPlan& p, StreamKey k, int64_t n) {
  std::vector<double> v(n);
  generate_values(d, p, k, v.data(), n);
  return v;
}
double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }
double stdev(const std::vector<double>& v) {
  double m = mean(v), s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / (v.size() - 1));
}
}  // namespace

TEST(Inputs, SameKeyGivesSameValuesWhateverTheThreading) {
  Distribution d{Distribution::Normal, 0, 1, false};
  StreamKey k{hash_name("hip2hip/x"), 3, 0, 1};
  auto big = draw(d, trial_plan(0), k, 1 << 18);  // parallel path
  auto small = draw(d, trial_plan(0), k, 1001);   // serial path
  for (int i = 0; i < 1001; ++i) ASSERT_EQ(big[i], small[i]) << i;
}

TEST(Inputs, DifferentCoordinatesGiveDifferentValues) {
  Distribution d{Distribution::Normal, 0, 1, false};
  StreamKey k{hash_name("hip2hip/x"), 3, 0, 1};
  auto base = draw(d, trial_plan(0), k, 64);
  for (int which = 0; which < 4; ++which) {
    StreamKey o = k;
    if (which == 0) o.task = hash_name("hip2hip/y");
    if (which == 1) o.config = 4;
    if (which == 2) o.trial = 1;
    if (which == 3) o.tensor = 2;
    auto other = draw(d, trial_plan(0), o, 64);
    int same = 0;
    for (int i = 0; i < 64; ++i) same += base[i] == other[i];
    EXPECT_EQ(same, 0) << "coordinate " << which;
  }
}

TEST(Inputs, NormalAndUniformHaveTheirMoments) {
  StreamKey k{1, 2, 3, 4};
  auto n = draw({Distribution::Normal, 3, 2, false}, trial_plan(0), k, 200000);
  EXPECT_NEAR(mean(n), 3, 0.02);
  EXPECT_NEAR(stdev(n), 2, 0.02);
  auto u = draw({Distribution::Uniform, -1, 1, false}, trial_plan(0), k, 200000);
  EXPECT_NEAR(mean(u), 0, 0.01);
  for (double x : u) ASSERT_TRUE(x >= -1 && x < 1);
  bool negative = false;
  for (double x : u) negative |= x < 0;
  EXPECT_TRUE(negative);  // signed: a ReLU-like op is not the identity on these inputs
}

TEST(Inputs, AlternateFamilyKeepsMeanAndSpread) {
  StreamKey k{1, 2, 3, 4};
  TrialPlan alt = trial_plan(2);
  ASSERT_TRUE(alt.alternate_family);
  auto v = draw({Distribution::Normal, 1, 0.5, false}, alt, k, 200000);
  EXPECT_NEAR(mean(v), 1, 0.01);
  EXPECT_NEAR(stdev(v), 0.5, 0.01);
  double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  EXPECT_GT(lo, 1 - 0.5 * std::sqrt(3.0) - 1e-9);  // uniform now: bounded
  EXPECT_LT(hi, 1 + 0.5 * std::sqrt(3.0) + 1e-9);
}

TEST(Inputs, OutlierModeScalesAboutOnePerMille) {
  StreamKey k{9, 9, 9, 9};
  TrialPlan plain = trial_plan(0), outl = trial_plan(1);
  ASSERT_TRUE(outl.outliers);
  Distribution d{Distribution::Uniform, 1, 2, false};
  auto a = draw(d, plain, k, 1000000), b = draw(d, outl, k, 1000000);
  int scaled = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (b[i] != a[i]) {
      ASSERT_DOUBLE_EQ(b[i], a[i] * kOutlierScale);
      ++scaled;
    }
  }
  EXPECT_GT(scaled, 850);
  EXPECT_LT(scaled, 1150);
}

TEST(Inputs, StrictAndIntegerDistributionsAreNeverAltered) {
  StreamKey k{5, 6, 7, 8};
  Distribution strict{Distribution::Uniform, 0.5, 2, true};
  auto a = draw(strict, trial_plan(0), k, 10000), b = draw(strict, trial_plan(1), k, 10000),
       c = draw(strict, trial_plan(2), k, 10000);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  Distribution ints{Distribution::IntRange, -3, 4, true};
  auto v = draw(ints, trial_plan(1), k, 100000);
  std::vector<int> seen(8, 0);
  for (double x : v) {
    ASSERT_EQ(x, std::floor(x));
    ASSERT_TRUE(x >= -3 && x <= 4) << x;
    seen[static_cast<int>(x) + 3]++;
  }
  for (int s : seen) EXPECT_GT(s, 10000);  // every value in the inclusive range occurs
}

TEST(Inputs, PerfFirstContentsKeysDifferByTaskAndConfiguration) {
  const uint64_t k = perf_first_contents_key(7, 2);
  EXPECT_EQ(perf_first_contents_key(7, 2), k);  // the gate and arena-profile draw the same data
  EXPECT_NE(perf_first_contents_key(7, 3), k);
  EXPECT_NE(perf_first_contents_key(8, 2), k);
  // Mixed, not a plain xor of task and index: two tasks' keys do not differ in the same way.
  EXPECT_NE(perf_first_contents_key(7, 2) ^ perf_first_contents_key(7, 3),
            perf_first_contents_key(8, 2) ^ perf_first_contents_key(8, 3));
}
