// arena-correct's work on the device for one trial (tools/arena_correct.cpp): recording a
// side's launch, the baseline as the oracle, and the candidate's launches on fresh buffers.
// Each holds its GPU's device-work lock (gpu_lock.h) while it uses the device, and only then:
// under ARENA_PERF_SCHEDULE=shared a perf gate times on the same GPU between them, while the
// comparison runs on the host (docs/DESIGN.md, "Scheduling").
#include <optional>

#include "arena_correct_gate.h"
#include "compare.h"
#include "parallel_host.h"

namespace arena::correct_gate {

using json = nlohmann::json;

GpuLock device_work(Gate& g) {
  GpuLock lock(g.gpu_lock_dir, g.device, GpuLock::Mode::DeviceWork);
  g.phases.add("wait_for_gpu_s", lock.waited_s());
  return lock;
}

void start_workers(Gate& g, const std::vector<Side*>& sides) {
  GpuLock gpu = device_work(g);  // the workers' device contexts are made here
  GateWorkers::start(sides, g.result_path, nlohmann::json(g.result));
}

bool recorded(Gate& g, Side& side, const Config& c, const HostData& host, std::vector<std::string>& problems) {
  GpuLock gpu = device_work(g);
  std::optional<GatePhases::Timer> t;  // the baseline's recording is part of baseline_oracle_s
  if (&side == g.candidate.get()) t.emplace(g.phases, "record_launch_s");
  try {
    DeviceTensors scratch(g.task, c, host, side.workspace_size(c), *g.stream);
    LaunchOutcome o = side.prepare(c, scratch, g.timeout_s);
    if (o.ok()) return true;
    problems.push_back(o.message);
    if (o.kind == LaunchOutcome::TimedOut && &side == g.candidate.get()) g.hangs++;
  } catch (const WorkerError& e) {
    problems.push_back(e.what());
  }
  return false;
}

HostTensors baseline_outputs(Gate& g, const Config& c, const HostData& host,
                             std::vector<std::string>& problems) {
  GatePhases::Timer t(g.phases, "baseline_oracle_s");  // its recording too (and its waits for the GPU)
  std::vector<std::string> why;
  if (!recorded(g, *g.baseline, c, host, why)) {
    for (const auto& w : why) problems.push_back("oracle (baseline) failed: " + w);
    return {};
  }
  GpuLock gpu = device_work(g);
  DeviceTensors d(g.task, c, host, g.baseline->workspace_size(c), *g.stream);
  LaunchOutcome o = g.baseline->launch(c, d, g.timeout_s * 10, c.label);
  if (!o.ok()) {
    problems.push_back("oracle (baseline) failed: " + o.message);
    return {};
  }
  for (const auto& p : d.integrity_problems(*g.stream)) problems.push_back("oracle (baseline): " + p);
  HostTensors out(g.task.tensors.size());
  for (size_t i = 0; i < g.task.tensors.size(); ++i)
    if (g.task.tensors[i].writes()) out[i] = d.output_values(i);
  return out;
}

namespace {

// The launch on the device: buffers (after `spacer_bytes` of other allocation, when not 0),
// the candidate, the integrity checks and its outputs on the host. False when the launch failed.
bool launch_on_device(Gate& g, const Config& c, const HostData& host, int variant, size_t spacer_bytes,
                      const std::string& where, std::vector<std::string>& problems,
                      HostTensors& outs, bool& stop) {
  GpuLock gpu = device_work(g);
  std::optional<DeviceBuffer> spacer;
  if (spacer_bytes) spacer.emplace(spacer_bytes);
  std::optional<GatePhases::Timer> buffers(std::in_place, g.phases, "buffers_s");
  DeviceTensors d(g.task, c, host, g.candidate->workspace_size(c), *g.stream, variant);
  buffers.reset();
  std::optional<GatePhases::Timer> launch(std::in_place, g.phases, "candidate_launch_s");
  LaunchOutcome o = g.candidate->launch(c, d, g.timeout_s, where);
  launch.reset();
  if (!o.ok()) {
    problems.push_back(o.message);
    if (o.kind == LaunchOutcome::TimedOut) g.hangs++;
    stop = true;  // the rest of this configuration's trials would fail the same way
    return false;
  }
  GatePhases::Timer t(g.phases, "outputs_to_host_s");
  for (const auto& p : d.integrity_problems(*g.stream)) problems.push_back(p + " on " + where);
  for (size_t i = 0; i < g.task.tensors.size(); ++i)
    if (g.task.tensors[i].writes()) outs[i] = d.output_values(i);
  return true;  // the buffers are freed here, before the lock is released
}

}  // namespace

HostTensors candidate_run(Gate& g, const Config& c, const HostData& host,
                          const HostTensors& expected, int variant,
                          size_t spacer_bytes, const std::string& where,
                          std::vector<std::string>& problems, json& tensors_json, bool& stop) {
  HostTensors outs(g.task.tensors.size());
  if (!launch_on_device(g, c, host, variant, spacer_bytes, where, problems, outs, stop)) return {};
  for (size_t i = 0; i < g.task.tensors.size(); ++i) {
    const TensorSpec& ts = g.task.tensors[i];
    if (!ts.writes()) continue;
    GatePhases::Timer t(g.phases, "compare_s");
    CompareResult r = compare_parallel(outs[i].data(), expected[i].data(), static_cast<int64_t>(outs[i].size()),
                                       ts.dtype, ts.tol);
    g.worst_abs = std::max(g.worst_abs, r.max_abs_err);
    g.worst_rel = std::max(g.worst_rel, r.max_rel_err);
    tensors_json.push_back({{"tensor", ts.name},
                            {"launch", variant + 1},
                            {"mismatches", r.mismatches},
                            {"nan_mismatches", r.nan_mismatches},
                            {"max_abs_err", r.max_abs_err},
                            {"max_rel_err", r.max_rel_err},
                            {"summary", r.summary(ts.name)}});
    if (!r.passed()) problems.push_back(r.summary(ts.name) + " on " + where);
  }
  return outs;
}

}  // namespace arena::correct_gate
