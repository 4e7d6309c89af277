// Suite and overall metrics over task scores. Every task stays in every denominator
// (failed, crashed, timed-out, not-run and unjudged ones included).
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "score_model.h"

namespace arena::score {

extern const std::vector<double> kFastP;  // 1.0, 1.5, 2.0

struct Metrics {
  int tasks = 0;
  int judged = 0, unjudged = 0;     // unjudged: a skipped (no GPU) or absent gate left the outcome open
  int gpu_judged = 0;               // tasks with a correctness or perf gate that ran; 0: only compilation
                                    // was judged, and every rate and speedup below is NaN (null)
  int skipped_gates = 0;            // gates that exited 77 (no GPU)
  int compiled = 0, correct_seen = 0, correct_unseen = 0, correct_both = 0;
  int correct = 0;                  // seen and unseen correct and a speedup that counts
  int faster = 0;                   // correct with verdict FASTER
  int failed_gates = 0, timeouts = 0, crashes = 0, not_run_gates = 0, conflicts = 0;
  double compile_rate = 0, correct_seen_rate = 0, correct_unseen_rate = 0, correct_rate = 0;
  double p_unseen_given_seen;       // NaN when no task is correct on seen
  double generalization_gap = 0;    // correct_seen_rate - correct_unseen_rate
  double geomean_speedup_correct;   // over correct tasks only; NaN when none
  double geomean_speedup_all;       // over judged tasks, a task that is not correct counts as 1.0
  // Over correct tasks that timed a further reference (torch.compile): name -> (geomean, tasks).
  std::map<std::string, std::pair<double, int>> geomean_speedup_vs;
  std::vector<double> fast_p;       // per kFastP: share of all tasks correct with speedup > p (p=1: verdict FASTER)
  double aka_score_mean = 0;        // mean AgentKernelArena points over judged tasks (NaN when none); without
                                    // a GPU the judged tasks are those that did not compile (0 points each)
};

Metrics compute_metrics(const std::vector<const TaskScore*>& tasks);
// fast_p at any threshold by the point estimate alone (the HTML curve); p = 1.0 in Metrics uses the verdict.
double fast_p_point(const std::vector<const TaskScore*>& tasks, double p);
nlohmann::json metrics_to_json(const Metrics& m);

}  // namespace arena::score
