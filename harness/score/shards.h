// Several Test.xml files (ctest -I shards, several machines) merged into one set of gate
// results. A test recorded more than once with the same outcome is a duplicate (the first
// record is used); with different outcomes it is a conflict and counts as failed. A skip
// carries no judgement: a test skipped in one file and run in another takes the run's outcome
// (and is listed as a duplicate with a note). Shards of one run were configured alike: their
// correctness gates record the same fuzz_seed (the seed of the generated unseen configurations)
// in their result files.
#pragma once
#include <map>
#include <set>
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

// The fuzz seeds the result files of a file's correctness gates that ran record (one for a file
// written by one build tree; none where no result records one). result_dirs: as for
// result_path_candidates. Throws InputError for a result file that breaks the schema.
std::set<std::string> fuzz_seeds(const TestXml& file, const std::vector<std::string>& result_dirs);

// "" when every file whose gates record a fuzz seed records the same one; otherwise one line
// saying which seed each file used, e.g. "fuzz seed 111 in a.xml; fuzz seed 222 in b.xml, c.xml".
std::string describe_mixed_fuzz_seeds(const std::vector<TestXml>& files, const std::vector<std::string>& result_dirs);

}  // namespace arena::score
