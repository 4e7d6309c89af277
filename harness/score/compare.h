// A/B comparison of two scored runs (two scores.json files).
//
// Per task: correctness changes first (a task that is correct in one run and not in the
// other is better or worse outright). When both are correct, the speedups are compared on the
// log scale: d = ln(speedup_B) - ln(speedup_A), each run's standard error taken from its 95 %
// interval as the wider half-width in log space / 1.96, combined as sqrt(se_A^2 + se_B^2);
// the ratio B/A has the 95 % interval exp(d -/+ 1.96 se). Better when that interval lies
// above 1 + delta, worse when it lies below 1 - delta, otherwise no detectable change (delta
// = 0.01 by default, the perf gate's own margin). Both runs measure against the same
// baseline kernel, so the ratio of speedups is the ratio of the candidates' speeds.
//
// Per suite and overall: the same test on the mean log ratio over tasks correct in both runs
// (standard error sqrt(sum se_i^2) / n: measurement noise only, the tasks are taken as fixed),
// counts of better / worse / unchanged tasks, and each metric's change.
#pragma once
#include <nlohmann/json.hpp>

namespace arena::score {

nlohmann::json compare_runs(const nlohmann::json& a, const nlohmann::json& b, double delta = 0.01);

}  // namespace arena::score
