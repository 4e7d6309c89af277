// One side of a comparison as the judge sees it (docs/DESIGN.md, "Process model"): a kernel
// (baseline, candidate, or a PyTorch reference) served by worker processes, so that no code
// of it runs in the judge. A kernel library or Triton module is recorded once per
// configuration by a confined recorder (the only process that runs its host code) and
// replayed from device code by an executor; a PyTorch reference, and every kernel where
// replay is unavailable, runs directly in an executor of its own. Workers that die, hang or
// break the protocol are replaced; what they did becomes the outcome of the launch.
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cache_sweep.h"
#include "device.h"
#include "event_clock.h"
#include "launch.h"
#include "recipe.h"
#include "task_spec.h"
#include "tensors.h"
#include "trusted_images.h"
#include "worker_process.h"

namespace arena {

// How workers are started; one per gate, shared by its sides.
struct WorkerSetup {
  std::string worker_exe;   // arena-worker
  std::string python;       // the Python with PyTorch/Triton, for Python workers
  std::string py_host;      // harness/python/arena_host.py
  std::string worker_lib;   // libarena_worker.so (Python workers load it)
  std::vector<std::string> protect;  // folders a confined worker may never read
  std::string task_file;    // the whole task.json (trusted workers only)
  std::string public_task;  // task.json without unseen configurations (confined workers)
  std::string scratch;      // this gate's private folder (removed by the judge at exit)
  int device = 0;           // the GPU, in this process's numbering
  bool amd = false;
  double start_timeout_s = 120;
};

// Fills the parts of a WorkerSetup the runner's options leave out: the worker program and the
// tools library beside this binary, the scratch folder, the public spec.
void complete_worker_setup(WorkerSetup& s, const TaskSpec& task);

struct RoundSample {
  double gpu_us = 0;    // the span of the kernel's GPU work (activity trace), or event_us
  double event_us = 0;  // device events around the launch
};

struct RoundResult {
  LaunchOutcome outcome;
  std::vector<RoundSample> samples;
  double wall_s = 0;  // the judge's own clock around the round
};

class Side {
 public:
  // `spec`: a kernel library path, "py:triton:kernel:<module>" or "py:torch:<mode>:<task dir>".
  // `trusted`: the project's own code (baseline, references); a candidate's recorder is confined.
  Side(std::string role, std::string spec, const WorkerSetup& setup, bool trusted);
  ~Side();
  Side(const Side&) = delete;
  Side& operator=(const Side&) = delete;

  const std::string& role() const { return role_; }
  bool writes_outputs() const { return writes_outputs_; }
  bool replayed() const { return replay_; }
  // Allowed kernels in device code images the recorder sends (a Triton module's own kernels).
  void allow_image_kernels(std::vector<std::string> names) { image_kernels_ = std::move(names); }
  // Worker facts for the result JSON: how the side runs, confinement, timing source.
  nlohmann::json describe() const;

  // Starts the workers now, so that one that cannot run here (exit status 77: a missing
  // Python module) is known before any launch. Throws WorkerError.
  void start_workers();
  size_t workspace_size(const Config& c);
  // Records the launch for `c` on `scratch` (its inputs valid) unless already recorded;
  // returns the outcome (a recipe that cannot be replayed fails with the reason).
  LaunchOutcome prepare(const Config& c, const DeviceTensors& scratch, double timeout_s);
  // One launch on `t`, the judge having prepared inputs and poison; waits for it.
  LaunchOutcome launch(const Config& c, const DeviceTensors& t, double timeout_s, const std::string& where);
  // Perf: binds `t` as buffer set `set` for rounds.
  void bind(int set, const Config& c, const DeviceTensors& t);
  // Perf: `samples` timed samples on set `set`, each after the sweep `sweep` over `flush` (lent
  // to the executor: every side sweeps the same buffer). `keep` (0-based, or -1): the sample the judge
  // keeps; the executor stops right after it, before it queues anything else, and
  // `on_kept(keep)` copies it then, in this process (kept_capture.h). A completed round that
  // did not stop there fails.
  RoundResult round(int set, int samples, uint64_t key, const DeviceBuffer& flush, const SweepPlan& sweep,
                    uint64_t workspace_pattern,
                    int keep, const std::function<void(int sample)>& on_kept, double timeout_s);
  // Whether rounds can time by events with the tracer's kernel records off (event_clock.h): a
  // replaying executor with the activity tracer. set_quiet_timing(true) makes them do so, each
  // round then adding kAuditSamples traced samples that calibrate the events' overhead.
  bool can_time_quietly() const;
  void set_quiet_timing(bool on) { quiet_ = on; }
  static constexpr int kAuditSamples = 2;
  // Ends the recorder: the kernel's host code runs nowhere afterwards.
  void stop_recorder();
  // Asks the recorder (or every worker) to exit without waiting, so that several sides' workers
  // end in parallel; stop_recorder() or the destructor then waits.
  void ask_recorder_to_exit();
  void ask_workers_to_exit();
  // Called by the buffer-free hook.
  void forget_buffer(uint64_t id);

 private:
  struct Worker {
    std::unique_ptr<WorkerProcess> process;
    std::set<uint64_t> mapped;
    nlohmann::json setup_answer;
  };
  Worker& recorder();
  Worker& executor();
  Worker start(const std::string& mode, const std::string& name, bool confined);
  void lend(Worker& w, const std::vector<const DeviceBuffer*>& buffers);
  LaunchOutcome outcome_of(const WorkerError& e, const std::string& where);
  LaunchOutcome outcome_of(const nlohmann::json& answer, const std::string& where);
  void install(Worker& w, const std::string& key);

  std::string role_, spec_;
  WorkerSetup setup_;
  bool trusted_ = false, replay_ = false, python_ = false, writes_outputs_ = true, quiet_ = false;
  std::map<int, EventOverhead> overhead_;  // by perf set, from the audit samples
  std::vector<std::string> image_kernels_;
  std::unique_ptr<TrustedImages> trusted_images_;  // a Triton module's device code, built by the judge
  std::unique_ptr<Worker> recorder_, executor_;
  std::map<std::string, std::pair<nlohmann::json, std::vector<std::vector<uint8_t>>>> recipes_;  // by config label
  std::map<std::string, std::string> refused_;  // config label -> why its launch cannot run
  std::map<int, std::pair<std::string, BindingSpec>> bindings_;  // perf sets: config label, binding
  std::map<std::string, size_t> workspace_;
  std::vector<std::string> restarts_;  // why workers were replaced
  nlohmann::json confinement_;
  std::atomic<int> started_{0};  // workers start concurrently (start_workers)
};

// Routes buffer frees to every live side (installed once per process).
void register_side(Side* s);
void unregister_side(Side* s);

}  // namespace arena
