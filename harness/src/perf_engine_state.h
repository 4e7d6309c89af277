// What the perf engine keeps of every configuration and side while it times them, shared by its
// parts: measurement (perf_engine.cpp), the checks of timed launches (perf_post_timing.cpp)
// and the report (perf_report.cpp). Internal to those files.
#pragma once
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "perf_engine.h"

namespace arena {

struct PerfEngine::SideRun {
  Side* side = nullptr;
  int index = 0;                            // 0 baseline, 1 candidate, 2... extra references
  std::vector<std::vector<double>> rounds;  // milliseconds, one vector per round
  std::vector<double> event_us;             // event times of every sample, for the record
  std::unique_ptr<SampleReservoir> kept;    // timed samples checked against the oracle
};

// One comparison of a kept sample: with the oracle, or with the baseline on its inputs.
struct PerfEngine::KeptCheck {
  SideRun* side;
  const KeptSample* k;
  std::string against;
  std::future<HostTensors> expected;
};

struct PerfEngine::ConfigRun {
  Config config;
  size_t index = 0;
  std::string name;  // benchmark prefix, e.g. "seen_0"
  std::vector<SideRun> sides;  // baseline, candidate, extra references; never resized once timing starts
  // Two buffer sets seen by every kernel (each with its own workspace). Kernels alternate
  // between them round by round, so a placement effect of the buffers lands in the
  // round-to-round spread, not in the ratio.
  std::vector<std::unique_ptr<DeviceTensors>> sets[2];  // per side
  std::unique_ptr<StoppingRule> rule;  // this configuration's own (it may keep history)
  std::vector<std::string> inputs_modified;
  std::vector<KeptCheck> kept_checks;  // started once timing is over
  bool done = false;
  SideRun& a() { return sides[0]; }
  SideRun& b() { return sides[1]; }
  int set_for(const SideRun& s) const { return static_cast<int>((s.rounds.size() + s.index) % 2); }
  int set_id(const SideRun& s) const { return static_cast<int>(index) * 2 + set_for(s); }
};

namespace perf_detail {

using Clock = std::chrono::steady_clock;

inline double elapsed_s(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Adds the wall time of a scope to one entry of a tally.
class Spent {
 public:
  Spent(std::map<std::string, double>& tally, const char* what) : slot_(tally[what]), t0_(Clock::now()) {}
  ~Spent() { slot_ += elapsed_s(t0_); }

 private:
  double& slot_;
  Clock::time_point t0_;
};

inline std::vector<double> flatten(const std::vector<std::vector<double>>& rounds) {
  std::vector<double> all;
  for (const auto& r : rounds) all.insert(all.end(), r.begin(), r.end());
  return all;
}

inline std::string side_name(const PerfEngine::SideRun& s) {
  return s.index == 0 ? "baseline" : s.index == 1 ? "candidate" : s.side->role();
}

}  // namespace perf_detail
}  // namespace arena
