#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "cache_sweep.h"

using namespace arena;

// The perf gate's sweep: twice the L2 but never under 256 MiB, in whole 16-byte words.
TEST(CacheSweep, TimingSweepIsTwiceTheL2AtLeast256MiBInWholeWords) {
  const size_t mib = size_t{1} << 20;
  EXPECT_EQ(SweepPlan::for_timing(0, SweepMode::PlatformDefault, 50 * mib).bytes, 256 * mib);   // H100: 50 MiB L2
  EXPECT_EQ(SweepPlan::for_timing(0, SweepMode::PlatformDefault, 256 * mib).bytes, 512 * mib);  // MI300X: 256 MiB
  EXPECT_EQ(SweepPlan::for_timing(0, SweepMode::PlatformDefault, 0).bytes, 256 * mib);          // L2 unknown
  EXPECT_EQ(SweepPlan::for_timing(1000, SweepMode::ReadDiscard, 50 * mib).bytes, 1008u);       // asked: rounded up
  EXPECT_EQ(SweepPlan::for_timing(1024, SweepMode::ReadDiscard, 50 * mib).bytes, 1024u);
  EXPECT_EQ(SweepPlan::for_timing(0, SweepMode::ReadModifyWrite, 50 * mib).mode, SweepMode::ReadModifyWrite);
}

// An executor or the profiler sweeps the words it was given: rounded down, never past the buffer.
TEST(CacheSweep, GivenSweepRoundsDownToWholeWords) {
  EXPECT_EQ(SweepPlan::as_given(1000, SweepMode::PlatformDefault).bytes, 992u);
  EXPECT_EQ(SweepPlan::as_given(15, SweepMode::PlatformDefault).bytes, 0u);
  EXPECT_EQ(SweepPlan::as_given(0, SweepMode::PlatformDefault).bytes, 0u);
}

// The modes' numbers are what requests and results carry; anything else is refused by name.
TEST(CacheSweep, ModesKeepTheirNumbersAndOthersAreRefused) {
  for (int m = 0; m <= 2; ++m) EXPECT_EQ(SweepPlan::as_given(16, sweep_mode_from(m)).device_mode(), m);
  for (int64_t bad : {int64_t{-1}, int64_t{3}, int64_t{1} << 40}) {
    try {
      sweep_mode_from(bad);
      ADD_FAILURE() << "mode " << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--flush-mode"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
    }
  }
}

TEST(CacheSweep, EveryModeHasItsOwnDescription) {
  std::set<std::string> seen;
  for (int m = 0; m <= 2; ++m) seen.insert(SweepPlan::as_given(16, sweep_mode_from(m)).description());
  EXPECT_EQ(seen.size(), 3u);
}
