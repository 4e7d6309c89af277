// Where a run's time went: per gate kind, how many tests, their total, mean and longest test
// time (from CTest's <Execution Time>), and per Test.xml the wall time of its testing. Sizes a
// run for a CI slot or a Slurm allocation without reading logs.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctest_xml.h"
#include "gate.h"

namespace arena::score {

// {"by_gate": {<gate>: {tests, total_s, mean_s, max_s, slowest}}, "test_seconds",
//  "untimed_tests"}; tests that never ran or recorded no time are left out of the sums and counted.
nlohmann::json run_time_summary(const std::map<std::string, GateResult>& gates);

// Seconds between a Test.xml's <StartTestTime> and <EndTestTime>; null when either is absent.
nlohmann::json wall_seconds(const TestXml& x);

}  // namespace arena::score
