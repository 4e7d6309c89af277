// The perf engine's result (docs/DESIGN.md, "Performance" and "Results"): the method, every
// configuration's speedup and sides' statistics (perf_statistics.h), the speed-of-light
// checks (plausibility.h) and the checks of timed launches, in the result schema
// (result_schema.h).
#include <algorithm>

#include "perf_engine_state.h"
#include "perf_statistics.h"
#include "plausibility.h"

namespace arena {

using json = nlohmann::json;
using perf_detail::flatten;
using perf_detail::side_name;
using perf_detail::Spent;

// What the configurations add to the gate's totals.
struct PerfEngine::ReportTotals {
  std::vector<SpeedupEstimate> estimates;
  std::map<std::string, std::vector<SpeedupEstimate>> extra_estimates;
  std::vector<double> event_overheads;
};

namespace {

SpeedupInterval interval(const SpeedupEstimate& e, double delta) {
  return {e.speedup, e.ci_low, e.ci_high, decide(e.ci_low, e.ci_high, delta)};
}

// One side's samples as the result schema records them.
SideTiming side_timing(const SampleSummary& s, const std::vector<double>& samples_ms, const Roofline& r) {
  SideTiming t;
  t.samples = static_cast<int64_t>(s["samples"]);
  t.median_ms = s["median"];
  t.mean_ms = s["mean"];
  t.min_ms = s["min"];
  t.max_ms = s["max"];
  t.q1_ms = s["q1"];
  t.q3_ms = s["q3"];
  t.stdev_rel = s["stdev_rel"];
  t.iqr_rel = s["iqr_rel"];
  t.bytes_per_s = r.bytes_per_s;
  t.flops_per_s = r.flops_per_s;
  t.fraction_of_peak_bw = r.fraction_of_peak_bw;
  t.fraction_of_peak_fp32 = r.fraction_of_peak_fp32;
  t.fraction_of_peak = r.fraction_of_peak;
  t.samples_ms = samples_ms;
  return t;
}

}  // namespace

PerfMethod PerfEngine::method_record() const {
  PerfMethod m;
  m.flush_bytes = static_cast<int64_t>(sweep_.bytes);
  m.flush_mode = sweep_.device_mode();
  m.flush = sweep_.description();
  m.inputs = "drawn afresh on the device for every sample; outputs and workspace poisoned";
  m.timing = timing_;
  m.samples_per_round = opt_.samples_per_round;
  m.min_rounds = opt_.min_rounds;
  m.warmup_s = opt_.warmup_s;
  m.budget_s = opt_.budget_s;
  m.timed_seconds = timed_seconds_;
  m.timed_out = timed_out_;
  m.batches = batches_;
  m.delta = opt_.delta;
  m.process_spread = opt_.process_spread;
  m.kept_samples = opt_.kept_samples;
  m.interleaving = "Google Benchmark random interleaving of repetitions (rounds)";
  return m;
}

PerfConfig PerfEngine::config_report(ConfigRun& c, ReportTotals& totals) {
  PerfConfig cj;
  cj.label = c.config.label;
  cj.params = c.config.describe();
  CostModel cost;
  cost.bytes = task_.cost_bytes.eval_double(c.config.bindings);
  cost.flops = task_.cost_flops.eval_double(c.config.bindings);
  cost.compute_fp32 = task_.cost_compute == "fp32";
  double written = 0;
  for (const TensorSpec& ts : task_.tensors)
    if (ts.writes()) written += static_cast<double>(task_.numel(ts, c.config)) * dtype_size(ts.dtype);
  cost.writes_cache_can_hold = std::min({written, static_cast<double>(device_.l2_bytes), cost.bytes});
  const DevicePeaks peaks{device_.peak_bytes_per_s, device_.peak_fp32_flops};
  bool complete = true;
  for (SideRun& s : c.sides) complete &= !s.rounds.empty() && s.rounds.size() == c.a().rounds.size();
  if (!complete) {
    cj.error = "not timed: " + (fatal_.empty() ? std::string("no rounds") : fatal_);
    return cj;
  }
  SpeedupEstimate e = with_process_spread(
      estimate_speedup(c.a().rounds, c.b().rounds, opt_.seed, 2000, RoundLayout::AlternatingSets), opt_.process_spread);
  totals.estimates.push_back(e);
  cj.rounds_se = e.stat_se;  // what a calibration of the process term needs
  cj.speedup = interval(e, opt_.delta);
  const Verdict v = cj.speedup.verdict;
  cj.speedup_median_of_rounds = e.speedup_median_of_rounds;
  cj.ci_method = e.ci_method;
  cj.rounds = e.rounds;
  cj.bytes = cost.bytes;
  cj.flops = cost.flops;
  for (SideRun& s : c.sides) {
    const std::vector<double> samples = flatten(s.rounds);
    const SampleSummary sum = standard_statistics().summarize(samples);
    const double median_ms = sum["median"];
    SideTiming sj = side_timing(sum, samples, roofline(median_ms, cost, peaks));
    if (!s.event_us.empty()) {
      sj.event_median_us = median(s.event_us);
      totals.event_overheads.push_back(median(s.event_us) - median_ms * 1e3);
    }
    for (auto& f : speed_of_light_failures(side_name(s), c.config.label, median_ms, cost, peaks, opt_.sol_margin))
      failures_.push_back(std::move(f));
    if (s.index == 0 || s.index == 1) {
      fill_config_statistics(cj.statistics, sum, s.index == 1);
      if (s.index == 0) {
        cj.baseline = sj;
      } else {
        cj.statistics[kFractionOfPeak] = sj.fraction_of_peak;
        cj.candidate = sj;
      }
      continue;
    }
    // An extra reference (torch.compile): its own speedup over the candidate, same rounds.
    SpeedupEstimate x = with_process_spread(
        estimate_speedup(s.rounds, c.b().rounds, opt_.seed, 2000, RoundLayout::AlternatingSets), opt_.process_spread);
    totals.extra_estimates[s.side->role()].push_back(x);
    sj.name = s.side->role();
    sj.vs_candidate = interval(x, opt_.delta);
    cj.references.push_back(sj);
  }
  json checks = json::array();
  {
    Spent spent(spent_s_, "kept_checks_s");
    finish_kept_checks(c, checks);
  }
  check_buffers_after_timing(c);
  cj.post_timing_checks = checks;
  if (v == Verdict::Slower)
    failures_.push_back("candidate is slower on " + c.config.label + " (speedup " + std::to_string(e.speedup) +
                        ", 95% CI [" + std::to_string(e.ci_low) + ", " + std::to_string(e.ci_high) + "])");
  return cj;
}

PerfReport PerfEngine::report() {
  auto all_timed = [&](const std::string& how) {
    for (Side* s : sides_)
      if (s->describe().value("timing", "") != how) return false;
    return true;
  };
  if (quiet_timing_)
    timing_ = "device events around one launch with the activity trace's kernel records off (they slow some "
              "kernels), less the events' own overhead (event time minus activity span on traced audit samples "
              "of the same rounds), after a cache flush";
  else if (all_timed("GPU activity span (CUPTI)"))
    timing_ = "the GPU's own start and end of the launch's work (activity trace), after a cache flush";
  else
    timing_ = "device events around one launch, after a cache flush";
  PerfReport out;
  out.method = method_record();
  {
    Spent spent(spent_s_, "kept_checks_s");
    for (auto& c : configs_) start_kept_checks(*c);
  }
  ReportTotals totals;
  for (auto& c : configs_) out.configs.push_back(config_report(*c, totals));
  out.baseline_name = sides_[0]->role();
  for (const auto& [name, why] : dropped_) out.references_dropped[name] = why;
  if (totals.estimates.empty()) {
    out.speedup.verdict = Verdict::NotTimed;
    if (failures_.empty()) failures_.push_back("no configuration was timed");
    return out;
  }
  out.speedup = interval(combine(totals.estimates), opt_.delta);
  out.aggregate = "geometric mean over seen configurations; log-space standard errors combined";
  out.method.spent_s = spent_s_;
  out.method.event_overhead_us = totals.event_overheads.empty() ? 0.0 : median(totals.event_overheads);
  for (const auto& [name, xs] : totals.extra_estimates) out.speedup_vs[name] = interval(combine(xs), opt_.delta);
  return out;
}

}  // namespace arena
