// The perf gate's measurement engine (docs/DESIGN.md, "Performance"). Baseline (A) and
// candidate (B), each in worker processes of its own (side.h), on the same buffers: every
// sample draws fresh inputs, poisons outputs and workspace, flushes the caches and times one
// launch by the GPU's own record of the work it ran (activity trace; device events where no
// tracer exists). Google Benchmark interleaves the rounds in random order until a stopping
// rule (stopping_rule.h; by default the speedup's 95 % interval is tight or has plateaued)
// says so, or the time budget ends. A few samples kept at random are checked against the
// oracle afterwards; this process (the judge) runs no kernel code and decides the verdict.
// The engine's parts: measurement (perf_engine.cpp), the checks of timed launches
// (perf_post_timing.cpp), the report (perf_report.cpp, with perf_statistics.h and
// plausibility.h).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache_sweep.h"
#include "device.h"
#include "kernel_library.h"
#include "result_schema.h"
#include "side.h"
#include "stats.h"
#include "stopping_rule.h"
#include "task_spec.h"
#include "tensors.h"
#include "timed_checks.h"

namespace arena {

struct PerfOptions {
  double budget_s = 15;        // wall time for the timed rounds of all configurations
  size_t flush_bytes = 0;      // the cache sweep's size; 0: max(2 x L2, 256 MiB) (cache_sweep.h)
  SweepMode flush_mode = SweepMode::PlatformDefault;
  int samples_per_round = 10;  // K: flushed single-launch samples per kernel per round
  int min_rounds = 16;         // even, like every batch: rounds pair up (RoundLayout::AlternatingSets)
  int rounds_per_batch = 4;
  double warmup_s = 0.3;       // rounds before timing, discarded
  double delta = 0.01;         // verdict threshold (relative), from A/A calibration
  // The per-process effect's standard deviation (log space) added to every interval
  // (with_process_spread in stats.h): the spread of A/A speedups between gate runs that the
  // rounds cannot see, 0.15 % from 92 A/A configuration comparisons on an H100 (docs/DESIGN.md,
  // "Performance").
  double process_spread = 0.0015;
  double kernel_timeout_s = 10;
  double sol_margin = 1.05;    // achieved/peak above this is an error, not a record
  int kept_samples = 3;        // timed samples of the candidate checked against the oracle, per configuration
  uint64_t seed = 12345;       // bootstrap
};

class PerfEngine {
 public:
  // `sides`: the baseline, the candidate, then further references timed in the same rounds
  // (torch.compile beside PyTorch eager), each with its own speedup over the candidate.
  // `rule` decides when a configuration has had rounds enough; each configuration gets its
  // own fresh() copy. Without one: TightOrPlateauRule(opt.min_rounds, opt.seed).
  PerfEngine(const TaskSpec& task, std::vector<Side*> sides, const ReferenceLibrary* reference,
             const arena_device_info& device, PerfOptions opt, std::unique_ptr<StoppingRule> rule = nullptr);
  ~PerfEngine();
  // Buffers, recordings, first launches. Throws on a failed first launch.
  void prepare();
  // Warm-up, then timed rounds through Google Benchmark: all the engine's timing, so a caller
  // holds its GPU for timing (gpu_lock.h) around this call alone.
  void run();
  // Statistics, roofline, speed-of-light and the checks of timed launches, in the result
  // schema (result_schema.h); fills failures().
  PerfReport report();
  const std::vector<std::string>& failures() const { return failures_; }
  // Google Benchmark's own JSON of every batch, merged.
  const nlohmann::json& gbench_json() const { return gbench_; }

  struct SideRun;
  struct ConfigRun;
  struct KeptCheck;
  struct ReportTotals;

 private:
  // Measurement (perf_engine.cpp).
  bool timed_round(ConfigRun& c, SideRun& s, std::vector<double>* samples_ms);
  void warm_up();
  bool config_done(ConfigRun& c);
  std::string batch_filter() const;
  // The checks of timed launches (perf_post_timing.cpp).
  void start_kept_checks(ConfigRun& c);
  void finish_kept_checks(ConfigRun& c, nlohmann::json& checks);
  void check_buffers_after_timing(ConfigRun& c);
  HostTensors baseline_outputs(ConfigRun& c, const KeptSample& k);
  // The report (perf_report.cpp).
  PerfMethod method_record() const;
  PerfConfig config_report(ConfigRun& c, ReportTotals& totals);

  const TaskSpec& task_;
  std::vector<Side*> sides_;
  const ReferenceLibrary* reference_;
  std::map<std::string, std::string> dropped_;  // extra references that could not run, and why
  arena_device_info device_;
  PerfOptions opt_;
  std::unique_ptr<StoppingRule> rule_;
  std::unique_ptr<Stream> stream_;
  SweepPlan sweep_;                             // sized by prepare() from the options and the L2
  std::unique_ptr<DeviceBuffer> flush_buffer_;  // the cache sweep every sample of every side reads, lent to the executors
  std::vector<std::unique_ptr<ConfigRun>> configs_;
  std::vector<std::string> failures_;
  nlohmann::json gbench_ = nlohmann::json::object();
  std::string fatal_;  // a round that failed outright: timing stops
  bool timed_out_ = false;
  double timed_seconds_ = 0;
  int batches_ = 0;
  std::map<std::string, double> spent_s_;  // wall time by step (inputs, recording, rounds...), for the record
  uint64_t salt_ = 0;  // makes every gate's inputs new
  std::string timing_ = "events";
  bool quiet_timing_ = false;  // every timed side on the event clock (event_clock.h)
};

}  // namespace arena
