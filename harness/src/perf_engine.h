// The perf gate's measurement engine (DESIGN §7): baseline (A) and candidate (B) in one
// process, each on its own buffers, timed by device events around a single launch after a
// cache flush, interleaved in random order by Google Benchmark over rounds, until the
// speedup's 95 % interval is tight, has plateaued, or the time budget ends.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "device.h"
#include "kernel_library.h"
#include "stats.h"
#include "task_spec.h"
#include "tensors.h"

namespace arena {

struct PerfOptions {
  double budget_s = 15;        // wall time for the timed rounds of all configurations
  size_t flush_bytes = 0;      // 0: max(2 x L2, 256 MiB)
  int samples_per_round = 10;  // K: flushed single-launch samples per kernel per round
  int min_rounds = 15;
  int rounds_per_batch = 5;
  double warmup_s = 0.3;       // alternating flushed launches before timing, discarded
  double delta = 0.01;         // verdict threshold (relative), from A/A calibration
  double kernel_timeout_s = 10;
  double sol_margin = 1.05;    // achieved/peak above this is an error, not a record
  uint64_t seed = 12345;       // bootstrap
};

class PerfEngine {
 public:
  // `extras` are further references timed in the same rounds (torch.compile beside PyTorch
  // eager); each gets its own speedup over the candidate.
  PerfEngine(const TaskSpec& task, const KernelLibrary& baseline, const KernelLibrary& candidate,
             const ReferenceLibrary* reference, const arena_device_info& device, PerfOptions opt,
             std::vector<const KernelLibrary*> extras = {});
  ~PerfEngine();
  // Buffers, first launches, cache and clock warm-up. Throws on a failed first launch.
  void prepare();
  // Timed rounds through Google Benchmark.
  void run();
  // Statistics, roofline, speed-of-light and post-timing validation; fills failures().
  nlohmann::json report();
  const std::vector<std::string>& failures() const { return failures_; }
  // Google Benchmark's own JSON of every batch, merged.
  const nlohmann::json& gbench_json() const { return gbench_; }

  struct Side;
  struct ConfigRun;

 private:
  struct BufferSet;
  double sample_ms(Side& side, BufferSet& set);
  void warm_up();
  double event_floor_us();
  bool config_done(ConfigRun& c);
  std::string batch_filter() const;

  const TaskSpec& task_;
  const KernelLibrary& baseline_;
  const KernelLibrary& candidate_;
  const ReferenceLibrary* reference_;
  std::vector<const KernelLibrary*> extras_;
  std::map<std::string, std::string> dropped_;  // extra references that could not run, and why
  arena_device_info device_;
  PerfOptions opt_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<Event> start_, stop_;
  std::unique_ptr<DeviceBuffer> flush_;
  std::vector<std::unique_ptr<ConfigRun>> configs_;
  std::vector<std::string> failures_;
  nlohmann::json gbench_ = nlohmann::json::object();
  bool timed_out_ = false;
  double timed_seconds_ = 0;
  double floor_us_ = 0;
  int batches_ = 0;
};

}  // namespace arena
