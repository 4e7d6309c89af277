// Test.xml files in, scores.json content out: reads every file, merges shards, reads each
// gate's result JSON, scores every task and computes suite and overall metrics.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "result_json.h"

namespace arena::score {

// Throws InputError (naming the file and line) for unreadable or malformed input, when no
// <suite>/<task>/<gate> test is found at all, and when the files' correctness gates used
// different fuzz seeds (they are not shards of one run) unless allow_mixed_seeds, which turns
// that into a warning.
nlohmann::json score_test_xml_files(const std::vector<std::string>& xml_paths, const std::vector<PathMap>& maps,
                                    const std::string& run_name, bool allow_mixed_seeds = false);

// What each metric in scores.json means (also shown in summary.md and index.html).
nlohmann::json metric_definitions();

}  // namespace arena::score
