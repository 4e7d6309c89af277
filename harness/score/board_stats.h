// The board's numbers (docs/board.md): a leaderboard entry's metrics over a set of tasks, the
// geometric mean of speedups with its 95 % interval, ranks decided by intervals, how much of
// the variance in an outcome category and agent explain, and the audit list.
#pragma once
#include <string>
#include <vector>

#include "board_load.h"

namespace arena::score {

struct Interval {
  double est, low, high;  // NaN where unknown
  Interval();
  Interval(double e, double l, double h) : est(e), low(l), high(h) {}
};

// exp(mean ln x_i) with interval exp(mean -/+ 1.96 se), se = sqrt(sum se_i^2) / n and se_i the
// wider half-width of x_i's interval in log space / 1.96 (0 where x_i has no interval): the
// tasks taken as fixed, measurement noise only (as compare.h). NaN when xs is empty.
Interval geomean_interval(const std::vector<Interval>& xs);

struct EntryMetrics {
  int tasks = 0, compiled = 0, correct_seen = 0, correct_unseen = 0, correct = 0, faster = 0, gpu_judged = 0;
  double compile_rate, correct_seen_rate, correct_unseen_rate, correct_rate, faster_rate, median_peak;
  Interval geomean_correct;  // over correct tasks
  Interval geomean_all;      // over GPU-judged tasks, a task that is not correct counting as exactly 1.0
  Interval geomean_vs;       // over correct tasks timed against a further reference
  std::string vs_name;
  EntryMetrics();
};

// Rates over every task given (not correct = 0); speedups and fraction of peak as above. With no
// GPU-judged task, the rates that need a GPU and all speedups are NaN.
EntryMetrics entry_metrics(const std::vector<const BoardTask*>& tasks);

// Rank of each interval: 1 + the number of others whose interval lies wholly above it (their
// low above its high), so entries whose intervals overlap the same leaders share a rank.
// Entries without an estimate come last, sharing the rank after every entry with one.
std::vector<int> interval_ranks(const std::vector<Interval>& xs);

// One outcome y of one task in one run, with its category and agent.
struct Observation {
  std::string category, agent;
  double y;
};
// Each factor's share of the total sum of squares, alone (eta squared: sum over its levels of
// n_level * (mean_level - mean)^2, over sum (y - mean)^2). With unbalanced data the two shares
// overlap, so they need not add up; residual = max(0, 1 - category - agent). NaN (all three)
// with fewer than two observations or no variance.
struct VarianceShares {
  double category, agent, residual;
  int n = 0;
};
VarianceShares variance_shares(const std::vector<Observation>& obs);

struct AuditLimits {
  double speedup = 10;      // correct tasks faster than this
  double peak = 0.9;        // fraction of peak above this
  double kept_error = 2.0;  // kept samples' max relative error above this x the correctness gates' worst,
  double kept_error_floor = 1e-6;  // and above this (float rounding is no finding)
};
struct AuditEntry {
  std::string run_slug, run, agent, task_id, kind, detail;
};
std::vector<AuditEntry> audit_entries(const std::vector<BoardRun>& runs, const AuditLimits& limits);

}  // namespace arena::score
