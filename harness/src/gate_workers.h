// The runner options that say how a gate starts its workers, shared by arena-correct and
// arena-perf:
//   --worker <arena-worker>  --worker-lib <libarena_worker.so> (default: beside the runner)
//   --python <python>  --py-host <arena_host.py>               (Python workers)
//   --protect "<dir>:<dir>"                                     (never readable by a confined worker)
#pragma once
#include <string>
#include <vector>

#include "device.h"
#include "runner_options.h"
#include "side.h"
#include "task_spec.h"

namespace arena {

extern const std::vector<std::string> kWorkerOptionNames;

// The setup for this gate; creates its private folder (removed by ~GateWorkers).
class GateWorkers {
 public:
  GateWorkers(const RunnerOptions& opt, const TaskSpec& task, const DeviceChoice& dev);
  ~GateWorkers();
  GateWorkers(const GateWorkers&) = delete;
  GateWorkers& operator=(const GateWorkers&) = delete;
  const WorkerSetup& setup() const { return setup_; }
  // A side for `spec`; a candidate (not trusted) is recorded under confinement. A Triton
  // candidate's image kernels are limited to the names listed in `<module>.kernels`, which
  // the compile gate wrote beside it.
  std::unique_ptr<Side> side(const std::string& role, const std::string& spec, bool trusted) const;
  // Starts every side's workers; a worker that cannot run here (a Python module missing)
  // skips the gate with its reason (exit code 77), any other failure is thrown.
  static void start(const std::vector<Side*>& sides, const std::string& result_path, nlohmann::json result);

 private:
  WorkerSetup setup_;
};

}  // namespace arena
