#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "metrics.h"

using namespace arena::score;

namespace {

TaskScore task(bool compiled, bool seen, bool unseen, double speedup, const std::string& verdict, bool judged = true) {
  TaskScore t;
  t.compiled = compiled;
  t.correct_seen = seen;
  t.correct_unseen = unseen;
  t.speedup = speedup;
  t.ci_low = t.ci_high = t.fraction_of_peak = NAN;
  t.verdict = verdict;
  t.perf_valid = std::isfinite(speedup);
  t.correct = seen && unseen && t.perf_valid;
  t.judged = judged;
  t.gpu_judged = compiled && judged;  // its correctness gates ran
  t.aka_score = aka_points(compiled, t.correct, speedup);
  t.gates["compile"].outcome = compiled ? Outcome::passed : Outcome::failed;
  return t;
}

}  // namespace

TEST(Metrics, EveryTaskStaysInEveryDenominator) {
  std::vector<TaskScore> ts = {
      task(true, true, true, 2.0, "FASTER"),     // correct, fast
      task(true, true, true, 1.005, "SAME"),     // correct, not detectably faster
      task(true, true, false, NAN, ""),          // fails on unseen configurations
      task(false, false, false, NAN, ""),        // does not compile
  };
  std::vector<const TaskScore*> p;
  for (const auto& t : ts) p.push_back(&t);
  Metrics m = compute_metrics(p);
  EXPECT_EQ(m.tasks, 4);
  EXPECT_DOUBLE_EQ(m.compile_rate, 0.75);
  EXPECT_DOUBLE_EQ(m.correct_seen_rate, 0.75);
  EXPECT_DOUBLE_EQ(m.correct_unseen_rate, 0.5);
  EXPECT_DOUBLE_EQ(m.p_unseen_given_seen, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.generalization_gap, 0.25);
  EXPECT_EQ(m.correct, 2);
  EXPECT_EQ(m.failed_gates, 1);
  EXPECT_NEAR(m.geomean_speedup_correct, std::sqrt(2.0 * 1.005), 1e-12);
  EXPECT_NEAR(m.geomean_speedup_all, std::pow(2.0 * 1.005, 0.25), 1e-12);  // the others count as 1.0
  ASSERT_EQ(m.fast_p.size(), 3u);
  EXPECT_DOUBLE_EQ(m.fast_p[0], 0.25);  // 1.005 > 1 but SAME: p = 1.0 wants the verdict FASTER
  EXPECT_DOUBLE_EQ(m.fast_p[1], 0.25);
  EXPECT_DOUBLE_EQ(m.fast_p[2], 0.0);   // 2.0 is not > 2.0
  EXPECT_DOUBLE_EQ(m.aka_score_mean, (320 + 220.5 + 20 + 0) / 4.0);
  EXPECT_DOUBLE_EQ(fast_p_point(p, 1.0), 0.5);
  EXPECT_EQ(m.unjudged, 0);
}

TEST(Metrics, UnjudgedTasksAreCountedAndStayIn) {
  std::vector<TaskScore> ts = {task(true, false, false, NAN, "", false), task(true, true, true, 3.0, "FASTER")};
  ts[0].gates["correct_seen"].outcome = Outcome::skipped;
  ts[0].gates["perf"].outcome = Outcome::skipped;
  std::vector<const TaskScore*> p = {&ts[0], &ts[1]};
  Metrics m = compute_metrics(p);
  EXPECT_EQ(m.unjudged, 1);
  EXPECT_EQ(m.judged, 1);
  EXPECT_EQ(m.skipped_gates, 2);
  EXPECT_DOUBLE_EQ(m.correct_rate, 0.5);
  EXPECT_DOUBLE_EQ(m.p_unseen_given_seen, 1.0);
}

TEST(Metrics, NoTasksOrNoCorrectTask) {
  Metrics m = compute_metrics({});
  EXPECT_EQ(m.tasks, 0);
  EXPECT_TRUE(std::isnan(m.geomean_speedup_correct));
  TaskScore t = task(true, false, false, NAN, "");
  m = compute_metrics({&t});
  EXPECT_TRUE(std::isnan(m.p_unseen_given_seen));
  EXPECT_TRUE(std::isnan(m.geomean_speedup_correct));
  EXPECT_DOUBLE_EQ(m.geomean_speedup_all, 1.0);
  auto j = metrics_to_json(m);
  EXPECT_TRUE(j["p_unseen_given_seen"].is_null());
  EXPECT_EQ(j["fast_p"]["1.5"], 0.0);
}

TEST(Metrics, GeomeanOverFurtherReferencesUsesCorrectTasksThatTimedThem) {
  TaskScore a = task(true, true, true, 2.0, "FASTER");
  a.speedup_vs["torch.compile"] = {0.5, NAN, NAN};
  TaskScore b = task(true, true, true, 3.0, "FASTER");
  b.speedup_vs["torch.compile"] = {2.0, NAN, NAN};
  TaskScore c = task(true, true, true, 1.5, "FASTER");  // timed no further reference
  TaskScore wrong = task(true, true, false, 4.0, "FASTER");
  wrong.speedup_vs["torch.compile"] = {8.0, NAN, NAN};  // not correct: left out
  Metrics m = compute_metrics({&a, &b, &c, &wrong});
  ASSERT_EQ(m.geomean_speedup_vs.count("torch.compile"), 1u);
  EXPECT_NEAR(m.geomean_speedup_vs["torch.compile"].first, 1.0, 1e-12);
  EXPECT_EQ(m.geomean_speedup_vs["torch.compile"].second, 2);
  EXPECT_EQ(metrics_to_json(m)["geomean_speedup_vs"]["torch.compile"]["tasks"], 2);
}


// No GPU: every GPU gate skipped, only compilation judged. Nothing that needs a GPU is shown
// as a number (no rate, speedup or points of 0 or 1.0 that would read as a result).
TEST(Metrics, OnlyCompilationJudgedShowsNoGpuNumbers) {
  std::vector<TaskScore> ts = {task(true, false, false, NAN, "", false), task(true, false, false, NAN, "", false),
                               task(false, false, false, NAN, "")};  // this one did not compile: judged
  for (auto& t : ts) t.gates["correct_seen"].outcome = t.compiled ? Outcome::skipped : Outcome::not_run;
  Metrics m = compute_metrics({&ts[0], &ts[1], &ts[2]});
  EXPECT_EQ(m.gpu_judged, 0);
  EXPECT_NEAR(m.compile_rate, 2.0 / 3.0, 1e-12);  // compilation was judged
  for (double x : {m.correct_seen_rate, m.correct_unseen_rate, m.correct_rate, m.generalization_gap,
                   m.geomean_speedup_all})
    EXPECT_TRUE(std::isnan(x));
  auto j = metrics_to_json(m);
  for (const char* k : {"correct_rate", "geomean_speedup_all", "generalization_gap"}) EXPECT_TRUE(j[k].is_null()) << k;
  EXPECT_TRUE(j["fast_p"]["1.0"].is_null());
  EXPECT_EQ(j["gpu_judged"], 0);
  // The task that did not compile is judged without a GPU, at 0 points: the mean is over it alone,
  // so the judged count, its points and the mean agree.
  EXPECT_EQ(j["judged"], 1);
  EXPECT_EQ(ts[2].aka_score, 0);
  EXPECT_EQ(j["aka_score_mean"], 0.0);
  // With nothing judged there is no mean.
  Metrics none = compute_metrics({&ts[0], &ts[1]});
  EXPECT_TRUE(std::isnan(none.aka_score_mean));
}

// Points and the geomean over all tasks leave unjudged tasks out (they have no points).
TEST(Metrics, PointsAreAveragedOverJudgedTasks) {
  std::vector<TaskScore> ts = {task(true, true, true, 2.0, "FASTER"), task(true, false, false, NAN, "", false)};
  Metrics m = compute_metrics({&ts[0], &ts[1]});
  EXPECT_DOUBLE_EQ(m.aka_score_mean, 320.0);
  EXPECT_DOUBLE_EQ(m.geomean_speedup_all, 2.0);
}
