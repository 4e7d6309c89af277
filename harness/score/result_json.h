// Each gate writes its full result as JSON and names the file on its command line
// (--result <path> for arena-correct/arena-perf, -DRESULT=<path> for the compile gate).
// This finds that file, reads it and checks that it belongs to the run the Test.xml records.
#pragma once
#include <string>
#include <vector>

#include "gate.h"

namespace arena::score {

// --map FROM=TO: a result path starting with FROM is looked up under TO instead.
struct PathMap {
  std::string from, to;
};

// The result path named on a CTest command line, or "" when there is none.
std::string result_path_from_command_line(const std::string& command_line);

// Where to look, in order: each mapped path; the same file under the build folder that holds
// the Test.xml (<build>/Testing/<tag>/Test.xml -> <build>/arena/results/...), so a copied
// build tree or an unpacked shard finds its own results; the path as written.
std::vector<std::string> result_path_candidates(const std::string& written, const std::string& test_xml_path,
                                                const std::vector<PathMap>& maps);

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; -1 when it does not parse.
long long parse_utc(const std::string& iso);

// Fills g.result / g.result_path / g.result_problem for a gate that ran. A file that is
// missing, unreadable, written outside the Test.xml's testing window, or that contradicts the
// Test.xml's outcome is not used, and result_problem says why.
void attach_result_json(GateResult& g, const std::vector<PathMap>& maps);

}  // namespace arena::score
