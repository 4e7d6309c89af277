// The metric rows both reports show, in order: a label and how to print one metrics object.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena::score {

struct MetricRow {
  std::string label;
  std::function<std::string(const nlohmann::json& metrics)> cell;
};

const std::vector<MetricRow>& metric_rows();

}  // namespace arena::score
