// arena-task-filter's oracle checks (arena_task_filter.cpp describes each): run the task's
// oracle on its own configurations, on redrawn inputs and on changed params, and list what
// makes the task degenerate.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "task_spec.h"

namespace arena::task_filter {

struct Options {
  int64_t max_elements = int64_t{1} << 21;  // --max-elements: all tensors of a checked configuration
  int max_configs = 4;                      // --max-configs
  double trivial_fraction = 0.9;            // --trivial-fraction
  std::vector<uint64_t> fuzz_seeds = {1, 2, 3};  // the fuzz draws checked besides the low corner
};

// A number as the filter prints it ("%.6g").
std::string fmt(double v);

// Configuration c with param `name` set to `value` (SpecError where that is not a valid one).
Config with_param(const TaskSpec& t, const Config& c, const std::string& name, double value);

// Prints what it found and the "REJECTED: ..." lines, fills result's configs, outputs and
// problems; returns 0 when the task passes, 1 when rejected. A Python oracle without PyTorch
// skips the gate (skip_gate, writing result_path).
int run_oracle_checks(const TaskSpec& t, const std::string& ref_spec, const Options& o,
                      const std::string& result_path, nlohmann::json& result);

}  // namespace arena::task_filter
