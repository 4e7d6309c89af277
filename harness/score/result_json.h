// Each gate writes its result as JSON in the schema of result_schema.h, at
// <build>/arena/results/<suite>/<task>/<gate>.json. This finds a test's file (by the test's
// name, beside the Test.xml's build folder or in a folder given), reads it into the typed
// result, and checks that it belongs to the run the Test.xml records.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate.h"

namespace arena::score {

// Where to look for test `test_name`'s result, in order: under the build folder that holds the
// Test.xml (<build>/Testing/<tag>/Test.xml -> <build>/arena/results/<test_name>.json), so a
// build tree, a copy of it or an unpacked shard finds its own results; then under each of
// `result_dirs` (--gate-results: results kept apart from their Test.xml).
std::vector<std::string> result_path_candidates(const std::string& test_name, const std::string& test_xml_path,
                                                const std::vector<std::string>& result_dirs);

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; -1 when it does not parse.
long long parse_utc(const std::string& iso);

// Reads `j` (the file at `path`) as gate `gate`'s result into g. Throws InputError naming the
// file when it breaks the schema: no or an unknown schema_version, a required key missing or of
// the wrong type.
void read_gate_result(GateResult& g, const std::string& gate, const nlohmann::json& j, const std::string& path);

// Fills g's result, g.result_path and g.result_problem for a gate that ran. A file that is
// missing, not JSON, written outside the Test.xml's testing window, or that contradicts the
// Test.xml's outcome is not used, and result_problem says why; a file that breaks the schema
// stops the scoring (InputError).
void attach_result_json(GateResult& g, const std::string& test_name, const std::vector<std::string>& result_dirs);

}  // namespace arena::score
