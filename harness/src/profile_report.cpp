#include "profile_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace arena {

using json = nlohmann::json;

namespace {

const char* kDuration = "gpu__time_duration.sum";
const char* kDramRead = "dram__bytes_read.sum";
const char* kDramWrite = "dram__bytes_write.sum";
const char* kDramPct = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
const char* kSmSol = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
const char* kMemSol = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
const char* kOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
const char* kTheoretical = "sm__maximum_warps_per_active_cycle_pct";
const char* kTensorPct = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active";
// Thread-level instruction counts: FLOPs = 2 x FMA + ADD + MUL per precision.
const char* kFlopCounts[][2] = {
    {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "2"}, {"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "1"},
    {"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "1"}, {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum", "2"},
    {"sm__sass_thread_inst_executed_op_hadd_pred_on.sum", "1"}, {"sm__sass_thread_inst_executed_op_hmul_pred_on.sum", "1"},
    {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "2"}, {"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "1"},
    {"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", "1"}};

std::string stall_metric(const std::string& reason) {
  return "smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio";
}

// One CSV line into fields: quoted fields may hold commas; "" is a literal quote.
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (ch == '"') quoted = false;
      else out.back() += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else if (ch != '\r') {
      out.back() += ch;
    }
  }
  return out;
}

// "1,234.5" (grouped digits) or "n/a" -> value; false when it is not a number.
bool parse_number(std::string s, double& v) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

std::string fixed(double v, int digits) {
  if (v < 0) return "-";
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::string human(double v, const char* unit) {
  if (v < 0) return "-";
  const char* p[] = {"", "K", "M", "G", "T", "P"};
  int i = 0;
  while (v >= 1000 && i < 5) v /= 1000, ++i;
  char b[64];
  std::snprintf(b, sizeof b, "%.3g %s%s", v, p[i], unit);
  return b;
}

}  // namespace

const std::vector<std::string>& profile_stall_reasons() {
  static const std::vector<std::string> r = {"long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle",
                                             "math_pipe_throttle", "wait", "barrier", "membar", "not_selected",
                                             "dispatch_stall", "no_instruction", "branch_resolving", "drain",
                                             "imc_miss", "tex_throttle", "sleeping"};
  return r;
}

const std::vector<std::string>& profile_metrics() {
  static const std::vector<std::string> m = [] {
    std::vector<std::string> v = {kDuration, kDramRead, kDramWrite, kDramPct, kSmSol, kMemSol, kOccupancy,
                                  kTheoretical, kTensorPct, "launch__registers_per_thread",
                                  "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic",
                                  "launch__block_size", "launch__grid_size", "launch__waves_per_multiprocessor"};
    for (const auto& f : kFlopCounts) v.push_back(f[0]);
    for (const auto& r : profile_stall_reasons()) v.push_back(stall_metric(r));
    return v;
  }();
  return m;
}

double KernelProfile::get(const std::string& metric, double dflt) const {
  auto it = metrics.find(metric);
  return it == metrics.end() ? dflt : it->second;
}

std::vector<KernelProfile> parse_ncu_csv(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::vector<KernelProfile> out;
  bool units_skipped = false;
  while (std::getline(in, line)) {
    if (header.empty()) {
      if (line.rfind("\"ID\",", 0) == 0) header = split_csv(line);
      continue;
    }
    if (line.empty() || line[0] != '"') continue;  // the program's own output between rows
    std::vector<std::string> f = split_csv(line);
    if (!units_skipped && !f.empty() && f[0].empty()) {  // the units row: "","","",...
      units_skipped = true;
      continue;
    }
    if (f.size() != header.size()) continue;
    // Only the metrics asked for: the raw page adds every device attribute and roll-up.
    static const std::set<std::string> wanted(profile_metrics().begin(), profile_metrics().end());
    KernelProfile k;
    for (size_t i = 0; i < header.size(); ++i) {
      double v = 0;
      if (header[i] == "Kernel Name") k.name = f[i];
      else if (wanted.count(header[i]) && parse_number(f[i], v)) k.metrics[header[i]] = v;
    }
    out.push_back(std::move(k));
  }
  if (header.empty())
    throw std::runtime_error(what + ": no Nsight Compute CSV table (a header line starting with \"ID\") in the output");
  if (out.empty())
    throw std::runtime_error(what + ": the profiler recorded no kernel (did the launch run any GPU kernel?)");
  return out;
}

SideProfile summarize(const std::string& side, std::vector<KernelProfile> kernels) {
  SideProfile s;
  s.side = side;
  s.kernels = std::move(kernels);
  ProfileSide& sum = s.summary;
  sum.duration_ns = sum.dram_bytes = sum.flops = 0;  // sums over the kernels
  std::map<std::string, double> stall_sum;
  double weighted[6] = {0, 0, 0, 0, 0, 0}, weight[6] = {0, 0, 0, 0, 0, 0};
  const char* pct[6] = {kDramPct, kSmSol, kMemSol, kOccupancy, kTheoretical, kTensorPct};
  for (const auto& k : s.kernels) {
    const double t = std::max(0.0, k.get(kDuration, 0));
    sum.duration_ns += t;
    sum.dram_bytes += std::max(0.0, k.get(kDramRead, 0)) + std::max(0.0, k.get(kDramWrite, 0));
    for (const auto& f : kFlopCounts) sum.flops += std::max(0.0, k.get(f[0], 0)) * std::atof(f[1]);
    for (int i = 0; i < 6; ++i)
      if (k.get(pct[i]) >= 0) weighted[i] += k.get(pct[i]) * t, weight[i] += t;
    for (const auto& r : profile_stall_reasons())
      if (k.get(stall_metric(r)) >= 0) stall_sum[r] += k.get(stall_metric(r)) * t;
  }
  double* dst[6] = {&sum.dram_pct,      &sum.sm_sol_pct,                &sum.mem_sol_pct,
                    &sum.occupancy_pct, &sum.theoretical_occupancy_pct, &sum.tensor_pipe_pct};
  for (int i = 0; i < 6; ++i)
    if (weight[i] > 0) *dst[i] = weighted[i] / weight[i];
  for (const auto& [r, v] : stall_sum)
    if (sum.duration_ns > 0) s.top_stalls.emplace_back(r, v / sum.duration_ns);
  std::sort(s.top_stalls.begin(), s.top_stalls.end(), [](auto& a, auto& b) { return a.second > b.second; });
  if (s.top_stalls.size() > 3) s.top_stalls.resize(3);
  for (const auto& [reason, v] : s.top_stalls) sum.top_stalls[reason] = v;
  for (const auto& k : s.kernels) sum.kernels.push_back({{"name", k.name}, {"metrics", k.metrics}});

  const double mem = std::max(sum.mem_sol_pct, sum.dram_pct), sm = sum.sm_sol_pct;
  char why[256];
  if (sum.duration_ns < 8000) {
    sum.bottleneck = "launch-bound";
    std::snprintf(why, sizeof why, "%.1f us of GPU time in %zu kernel(s): launch and scheduling cost dominates",
                  sum.duration_ns / 1e3, s.kernels.size());
  } else if (mem >= 60 && mem >= sm) {
    sum.bottleneck = "memory-bound";
    std::snprintf(why, sizeof why, "memory at %.0f %% of its peak (SM %.0f %%)", mem, sm);
  } else if (sm >= 60) {
    sum.bottleneck = "compute-bound";
    std::snprintf(why, sizeof why, "SM at %.0f %% of its peak (memory %.0f %%)", sm, mem);
  } else {
    sum.bottleneck = "latency/occupancy-bound";
    std::snprintf(why, sizeof why,
                  "neither memory (%.0f %%) nor SM (%.0f %%) near peak; achieved occupancy %.0f %% (theoretical %.0f %%)%s%s",
                  mem, sm, sum.occupancy_pct, sum.theoretical_occupancy_pct, s.top_stalls.empty() ? "" : ", top stall ",
                  s.top_stalls.empty() ? "" : s.top_stalls[0].first.c_str());
  }
  sum.why = why;
  return s;
}

std::string format_profile(const std::string& title, const std::vector<SideProfile>& sides, const DevicePeaks& peaks) {
  std::ostringstream o;
  o << title << "\n";
  auto row = [&](const std::string& label, auto cell) {
    char b[64];
    std::snprintf(b, sizeof b, "%-27s", label.c_str());
    o << b;
    for (const auto& s : sides) {
      std::snprintf(b, sizeof b, "%-30s", cell(s).c_str());
      o << b;
    }
    o << "\n";
  };
  row("", [](const SideProfile& s) { return s.side; });
  row("kernels", [](const SideProfile& s) { return std::to_string(s.kernels.size()); });
  row("duration", [](const SideProfile& s) { return fixed(s.summary.duration_ns / 1e3, 2) + " us"; });
  row("DRAM bandwidth", [&](const SideProfile& s) {
    const double bw = s.summary.duration_ns > 0 ? s.summary.dram_bytes / (s.summary.duration_ns * 1e-9) : -1;
    return human(bw, "B/s") + (peaks.bytes_per_s > 0 && bw >= 0 ? " (" + fixed(100 * bw / peaks.bytes_per_s, 1) + " % pk)" : "");
  });
  row("FLOP/s (CUDA cores)", [&](const SideProfile& s) {
    const double f = s.summary.duration_ns > 0 ? s.summary.flops / (s.summary.duration_ns * 1e-9) : -1;
    return human(f, "FLOP/s") + (peaks.fp32_flops > 0 && f >= 0 ? " (" + fixed(100 * f / peaks.fp32_flops, 1) + " % fp32)" : "");
  });
  row("tensor pipe active", [](const SideProfile& s) { return fixed(s.summary.tensor_pipe_pct, 1) + " %"; });
  row("SM / memory SOL", [](const SideProfile& s) {
    const ProfileSide& sum = s.summary;
    return fixed(sum.sm_sol_pct, 1) + " % / " + fixed(std::max(sum.mem_sol_pct, sum.dram_pct), 1) + " %";
  });
  row("occupancy ach / theor", [](const SideProfile& s) {
    return fixed(s.summary.occupancy_pct, 1) + " % / " + fixed(s.summary.theoretical_occupancy_pct, 1) + " %";
  });
  // Resources of the longest kernel: the one worth tuning.
  auto longest = [](const SideProfile& s) -> const KernelProfile& {
    return *std::max_element(s.kernels.begin(), s.kernels.end(), [](auto& a, auto& b) {
      return a.get(kDuration, 0) < b.get(kDuration, 0);
    });
  };
  row("longest kernel", [&](const SideProfile& s) { return longest(s).name.substr(0, 28); });
  row("  regs/thread, smem/block", [&](const SideProfile& s) {
    const auto& k = longest(s);
    const double smem = std::max(0.0, k.get("launch__shared_mem_per_block_static", 0)) +
                        std::max(0.0, k.get("launch__shared_mem_per_block_dynamic", 0));
    return fixed(k.get("launch__registers_per_thread"), 0) + ", " + fixed(smem, 0) + " B";
  });
  row("  block x grid, waves", [&](const SideProfile& s) {
    const auto& k = longest(s);
    return fixed(k.get("launch__block_size"), 0) + " x " + fixed(k.get("launch__grid_size"), 0) + ", " +
           fixed(k.get("launch__waves_per_multiprocessor"), 2);
  });
  for (size_t i = 0; i < 3; ++i)
    row(i == 0 ? "top stalls (per issue)" : "", [&](const SideProfile& s) {
      return i < s.top_stalls.size() ? s.top_stalls[i].first + " " + fixed(s.top_stalls[i].second, 2) : std::string();
    });
  row("bottleneck", [](const SideProfile& s) { return s.summary.bottleneck; });
  for (const auto& s : sides) o << s.side << ": " << s.summary.bottleneck << ": " << s.summary.why << "\n";
  return o.str();
}

ProfileResult profile_result(const std::vector<SideProfile>& sides, const DevicePeaks& peaks) {
  ProfileResult r;
  r.header.gate = "profile";
  r.header.status = Status::Passed;
  r.device = peaks.name;
  r.peak_bytes_per_s = peaks.bytes_per_s;
  r.peak_fp32_flops = peaks.fp32_flops;
  for (const auto& s : sides) r.sides[s.side] = s.summary;
  return r;
}

}  // namespace arena
