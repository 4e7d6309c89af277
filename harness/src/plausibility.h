// Is a timing physically possible (docs/DESIGN.md, "Performance")? The speed-of-light checks
// compare what a side's median time implies (bytes moved and FLOPs per second, by the task's
// cost model) with the device's peaks: a kernel faster than the memory system or the ALUs
// allow read cached data, skipped work or has a wrong cost model. Pure functions of numbers;
// the checks of timed launches themselves (kept samples, red zones) run in the engine
// (perf_post_timing.cpp).
#pragma once
#include <string>
#include <vector>

namespace arena {

struct DevicePeaks {
  double bytes_per_s = 0;
  double fp32_flops = 0;
};

// The task's cost model on one configuration (task.json's cost expressions).
struct CostModel {
  double bytes = 0;
  double flops = 0;
  bool compute_fp32 = false;  // compute-bound in fp32: FLOP/s count toward the peak and are checked
  // Written bytes that can still sit in the last-level cache when the launch ends (the outputs,
  // up to the cache's size): written-back later, they need not cross the memory bus within the
  // timed span, so the speed-of-light check does not count them.
  double writes_cache_can_hold = 0;
};

struct Roofline {
  double bytes_per_s = 0, flops_per_s = 0;
  double fraction_of_peak_bw = 0, fraction_of_peak_fp32 = 0;
  double fraction_of_peak = 0;  // bandwidth's, or fp32's where larger and the task is compute-bound
};

Roofline roofline(double median_ms, const CostModel& cost, const DevicePeaks& peaks);

// Failure messages, bandwidth first, for a side (`who`) whose median on configuration
// `config` exceeds `margin` times a peak; empty when the timing is credible. The bandwidth
// check counts the bytes that must cross the memory bus during the launch: cost.bytes less
// cost.writes_cache_can_hold.
std::vector<std::string> speed_of_light_failures(const std::string& who, const std::string& config, double median_ms,
                                                 const CostModel& cost, const DevicePeaks& peaks, double margin);

}  // namespace arena
