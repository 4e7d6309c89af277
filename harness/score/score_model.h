// One task's score from its gates: compiled, correct on seen and unseen configurations, the
// speedup with its interval and verdict, fraction of peak, the AgentKernelArena points, and
// the first lines of whatever went wrong.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate.h"

namespace arena::score {

struct ConfigScore {
  std::string label, params, verdict;
  double speedup, ci_low, ci_high;           // NaN where unknown
  std::map<std::string, double> statistics;  // config_statistics() (result_schema.h), by key
};

// The candidate against a second reference timed in the same rounds (torch.compile).
struct SpeedupVs {
  double speedup, ci_low, ci_high;  // NaN where unknown
};

struct GateView {
  Outcome outcome = Outcome::missing;
  std::string detail;
  std::string result_path, result_problem;
  std::vector<std::string> files;                // the Test.xml files that recorded it
  std::map<std::string, double> numbers;         // configs_passed, configs_total, max_abs_err, ...
  double time_s = -1;                            // the test's execution time; -1 where CTest recorded none
};

struct TaskScore {
  std::string id, suite, task;
  // <suite>/<task>/agent: the agent_status it measured (finished, failed, timed_out) when the test
  // passed, else the test's own outcome; "none" when there is no such test.
  std::string agent = "none";
  double agent_seconds;  // NaN unless measured
  std::map<std::string, GateView> gates;
  bool compiled = false, correct_seen = false, correct_unseen = false;
  bool perf_valid = false;  // the perf gate produced a speedup that counts (passed, or failed only as SLOWER)
  bool correct = false;     // correct_seen && correct_unseen && perf_valid
  bool judged = true;       // false when a skipped or absent gate leaves the outcome open
  std::string unjudged_reason;
  std::string skip_reason;  // why its GPU gates were skipped (their first reason), "" if none was
  bool gpu_judged = false;  // a correctness or perf gate ran (not skipped, absent or not run)
  bool candidate_fallback = false;  // no candidate file: the baseline was judged (ARENA_CANDIDATE_FALLBACK)
  double speedup, ci_low, ci_high;  // NaN unless the perf gate measured it
  std::string verdict;              // FASTER, SLOWER, SAME, AMBIGUOUS or ""
  std::string reference = "baseline";            // what the speedup is over ("torch eager" for torch2hip)
  std::map<std::string, SpeedupVs> speedup_vs;   // further references, by name
  double fraction_of_peak;          // lowest candidate fraction of peak over the perf configurations
  std::string device;
  std::map<std::string, std::string> bottleneck;  // side -> class, from the opt-in profile gate
  std::vector<ConfigScore> configs;
  double aka_score = 0;
  std::vector<std::string> errors;  // "<gate>: <line>"
  std::vector<std::string> notes;   // skips, result files missing or not used, inferences
};

// AgentKernelArena's points: 0 not compiled, 20 compiled but not correct, 120 + 100 x speedup correct
// (a task that was not judged has none: null in the JSON).
double aka_points(bool compiled, bool correct, double speedup);

// gates: any of agent, compile, correct_seen, correct_unseen, perf, profile (absent ones are "missing";
// agent and profile are optional and absent when not run).
TaskScore score_task(const std::string& suite, const std::string& task,
                     const std::map<std::string, const GateResult*>& gates);

nlohmann::json task_to_json(const TaskScore& t);


}  // namespace arena::score
