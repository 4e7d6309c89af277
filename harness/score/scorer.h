// Test.xml files in, scores.json content out: reads every file, merges shards, reads each
// gate's result JSON, scores every task and computes suite and overall metrics.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "result_json.h"

namespace arena::score {

// Throws InputError (naming the file and line) for unreadable or malformed input, for a gate
// result file that breaks the result schema (naming the file and what), when no
// <suite>/<task>/<gate> test is found at all, and when the files' correctness gates used
// different fuzz seeds (they are not shards of one run) unless allow_mixed_seeds, which turns
// that into a warning.
// result_dirs: folders of gate results kept apart from their Test.xml (--gate-results), searched
// after each Test.xml's own build folder.
nlohmann::json score_test_xml_files(const std::vector<std::string>& xml_paths, const std::vector<std::string>& result_dirs,
                                    const std::string& run_name, bool allow_mixed_seeds = false);

// What each metric in scores.json means (also shown in summary.md and index.html).
nlohmann::json metric_definitions();

}  // namespace arena::score
