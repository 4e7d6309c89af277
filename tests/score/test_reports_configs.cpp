// Both reports show the perf configurations with one column per statistic the result schema
// lists (config_statistics()), so a statistic added there reaches summary.md and index.html.
#include <gtest/gtest.h>

#include <string>

#include "report.h"
#include "result_schema.h"

using json = nlohmann::json;

namespace {

// A scored run of one task with one perf configuration whose statistics are 1.25, 2.25, ...
json scores_with_one_config() {
  json config = {{"label", "seen[0]"}, {"params", "N=7"}, {"verdict", "FASTER"},
                 {"speedup", 2.0},     {"ci95_low", 1.9},   {"ci95_high", 2.1}};
  double v = 1.25;
  for (const arena::ConfigStatistic& s : arena::config_statistics()) config[s.key] = v++;
  json task = {{"id", "s/t"}, {"suite", "s"}, {"task", "t"}, {"agent", "none"}, {"compiled", true},
               {"correct_seen", true}, {"correct_unseen", true}, {"correct", true}, {"judged", true},
               {"speedup", 2.0}, {"ci95_low", 1.9}, {"ci95_high", 2.1}, {"verdict", "FASTER"},
               {"fraction_of_peak", 0.5}, {"aka_score", 320.0}, {"errors", json::array()}, {"notes", json::array()},
               {"gates", json::object()}, {"configs", {config}}, {"speedup_vs", json::object()}};
  json metrics = {{"tasks", 1}, {"fast_p", json::object()}};
  return {{"run", "r"}, {"created", ""}, {"inputs", json::array()}, {"warnings", json::array()},
          {"suites", {{"s", metrics}}}, {"overall", metrics}, {"tasks", {task}}, {"conflicts", json::array()},
          {"duplicates", json::array()}, {"definitions", json::object()}, {"notice", nullptr}};
}

}  // namespace

TEST(ReportsConfigs, EveryListedStatisticHasAColumnInBothReports) {
  const json s = scores_with_one_config();
  const std::string md = arena::score::render_summary_markdown(s);
  const std::string html = arena::score::render_index_html(s);
  ASSERT_NE(md.find("## Configurations (perf)"), std::string::npos);
  ASSERT_NE(html.find("<h2>Configurations (perf)</h2>"), std::string::npos);
  for (const arena::ConfigStatistic& st : arena::config_statistics()) {
    EXPECT_NE(md.find(std::string("| ") + st.label + " |"), std::string::npos) << st.label;
    EXPECT_NE(html.find(std::string(">") + st.label + "</th>"), std::string::npos) << st.label;
    EXPECT_NE(md.find(st.description), std::string::npos) << st.key;
  }
  // the values: microseconds as numbers, fractions as percentages
  double v = 1.25;
  for (const arena::ConfigStatistic& st : arena::config_statistics()) {
    char want[32];
    if (st.unit == arena::StatisticUnit::Fraction) std::snprintf(want, sizeof want, "%.1f %%", v * 100);
    else std::snprintf(want, sizeof want, "%.2f", v);
    EXPECT_NE(md.find(std::string(" ") + want + " |"), std::string::npos) << st.key << " " << want;
    EXPECT_NE(html.find(std::string(">") + want + "</td>"), std::string::npos) << st.key << " " << want;
    ++v;
  }
  EXPECT_NE(md.find("| s/t | seen[0] | N=7 | 2.000 [1.900, 2.100] | FASTER |"), std::string::npos) << md;
}
