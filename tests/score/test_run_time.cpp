#include <gtest/gtest.h>

#include "run_time.h"

using namespace arena::score;

namespace {

GateResult gate(Outcome o, double seconds) {
  GateResult g;
  g.outcome = o;
  g.record.execution_time = seconds;
  return g;
}

}  // namespace

TEST(RunTime, SumsPerGateKindAndNamesTheSlowestTask) {
  std::map<std::string, GateResult> gates = {
      {"hip2hip/a/compile", gate(Outcome::passed, 2.0)},
      {"hip2hip/b/compile", gate(Outcome::failed, 4.0)},
      {"hip2hip/a/perf", gate(Outcome::passed, 6.5)},
      {"torch2hip/c/perf", gate(Outcome::timeout, 10.0)},
  };
  auto t = run_time_summary(gates);
  EXPECT_EQ(t["by_gate"]["compile"]["tests"], 2);
  EXPECT_DOUBLE_EQ(t["by_gate"]["compile"]["total_s"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(t["by_gate"]["compile"]["mean_s"].get<double>(), 3.0);
  EXPECT_EQ(t["by_gate"]["compile"]["slowest"], "hip2hip/b");
  EXPECT_DOUBLE_EQ(t["by_gate"]["perf"]["max_s"].get<double>(), 10.0);
  EXPECT_EQ(t["by_gate"]["perf"]["slowest"], "torch2hip/c");
  EXPECT_DOUBLE_EQ(t["test_seconds"].get<double>(), 22.5);
  EXPECT_EQ(t["untimed_tests"], 0);
}

TEST(RunTime, TestsThatNeverRanAreCountedApart) {
  std::map<std::string, GateResult> gates = {
      {"hip2hip/a/compile", gate(Outcome::failed, 1.0)},
      {"hip2hip/a/correct_seen", gate(Outcome::not_run, 0.0)},
      {"hip2hip/a/perf", gate(Outcome::passed, -1)},  // no <Execution Time> recorded
  };
  auto t = run_time_summary(gates);
  EXPECT_FALSE(t["by_gate"].contains("correct_seen"));
  EXPECT_FALSE(t["by_gate"].contains("perf"));
  EXPECT_EQ(t["untimed_tests"], 2);
  EXPECT_DOUBLE_EQ(t["test_seconds"].get<double>(), 1.0);
}

TEST(RunTime, WallSecondsNeedBothStamps) {
  TestXml x;
  EXPECT_TRUE(wall_seconds(x).is_null());
  x.start_time = 1000;
  EXPECT_TRUE(wall_seconds(x).is_null());
  x.end_time = 1405;
  EXPECT_EQ(wall_seconds(x), 405);
  x.end_time = 999;  // clocks that went backwards: no answer rather than a negative one
  EXPECT_TRUE(wall_seconds(x).is_null());
}
