// Several Test.xml files (ctest -I shards, several machines) merged into one set of gate
// results. A test recorded more than once with the same outcome is a duplicate (the first
// record is used); with different outcomes it is a conflict and counts as failed. A skip
// carries no judgement: a test skipped in one file and run in another takes the run's outcome
// (and is listed as a duplicate with a note).
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctest_xml.h"
#include "gate.h"

namespace arena::score {

struct MergeReport {
  nlohmann::json duplicates = nlohmann::json::array();  // {test, outcome, files, note?}
  nlohmann::json conflicts = nlohmann::json::array();   // {test, records: [{file, outcome, detail}]}
  int ignored_tests = 0;                                 // not <suite>/<task>/<gate>, or labelled framework
};

// Keyed by test name. `files` must outlive the result (GateResult::origin points into it).
std::map<std::string, GateResult> merge_gate_tests(const std::vector<TestXml>& files, MergeReport* report);

}  // namespace arena::score
