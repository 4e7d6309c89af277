// The state arena-correct's gate keeps while it checks a candidate (tools/arena_correct.cpp),
// and what tools/arena_correct_oracle.cpp does for it: the trials' inputs and the oracle's
// outputs, prepared on other threads and kept in the oracle cache (docs/DESIGN.md, "Correctness").
#pragma once

#include <chrono>
#include <filesystem>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gate_phases.h"
#include "gate_report.h"
#include "gate_workers.h"
#include "gpu_lock.h"
#include "host_pool.h"
#include "inputs.h"
#include "kernel_library.h"
#include "oracle_cache.h"
#include "runner_options.h"
#include "side.h"
#include "task_spec.h"
#include "tensors.h"

namespace arena::correct_gate {

// A trial's inputs and, when the task has a host oracle, its expected outputs. Trials are
// prepared on other threads while the device checks earlier ones.
struct TrialData {
  HostData host;
  HostTensors expected;  // empty: the baseline is the oracle
};

struct Gate {
  TaskSpec task;
  std::string set;
  std::vector<Config> configs;
  std::unique_ptr<GateWorkers> workers;
  std::unique_ptr<Side> candidate, baseline;  // the baseline is used where there is no oracle
  std::optional<ReferenceLibrary> reference;
  std::unique_ptr<OracleCache> oracle_cache;
  std::unique_ptr<OracleCache> input_cache;  // drawn inputs (tools/arena_correct_inputs.cpp)
  std::string spec_hash, oracle_id;  // parts of every oracle cache key
  size_t fixed_configs = 0;          // configurations before the generated (fuzz) ones
  std::unique_ptr<Stream> stream;
  int device = 0;                        // the GPU this gate works on
  std::filesystem::path gpu_lock_dir;    // its device-work lock's folder (gpu_lock.h); empty: none
  int trials = 3;
  double timeout_s = 10;
  std::string result_path;
  CorrectResult result;
  int hangs = 0;            // configurations on which the candidate hung
  std::string gave_up;      // non-empty once the remaining configurations are not run
  std::string infra_error;  // the harness itself ran out of device memory: status "error", not judged
  size_t current = 0;       // configuration being checked
  std::map<size_t, std::vector<std::future<TrialData>>> prefetched;  // by configuration
  // Trials prepared at once: no more than the gate's host threads (host_pool.h), though two
  // configurations' trials are started ahead.
  std::unique_ptr<HostSlots> preparing;
  mutable GatePhases phases;  // where the time goes (the result's "phases")
  std::chrono::steady_clock::time_point last_lap = std::chrono::steady_clock::now();
  double worst_abs = 0, worst_rel = 0;
  int passed = 0, failed = 0;
};

// Adds the time since the previous lap to the main thread's phase `name`.
void lap(Gate& g, const char* name);

// The trials of configuration `index`, started on other threads; take_prepared() takes those
// started ahead, if any.
std::vector<std::future<TrialData>> start_trials(const Gate& g, size_t index);
std::vector<std::future<TrialData>> take_prepared(Gate& g, size_t index);

// The key lines every cached entry of (configuration `index`, `trial`) shares: the task, its
// spec, the set, the configuration and the fuzz seed of generated ones (the oracle and input
// caches add what else their entries depend on).
OracleKey trial_key(const Gate& g, const std::string& entry, size_t index, int trial);
// A trial's inputs: read from the input cache where it holds them, else drawn (and kept).
HostData trial_inputs(const Gate& g, size_t index, const StreamKey& key, const TrialPlan& plan);

// The oracle and input caches of this gate (--oracle-cache, --oracle-cache-budget-mb; no
// folder: none).
void setup_oracle_cache(Gate& g, const RunnerOptions& opt);
// The cache's counts, in the result and the gate's output.
nlohmann::json oracle_cache_facts(const Gate& g);
void print_oracle_cache(const Gate& g);
// The oracle's clocks into the gate's phases.
void take_oracle_phases(Gate& g);
// --only oracle: the oracle's outputs for every configuration and trial of the set, into the
// cache; no device, no workers, no candidate.
int fill_oracle_cache(Gate& g);

// The trial's work on the device (tools/arena_correct_launch.cpp), each under the GPU's
// device-work lock, which device_work() takes (its wait is the phase wait_for_gpu_s).
GpuLock device_work(Gate& g);
// The sides' workers, started under that lock (they make their device contexts).
void start_workers(Gate& g, const std::vector<Side*>& sides);
// Records `side`'s launch for `c` (once per configuration) on buffers of its own holding
// valid inputs; false with the reason in `problems` when it cannot be judged.
bool recorded(Gate& g, Side& side, const Config& c, const HostData& host, std::vector<std::string>& problems);
// Expected outputs for one trial on the device, from the baseline (tasks without an oracle).
HostTensors baseline_outputs(Gate& g, const Config& c, const HostData& host,
                             std::vector<std::string>& problems);
// One candidate launch on fresh buffers (after `spacer_bytes` of other allocation, when not 0),
// compared with `expected`; returns its outputs (empty when the launch failed).
HostTensors candidate_run(Gate& g, const Config& c, const HostData& host,
                          const HostTensors& expected, int variant,
                          size_t spacer_bytes, const std::string& where,
                          std::vector<std::string>& problems, nlohmann::json& tensors_json,
                          bool& stop);

// The phases in the order a gate runs them.
extern const std::vector<std::string> kPhaseOrder;

}  // namespace arena::correct_gate
