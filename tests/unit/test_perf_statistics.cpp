#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "perf_statistics.h"
#include "result_schema.h"
#include "stats.h"

using namespace arena;

TEST(PerfStatistics, StandardRegistryOnKnownData) {
  const SampleSummary s = standard_statistics().summarize({9, 1, 8, 2, 7, 3, 6, 4, 5});
  EXPECT_EQ(s["samples"], 9);
  EXPECT_EQ(s["median"], 5);
  EXPECT_EQ(s["mean"], 5);
  EXPECT_EQ(s["min"], 1);
  EXPECT_EQ(s["max"], 9);
  EXPECT_EQ(s["q1"], 3);
  EXPECT_EQ(s["q3"], 7);
  EXPECT_EQ(s["iqr"], 4);
  EXPECT_DOUBLE_EQ(s["iqr_rel"], 4.0 / 5.0);
  EXPECT_DOUBLE_EQ(s["stdev_rel"], std::sqrt(60.0 / 8.0) / 5.0);

  const SampleSummary t = standard_statistics().summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(t["median"], 4.5);
  EXPECT_DOUBLE_EQ(t["stdev_rel"], std::sqrt(32.0 / 7.0) / 5.0);
  EXPECT_EQ(t["q1"], 4);
  EXPECT_EQ(t["q3"], 5.5);

  const SampleSummary one = standard_statistics().summarize({3});
  EXPECT_EQ(one["stdev_rel"], 0);
  EXPECT_EQ(one["iqr_rel"], 0);
  EXPECT_THROW(standard_statistics().summarize({}), std::invalid_argument);
}

TEST(PerfStatistics, SummaryDescribesItself) {
  const SampleSummary r = standard_statistics().summarize({2, 4, 4, 4, 5, 5, 7, 9});
  const std::string text = r.describe();
  EXPECT_NE(text.find("median = 4.500000 ms (median of the timed samples)"), std::string::npos) << text;
  EXPECT_NE(text.find("iqr_rel = "), std::string::npos);
  EXPECT_NE(text.find(" relative ("), std::string::npos);
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), standard_statistics().all().size());
  for (const auto& s : standard_statistics().all()) EXPECT_FALSE(s.description.empty()) << s.name;
}

TEST(PerfStatistics, UnknownStatisticIsNamed) {
  const SampleSummary r = standard_statistics().summarize({1, 2});
  try {
    r["p99"];
    FAIL() << "no exception";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("'p99'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("median"), std::string::npos) << e.what();
  }
  EXPECT_THROW(standard_statistics().summarize({}), std::invalid_argument);
}

TEST(PerfStatistics, RegistryTakesNewStatisticsAndRefusesBadOnes) {
  StatisticsRegistry reg;
  reg.add({"p90", SampleUnit::Milliseconds, "90th percentile",
           [](const std::vector<double>& sorted) { return sorted_quantile(sorted, 0.9); }});
  const SampleSummary r = reg.summarize({10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0});  // sorted before the statistics
  EXPECT_EQ(r["p90"], 9);
  EXPECT_THROW(reg.add({"p90", SampleUnit::Milliseconds, "again", [](const std::vector<double>&) { return 0.0; }}),
               std::invalid_argument);
  EXPECT_THROW(reg.add({"", SampleUnit::Count, "no name", [](const std::vector<double>&) { return 0.0; }}),
               std::invalid_argument);
  EXPECT_THROW(reg.add({"none", SampleUnit::Count, "no function", nullptr}), std::invalid_argument);
}

TEST(PerfStatistics, ConfigStatisticsComeFromTheRegistry) {
  std::set<std::string> listed;
  for (const auto& s : config_statistics()) listed.insert(s.key);
  std::set<std::string> sourced;
  for (const auto& src : config_statistic_sources()) {
    EXPECT_TRUE(listed.count(src.key)) << src.key << " is not in config_statistics()";
    EXPECT_NO_THROW(standard_statistics().index_of(src.statistic)) << src.statistic;
    sourced.insert(src.key);
  }
  // Every listed statistic is filled: from the samples, or (the fraction of peak) from the roofline.
  for (const auto& key : listed)
    EXPECT_TRUE(sourced.count(key) || key == kFractionOfPeak) << key << " has no source";

  std::map<std::string, double> stats;
  fill_config_statistics(stats, standard_statistics().summarize({0.010, 0.012, 0.011, 0.013, 0.014}), false);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_DOUBLE_EQ(stats.at(kBaselineMedianUs), 12);
  fill_config_statistics(stats, standard_statistics().summarize({0.001, 0.002, 0.003, 0.004, 0.005}), true);
  EXPECT_EQ(stats.size(), 3u);
  EXPECT_DOUBLE_EQ(stats.at(kBaselineMedianUs), 12);
  EXPECT_DOUBLE_EQ(stats.at(kCandidateMedianUs), 3);
  EXPECT_DOUBLE_EQ(stats.at(kCandidateIqrUs), 2);
}
