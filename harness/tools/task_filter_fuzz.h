// arena-task-filter's fuzz checks: the correctness gate's own per-configuration task checks
// (each expected output informative, two input draws giving different outputs) on the fuzz
// domain's low corner and on the configurations that fixed fuzz seeds draw, so that a fuzz
// range allowing a degenerate draw is caught here rather than in an evaluation.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernel_library.h"
#include "task_filter_oracle.h"
#include "task_spec.h"

namespace arena::task_filter {

// Appends a problem per degenerate fuzz configuration (naming it and the fuzz ranges to change),
// prints what was checked, and returns each checked configuration's record for the result.
nlohmann::json check_fuzz(const TaskSpec& t, const ReferenceLibrary& ref, const Options& o,
                          std::vector<std::string>& problems);

}  // namespace arena::task_filter
