#include "plausibility.h"

#include <algorithm>

namespace arena {

Roofline roofline(double median_ms, const CostModel& cost, const DevicePeaks& peaks) {
  const double secs = median_ms / 1e3;
  Roofline r;
  r.bytes_per_s = cost.bytes / secs;
  r.flops_per_s = cost.flops / secs;
  r.fraction_of_peak_bw = r.bytes_per_s / peaks.bytes_per_s;
  r.fraction_of_peak_fp32 = r.flops_per_s / peaks.fp32_flops;
  r.fraction_of_peak = std::max(r.bytes_per_s / peaks.bytes_per_s, cost.compute_fp32 ? r.flops_per_s / peaks.fp32_flops : 0.0);
  return r;
}

std::vector<std::string> speed_of_light_failures(const std::string& who, const std::string& config, double median_ms,
                                                 const CostModel& cost, const DevicePeaks& peaks, double margin) {
  const Roofline r = roofline(median_ms, cost, peaks);
  std::vector<std::string> out;
  const double must_move = std::max(0.0, cost.bytes - cost.writes_cache_can_hold);
  const double must_move_per_s = median_ms > 0 ? must_move / (median_ms * 1e-3) : 0;
  if (must_move_per_s > margin * peaks.bytes_per_s)
    out.push_back(who + " on " + config + ": median " + std::to_string(median_ms * 1e3) + " us moves " +
                  std::to_string(must_move / 1e9) + " GB at " + std::to_string(must_move_per_s / 1e9) +
                  " GB/s, above the device's peak " + std::to_string(peaks.bytes_per_s / 1e9) +
                  " GB/s: faster than the memory system allows (cached data, skipped work or a wrong cost model)");
  if (cost.compute_fp32 && r.flops_per_s > margin * peaks.fp32_flops)
    out.push_back(who + " on " + config + ": " + std::to_string(r.flops_per_s / 1e12) +
                  " TFLOP/s is above the device's fp32 peak " + std::to_string(peaks.fp32_flops / 1e12) +
                  " TFLOP/s: not credible");
  return out;
}

}  // namespace arena
