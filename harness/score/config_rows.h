// The per-configuration columns of the perf gate both reports show, in order: the
// configuration, its speedup and verdict, then one column per statistic the result schema lists
// (config_statistics() in result_schema.h), so a statistic added there shows without a change here.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena::score {

struct ConfigColumn {
  std::string label;
  std::string description;  // "" for the fixed columns
  bool numeric;             // right-aligned in the HTML table
  std::function<std::string(const nlohmann::json& config)> cell;  // one entry of a task's "configs" in scores.json
};

const std::vector<ConfigColumn>& config_columns();

}  // namespace arena::score
