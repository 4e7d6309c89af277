#include <gtest/gtest.h>

#include <string>

#include "plausibility.h"

using namespace arena;

namespace {
const DevicePeaks kPeaks{2e12, 50e12};  // 2 TB/s, 50 TFLOP/s fp32
}

TEST(Plausibility, RooflineFractions) {
  CostModel cost;
  cost.bytes = 1e9;
  cost.flops = 40e9;
  const Roofline r = roofline(1.0, cost, kPeaks);  // 1 ms
  EXPECT_DOUBLE_EQ(r.bytes_per_s, 1e12);
  EXPECT_DOUBLE_EQ(r.flops_per_s, 40e12);
  EXPECT_DOUBLE_EQ(r.fraction_of_peak_bw, 0.5);
  EXPECT_DOUBLE_EQ(r.fraction_of_peak_fp32, 0.8);
  EXPECT_DOUBLE_EQ(r.fraction_of_peak, 0.5);  // memory-bound task: FLOP/s do not count
  cost.compute_fp32 = true;
  EXPECT_DOUBLE_EQ(roofline(1.0, cost, kPeaks).fraction_of_peak, 0.8);
}

TEST(Plausibility, CredibleTimingHasNoFailures) {
  CostModel cost{1e9, 40e9, true};
  EXPECT_TRUE(speed_of_light_failures("candidate", "n=1", 1.0, cost, kPeaks, 1.05).empty());
  // Within the margin: 2.08 TB/s against a 2 TB/s peak and 5 % slack.
  EXPECT_TRUE(speed_of_light_failures("candidate", "n=1", 1.0 / 2.08, CostModel{1e9, 0, false}, kPeaks, 1.05).empty());
}

TEST(Plausibility, FasterThanMemoryIsNamed) {
  const auto f = speed_of_light_failures("candidate", "n=1", 0.25, CostModel{1e9, 0, false}, kPeaks, 1.05);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0],
            "candidate on n=1: median 250.000000 us moves 1.000000 GB at 4000.000000 GB/s, above the device's peak "
            "2000.000000 GB/s: faster than the memory system allows (cached data, skipped work or a wrong cost model)");
}

TEST(Plausibility, OutputsTheCacheCanHoldAreNotCountedAgainstTheBus) {
  // 1 GB in 0.45 ms is 2.22 TB/s, over 2 TB/s and its 5 % margin; but 0.3 GB of it are outputs
  // the cache can hold past the launch's end, and 0.7 GB in 0.45 ms is credible.
  CostModel cost{1e9, 0, false};
  EXPECT_EQ(speed_of_light_failures("reference", "n=1", 0.45, cost, kPeaks, 1.05).size(), 1u);
  cost.writes_cache_can_hold = 0.3e9;
  EXPECT_TRUE(speed_of_light_failures("reference", "n=1", 0.45, cost, kPeaks, 1.05).empty());
  // Reads alone faster than the bus still fail, and the message counts what had to move.
  const auto f = speed_of_light_failures("candidate", "n=1", 0.25, cost, kPeaks, 1.05);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("moves 0.700000 GB at 2800.000000 GB/s"), std::string::npos) << f[0];
}

TEST(Plausibility, FasterThanTheAlusOnlyWhereComputeBound) {
  const CostModel memory_bound{1e6, 100e9, false};
  EXPECT_TRUE(speed_of_light_failures("baseline", "m=64", 1.0, memory_bound, kPeaks, 1.05).empty());
  const CostModel compute_bound{1e6, 100e9, true};
  const auto f = speed_of_light_failures("baseline", "m=64", 1.0, compute_bound, kPeaks, 1.05);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0], "baseline on m=64: 100.000000 TFLOP/s is above the device's fp32 peak 50.000000 TFLOP/s: not credible");
  // Both at once: bandwidth first.
  const auto both = speed_of_light_failures("candidate", "m=64", 0.01, CostModel{1e9, 100e9, true}, kPeaks, 1.05);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_NE(both[0].find("GB/s"), std::string::npos);
  EXPECT_NE(both[1].find("TFLOP/s"), std::string::npos);
}
