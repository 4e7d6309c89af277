#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "gate_phases.h"

using namespace arena;

TEST(GatePhases, AddsUpFromSeveralThreads) {
  GatePhases p;
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) p.add("draw_inputs_thread_s", 0.001);
    });
  for (auto& t : ts) t.join();
  EXPECT_NEAR(p.get("draw_inputs_thread_s"), 4.0, 1e-9);
  EXPECT_EQ(p.get("never"), 0);
  EXPECT_EQ(p.all().size(), 1u);
}

TEST(GatePhases, TimerAddsItsLifetime) {
  GatePhases p;
  {
    GatePhases::Timer t(p, "compare_s");
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  {
    GatePhases::Timer t(p, "compare_s");
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  EXPECT_GE(p.get("compare_s"), 0.06);
  EXPECT_LT(p.get("compare_s"), 1.0);
}

TEST(GatePhases, LineListsTheOrderedPhasesFirst) {
  GatePhases p;
  p.add("b_s", 2);
  p.add("a_s", 1);
  p.add("c_s", 0.125);
  EXPECT_EQ(p.line({"c_s", "missing_s", "b_s"}), "phases: c_s 0.125 s, b_s 2.000 s, a_s 1.000 s");
}

TEST(GatePhases, ProcessStartIsBeforeNowAndAfterThisTestBinaryStarted) {
  const double s = seconds_since_process_start();
  ASSERT_GE(s, 0) << "cannot read this process's start time";
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double later = seconds_since_process_start();
  EXPECT_GE(later - s, 0.04);
  EXPECT_LT(later - s, 0.04 + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() + 0.02);
  EXPECT_LT(s, 3600) << "this test binary did not start an hour ago";
}
