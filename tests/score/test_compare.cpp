#include <gtest/gtest.h>

#include <cmath>

#include "compare.h"

using namespace arena::score;
using json = nlohmann::json;

namespace {

json task(const std::string& id, bool correct, double s = NAN, double lo = NAN, double hi = NAN, bool judged = true) {
  auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  return {{"id", id}, {"suite", id.substr(0, id.find('/'))}, {"compiled", true}, {"correct_seen", correct},
          {"correct_unseen", correct}, {"correct", correct}, {"judged", judged}, {"speedup", num(s)},
          {"ci95_low", num(lo)}, {"ci95_high", num(hi)}, {"verdict", nullptr}};
}

json run(json tasks) { return {{"run", "r"}, {"tasks", tasks}, {"suites", json::object()}, {"overall", json::object()}}; }

const json& find(const json& c, const std::string& id) {
  for (const auto& t : c["tasks"])
    if (t["id"] == id) return t;
  throw std::runtime_error(id);
}

}  // namespace

TEST(Compare, IntervalsDecide) {
  json a = run({task("s/win", true, 1.5, 1.48, 1.52), task("s/loss", true, 2.0, 1.98, 2.02),
                task("s/noise", true, 1.2, 1.17, 1.23), task("s/tiny", true, 1.0, 0.999, 1.001)});
  json b = run({task("s/win", true, 2.0, 1.97, 2.03), task("s/loss", true, 1.5, 1.48, 1.52),
                task("s/noise", true, 1.22, 1.18, 1.26), task("s/tiny", true, 1.005, 1.004, 1.006)});
  json c = compare_runs(a, b);
  EXPECT_EQ(find(c, "s/win")["verdict"], "better");
  EXPECT_NEAR(find(c, "s/win")["ratio"].get<double>(), 4.0 / 3.0, 1e-12);
  EXPECT_EQ(find(c, "s/loss")["verdict"], "worse");
  EXPECT_EQ(find(c, "s/noise")["verdict"], "no detectable change");
  // se from the wider half-width in log space: A ln(1.2/1.17)/z, B ln(1.22/1.18)/z (both the lower side)
  const double z = 1.959963984540054, d = std::log(1.22 / 1.2);
  const double se = std::hypot(std::log(1.2 / 1.17) / z, std::log(1.22 / 1.18) / z);
  EXPECT_NEAR(find(c, "s/noise")["ratio_ci95_low"].get<double>(), std::exp(d - z * se), 1e-12);
  // detectable but inside delta = 1 %: no detectable change; with delta = 0 it is better
  EXPECT_EQ(find(c, "s/tiny")["verdict"], "no detectable change");
  EXPECT_EQ(find(compare_runs(a, b, 0.0), "s/tiny")["verdict"], "better");
  EXPECT_EQ(c["overall"]["verdicts"]["better"], 1);
  EXPECT_EQ(c["overall"]["verdicts"]["worse"], 1);
  EXPECT_EQ(c["overall"]["tasks_with_both_speedups"], 4);
  EXPECT_EQ(c["suites"]["s"]["verdicts"]["no detectable change"], 2);
}

TEST(Compare, CorrectnessChangesComeFirst) {
  json a = run({task("s/broke", true, 1.3, 1.28, 1.32), task("s/fixed", false), task("s/neither", false),
                task("s/gone", true, 1.1, 1.0, 1.2), task("s/open", true, 1.1, 1.0, 1.2)});
  json b = run({task("s/broke", false), task("s/fixed", true, 1.1, 1.09, 1.11), task("s/neither", false),
                task("s/new", true, 1.1, 1.0, 1.2), task("s/open", false, NAN, NAN, NAN, false)});
  json c = compare_runs(a, b);
  EXPECT_EQ(find(c, "s/broke")["verdict"], "worse");
  EXPECT_EQ(find(c, "s/broke")["correctness_changes"][0], "correct_seen: yes -> no");
  EXPECT_EQ(find(c, "s/fixed")["verdict"], "better");
  EXPECT_EQ(find(c, "s/neither")["verdict"], "no detectable change");
  EXPECT_EQ(find(c, "s/gone")["verdict"], "not comparable");
  EXPECT_EQ(find(c, "s/gone")["reason"], "only in A");
  EXPECT_EQ(find(c, "s/new")["reason"], "only in B");
  EXPECT_EQ(find(c, "s/open")["verdict"], "not comparable");
  EXPECT_EQ(c["overall"]["verdicts"]["not comparable"], 3);
  EXPECT_EQ(c["overall"]["verdict"], "not comparable");  // no task correct in both
}

TEST(Compare, MetricChanges) {
  json a = run({task("s/x", true, 2.0, 1.9, 2.1)});
  json b = run({task("s/x", true, 2.0, 1.9, 2.1)});
  a["overall"] = {{"compile_rate", 0.5}, {"fast_p", {{"1.0", 0.25}}}};
  b["overall"] = {{"compile_rate", 0.75}, {"fast_p", {{"1.0", 0.5}}}};
  json c = compare_runs(a, b);
  EXPECT_DOUBLE_EQ(c["overall"]["metrics"]["compile_rate"]["change"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(c["overall"]["metrics"]["fast_1.0"]["change"].get<double>(), 0.25);
  EXPECT_TRUE(c["overall"]["metrics"]["correct_rate"]["change"].is_null());
  EXPECT_EQ(find(c, "s/x")["verdict"], "no detectable change");
}
