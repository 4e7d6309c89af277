// What a profiler measured of one side's kernels (Nsight Compute's raw CSV page), condensed
// into a short report and one bottleneck class per side. CPU-only: parsing and judging are
// separate from running the profiler, so they are tested on recorded output.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "result_schema.h"

namespace arena {

// The metrics profile.sh asks Nsight Compute for (names with their roll-ups), in one place.
const std::vector<std::string>& profile_metrics();
// Stall reasons reported by name (metric smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio).
const std::vector<std::string>& profile_stall_reasons();

struct KernelProfile {
  std::string name;
  std::map<std::string, double> metrics;  // metric name -> value in base units (ns, bytes, %)
  double get(const std::string& metric, double dflt = -1) const;
};

// Parses `ncu --csv --page raw --print-units base` output: the first header line that starts
// with "ID", its units line, then one row per profiled kernel. Lines the profiler or the
// program printed around it are skipped. Throws std::runtime_error naming `what` when no
// kernel row is present.
std::vector<KernelProfile> parse_ncu_csv(const std::string& text, const std::string& what);

struct SideProfile {
  std::string side;  // "candidate", "baseline"
  std::vector<KernelProfile> kernels;
  std::vector<std::pair<std::string, double>> top_stalls;  // reason, warps stalled per issue; the largest first
  // What the profile gate records of the side, in the result schema: totals over the kernels,
  // duration-weighted percentages of peak, the stalls and kernels above, the bottleneck class
  // and the sentence behind it.
  ProfileSide summary;
};

// Sums and weights the kernels of one side and classifies it:
//   launch-bound         total GPU time under 8 us (launch and scheduling dominate)
//   memory-bound         memory speed-of-light >= 60 % and >= the SM's
//   compute-bound        SM speed-of-light >= 60 % and above memory's
//   latency/occupancy-bound  neither unit above 60 %: stalls, too few warps or too little work
SideProfile summarize(const std::string& side, std::vector<KernelProfile> kernels);

// Peaks of the device (bytes/s, fp32 FLOP/s), for achieved-vs-peak columns.
struct DevicePeaks {
  std::string name;
  double bytes_per_s = 0, fp32_flops = 0;
};

// The short, stable text report (one column per side) and the profile gate's result (its
// header says passed; the caller stamps the times).
std::string format_profile(const std::string& title, const std::vector<SideProfile>& sides, const DevicePeaks& peaks);
ProfileResult profile_result(const std::vector<SideProfile>& sides, const DevicePeaks& peaks);

}  // namespace arena
