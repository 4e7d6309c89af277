// Timing statistics for a paired performance comparison of a baseline A and a candidate B.
// Timing is done in rounds; each round holds several samples of A and several of B
// (milliseconds), taken close together so that slow drift of the machine affects both alike.
// Each round yields one log ratio ln(median A_j / median B_j); the units of the estimate (each
// round, or each pair of rounds: RoundLayout) give r_j, treated as independent and identically
// distributed, and the speedup of B over A is exp(mean r_j).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "result_schema.h"

namespace arena {

// All of these throw std::invalid_argument on an empty sample.
double median(std::vector<double> v);
// The p-quantile (0 <= p <= 1) interpolating linearly between order statistics at
// h = (n - 1) p (the common "type 7" definition; quantile(v, 0.5) is the median).
double quantile(std::vector<double> v, double p);
// The same on an already sorted, non-empty sample (not checked).
double sorted_quantile(const std::vector<double>& sorted, double p);
// Arithmetic mean of a non-empty sample (not checked).
double mean_of(const std::vector<double>& v);
// Sample standard deviation (n - 1 denominator); 0 for fewer than two values.
double sample_stdev(const std::vector<double>& v);

// Two-sided 95 % quantile of Student's t (the 0.975 quantile): a table for dof <= 30, a
// Cornish-Fisher expansion around the normal quantile beyond (error below 1e-7). dof >= 1.
double student_t_975(int dof);

struct SpeedupEstimate {
  int rounds = 0;
  int units = 0;                        // independent values the interval rests on (see RoundLayout)
  double speedup = 0;                   // exp(mean_j r_j) over units j: > 1 means B is faster
  double speedup_median_of_rounds = 0;  // exp(median_j r_j)
  double ci_low = 0, ci_high = 0;       // 95 %: the wider of the t and bootstrap intervals
  double t_low = 0, t_high = 0;         // t interval on the mean log ratio
  double boot_low = 0, boot_high = 0;   // percentile bootstrap over units (NaN if not computed)
  double log_half_width = 0;            // half-width of the chosen interval in log space
  double stat_se = 0;                   // log-space standard error of the rounds alone
  double process_sd = 0;                // the process term in the interval (with_process_spread)
  std::string ci_method;                // "t", "bootstrap", or "insufficient" (< 2 rounds)
};

// How a comparison's rounds were run. Independent: every round is one unit of the estimate.
// AlternatingSets: round j of each side ran on buffer set j % 2 of that side's two (the perf
// engine's layout, so that a placement effect lands in the spread, not in the ratio); the units
// are consecutive pairs of rounds, whose mean log ratio sees both sets once and so cancels a
// placement effect, instead of widening the interval by it. A trailing unpaired round is left out.
enum class RoundLayout { Independent, AlternatingSets };

// a_rounds[j] and b_rounds[j] are the samples of round j. Throws std::invalid_argument when
// the round counts differ, a round is empty, a round's median is not positive and finite, or
// bootstrap_resamples < 1. The bootstrap is deterministic for a given seed. With fewer than 2
// units the interval is [0, inf] and ci_method is "insufficient".
SpeedupEstimate estimate_speedup(const std::vector<std::vector<double>>& a_rounds,
                                 const std::vector<std::vector<double>>& b_rounds,
                                 uint64_t bootstrap_seed, int bootstrap_resamples = 2000,
                                 RoundLayout layout = RoundLayout::Independent);

// Adds the spread of the per-process effect to an estimate's interval. Two identical kernels,
// each timed in its own worker process, differ by a small amount that is constant within one
// gate run and changes from run to run (something of each process's own, not the buffers): the
// rounds cannot see it, so an interval from them alone is too narrow for what a rerun would
// find. process_sd is that effect's standard deviation in log space, known from A/A runs, not
// from these rounds. The standard errors add in quadrature, and the t quantile takes the
// Welch-Satterthwaite degrees of freedom with the process term's as infinite. Sets ci_low,
// ci_high, log_half_width and process_sd; the t and bootstrap bounds stay those of the rounds.
// An insufficient estimate, or process_sd 0, comes back unchanged. Throws std::invalid_argument
// on a negative or non-finite process_sd.
SpeedupEstimate with_process_spread(SpeedupEstimate e, double process_sd);

// The verdict of an interval (Verdict, decide) is part of the result schema: result_schema.h.

// Combines per-configuration estimates into one: the speedup is the geometric mean of the
// speedups. The rounds' standard errors (stat_se) are independent across configurations; the
// mean's is sqrt(sum stat_se_i^2) / k. A process term is not: the same two processes time every
// configuration, so the largest process_sd is added whole, se^2 = sum stat_se_i^2 / k^2 + P^2.
// The interval is exp(mean ln s_i +- t_975(dof) se) with Welch-Satterthwaite degrees of freedom
// (the process term's infinite). rounds is the
// smallest per-configuration count, speedup_median_of_rounds the geometric mean of theirs,
// ci_method "t", boot_low/boot_high NaN. If any input is "insufficient", so is the result.
// Throws std::invalid_argument on an empty list.
SpeedupEstimate combine(const std::vector<SpeedupEstimate>& per_config);

// Parts of the perf engine's stopping rule (stopping_rule.h): the interval is tight enough, or
// no longer getting tighter.
bool ci_is_tight(double log_half_width, double target);  // log_half_width < target
// True when the last 6 half-widths (5 rounds of change) are finite, positive and all within
// 5 % of the smallest of them.
bool ci_has_plateaued(const std::vector<double>& half_width_history);

}  // namespace arena
