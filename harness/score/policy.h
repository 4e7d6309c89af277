// The exit-code policy for CI (arena-score --fail-on): which outcomes of a scored run make
// arena-score exit 3 after writing the run.
//   SLOWER      a task's perf verdict is SLOWER
//   INCORRECT   a judged task is not correct (did not compile, failed a correctness gate, or
//               its perf gate broke other than by a confirmed slowdown)
//   UNJUDGED    a task could not be judged (GPU gates skipped or absent)
//   NOT_FASTER  a correct task's verdict is not FASTER (SAME, AMBIGUOUS or SLOWER)
#pragma once
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena::score {

// Parses "SLOWER,INCORRECT" (case-insensitive, comma- or space-separated); throws
// std::invalid_argument naming an unknown word.
std::set<std::string> parse_fail_on(const std::string& text);

// One line per task that breaks the policy: "<condition>: <task> (<why>)".
std::vector<std::string> policy_violations(const nlohmann::json& scores, const std::set<std::string>& fail_on);

}  // namespace arena::score
