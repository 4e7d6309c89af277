#include "gate_workers.h"

#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "gate_report.h"

namespace arena {

namespace fs = std::filesystem;

const std::vector<std::string> kWorkerOptionNames = {"worker", "worker-lib", "python", "py-host", "protect"};

namespace {
// Private folders removed when the process ends, also when a gate exits early (a skip).
struct ScratchFolders {
  std::vector<std::string> paths;
  ~ScratchFolders() {
    std::error_code ec;
    for (const auto& p : paths) fs::remove_all(p, ec);
  }
};
ScratchFolders g_scratch;
}  // namespace

GateWorkers::GateWorkers(const RunnerOptions& opt, const TaskSpec& task, const DeviceChoice& dev) {
  setup_.worker_exe = opt.get("worker");
  setup_.worker_lib = opt.get("worker-lib");
  setup_.python = opt.get("python");
  setup_.py_host = opt.get("py-host");
  std::stringstream ss(opt.get("protect"));
  for (std::string p; std::getline(ss, p, ':');)
    if (!p.empty()) setup_.protect.push_back(p);
  // The task's folder tree (unseen configurations, oracles, solutions) is never readable.
  setup_.protect.push_back(fs::absolute(task.dir).parent_path().parent_path().string());
  setup_.device = dev.id;
  setup_.amd = dev.info.vendor_amd != 0;
  complete_worker_setup(setup_, task);
  g_scratch.paths.push_back(setup_.scratch);
}

GateWorkers::~GateWorkers() {
  std::error_code ec;
  if (!setup_.scratch.empty()) fs::remove_all(setup_.scratch, ec);
}

std::unique_ptr<Side> GateWorkers::side(const std::string& role, const std::string& spec, bool trusted) const {
  auto s = std::make_unique<Side>(role, spec, setup_, trusted);
  const std::string prefix = "py:triton:kernel:";
  if (spec.rfind(prefix, 0) == 0) {
    std::ifstream f(spec.substr(prefix.size()) + ".kernels");
    std::vector<std::string> names;
    for (std::string line; std::getline(f, line);)
      if (!line.empty()) names.push_back(line);
    if (!names.empty()) s->allow_image_kernels(names);
  }
  return s;
}

void GateWorkers::start(const std::vector<Side*>& sides, const std::string& result_path, nlohmann::json result) {
  // All at once: a worker's start is mostly its GPU context and, for Python, its imports.
  std::vector<std::future<void>> started;
  for (Side* s : sides) started.push_back(std::async(std::launch::async, [s] { s->start_workers(); }));
  std::string failed;
  for (size_t i = 0; i < sides.size(); ++i) {
    try {
      started[i].get();
    } catch (const WorkerError& e) {
      if (e.exit_code == kSkipExitCode) skip_gate(e.what(), result_path, result);
      if (failed.empty()) failed = std::string("starting the ") + sides[i]->role() + "'s workers: " + e.what();
    } catch (const std::exception& e) {
      if (failed.empty()) failed = std::string("starting the ") + sides[i]->role() + "'s workers: " + e.what();
    }
  }
  if (!failed.empty()) throw std::runtime_error(failed);
}

}  // namespace arena
