// arena-profile: the harness side of profile.sh (harness/tools/arena-profile.sh).
//
//   arena-profile launch --task T --kernel K [--config I] [--info out.json]
//                        [--flush-bytes N --flush-mode M] [--launches N] [--trace CLOCK]
//       draws the perf gate's inputs for seen configuration I, launches the kernel for 100 ms
//       (warm-up: JIT, autotuning, caches, clocks) and then N times (default 1), each inside
//       the profiler's capture range (ncu --profile-from-start off profiles only those).
//       --info writes the device's name and peaks for the report. --flush-bytes sweeps the
//       caches before every launch as the perf gate does (arena_dev_flush, mode M), for ncu
//       --cache-control none: ncu then sees the caches the gate's samples see. --trace times
//       the N launches with a clock instead and prints the times as JSON (the clocks are
//       listed at LaunchClock). --kernel empty launches the backend's empty kernel (no task
//       needed): what a clock reads for no work.
//   arena-profile metrics
//       the fixed metric set, for ncu --metrics.
//   arena-profile report --side NAME=ncu.csv [--side ...] [--info device.json]
//       [--title TEXT] [--result profile.json] [--measurements]
//       the short report: duration, DRAM bandwidth and FLOP/s against the device's peaks,
//       speed-of-light, occupancy, resources, top stalls and a bottleneck class per side.
// Only seen configurations can be profiled: unseen ones never reach a workspace.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cache_sweep.h"
#include "device.h"
#include "gate_report.h"
#ifdef ARENA_PROFILE_TRACE
#include "gpu_trace.h"
#endif
#include "inputs.h"
#include "kernel_library.h"
#include "launch.h"
#include "profile_report.h"
#include "runner_options.h"
#include "task_spec.h"
#include "tensors.h"

using namespace arena;
using json = nlohmann::json;

namespace {

// A clock around the measured launches instead of the profiler's capture range:
//   cupti          the workers' own, the activity trace's span of the launch (arena-profile-trace
//                  only, since arena-profile must load without the GPU driver's library);
//   events         device events, no tracer in the process;
//   alternate      the tracer on, recording kernels on odd launches only, events on every launch:
//                  the perf gate's audit and timed samples (event_clock.h), and what the
//                  tracer's kernel records do to a kernel's time.
class LaunchClock {
 public:
  static bool known(const std::string& kind) {
    return kind.empty() || kind == "events" || kind == "cupti" || kind == "alternate";
  }
  explicit LaunchClock(const std::string& kind) : kind_(kind) {
    if (kind_.empty() || kind_ == "events") return;
#ifdef ARENA_PROFILE_TRACE
    if (!GpuTrace::get().available()) throw std::runtime_error("--trace " + kind_ + ": " + GpuTrace::get().why());
#else
    throw std::invalid_argument("--trace " + kind_ + ": this tool has no tracer; arena-profile-trace has");
#endif
  }
  bool on() const { return !kind_.empty(); }
  void start(const Stream& s, uint64_t tag) {
#ifdef ARENA_PROFILE_TRACE
    if (kind_ == "alternate") GpuTrace::get().pause_kernels(tag % 2 == 0);
    if (kind_ != "events") GpuTrace::get().begin(tag);
#endif
    (void)tag;
    if (kind_ != "cupti") {
      events_.emplace_back(std::make_unique<Event>(), std::make_unique<Event>());
      events_.back().first->record(s);
    }
  }
  void stop(const Stream& s) {
    if (kind_ != "cupti") events_.back().second->record(s);
#ifdef ARENA_PROFILE_TRACE
    if (kind_ != "events") GpuTrace::get().end();
#endif
  }
  void discard() {
    events_.clear();
#ifdef ARENA_PROFILE_TRACE
    if (kind_ != "events") GpuTrace::get().collect();
#endif
  }
  // Each measured launch (tags 1..n): its span as a worker reports a sample ("span_us", -1
  // where no kernel record came) and its event pair ("event_us").
  json times_us(int n) {
    json out = json::object();
    json ev = json::array();
    for (const auto& [a, b] : events_) ev.push_back(elapsed_ms(*a, *b) * 1e3);
    if (kind_ != "cupti") out["event_us"] = ev;
#ifdef ARENA_PROFILE_TRACE
    if (kind_ != "events") {
      const std::vector<GpuActivity> acts = GpuTrace::get().collect();
      json spans = json::array();
      for (int i = 1; i <= n; ++i) spans.push_back(span_us(acts, static_cast<uint64_t>(i)));
      out["span_us"] = spans;
    }
#endif
    (void)n;
    return out;
  }

 private:
  std::string kind_;
  std::vector<std::pair<std::unique_ptr<Event>, std::unique_ptr<Event>>> events_;
};

int launch_main(int argc, char** argv) {
  RunnerOptions opt(argc, argv,
                    {"task", "kernel", "config", "info", "timeout-s", "flush-bytes", "flush-mode", "launches", "trace"});
  const bool empty = opt.get("kernel") == "empty";
  const int launches = static_cast<int>(opt.number("launches", 1));
  if (launches < 1 || launches > 1000) throw std::invalid_argument("--launches takes 1 to 1000");
  const double timeout_s = opt.number("timeout-s", 60);
  const SweepPlan sweep = SweepPlan::as_given(static_cast<size_t>(opt.number("flush-bytes", 0)),
                                              sweep_mode_from(static_cast<int64_t>(opt.number("flush-mode", 0))));
  if (!LaunchClock::known(opt.get("trace"))) throw std::invalid_argument("--trace takes cupti, events or alternate");
  std::optional<TaskSpec> task;
  int index = 0;
  if (!empty) {
    task = load_task(opt.require("task"));
    index = static_cast<int>(opt.number("config", 0));
    if (index < 0 || index >= static_cast<int>(task->seen.size()))
      throw std::invalid_argument("--config " + std::to_string(index) + ": the task has " +
                                  std::to_string(task->seen.size()) + " seen configuration(s), numbered from 0");
  }
  DeviceChoice dev = select_device();
  if (!dev.available) {
    std::fprintf(stderr, "arena-profile: %s (profiling needs a GPU)\n", dev.why.c_str());
    return 77;
  }
  if (opt.has("info")) {
    json info = {{"name", dev.info.name}, {"arch", dev.info.arch}, {"peak_bytes_per_s", dev.info.peak_bytes_per_s},
                 {"peak_fp32_flops", dev.info.peak_fp32_flops}};
    write_json_atomic(opt.get("info"), info);
  }
  LaunchClock clock(opt.get("trace"));
  Stream stream;
  std::optional<KernelLibrary> k;
  std::optional<DeviceTensors> d;
  std::string what = "the empty kernel";
  if (!empty) {
    const Config& c = task->seen[index];
    k.emplace(KernelLibrary::load(opt.require("kernel"), "kernel", task->file.string()));
    // The perf gate's first contents for this configuration, drawn on the device as the gate
    // draws them.
    d.emplace(*task, c, perf_first_contents_key(hash_name(task->suite + "/" + task->name), index),
              query_workspace(*k, c), stream);
    what = opt.get("kernel") + " on " + c.label + " (" + c.describe() + ")";
  }
  DeviceBuffer flush;
  if (sweep.bytes > 0) {
    flush = DeviceBuffer(sweep.bytes);
    check(arena_dev_fill(flush.get(), 0, sweep.bytes, stream.get()), "clearing the flush buffer");
  }
  // One launch as the gate's samples see it: outputs poisoned, caches swept (when asked).
  auto launch = [&](bool measured, uint64_t tag) {
    if (d) d->prepare_launch(stream);
    enqueue_sweep(flush.get(), sweep, stream.get());
    if (measured && clock.on()) clock.start(stream, tag);
    if (measured && !clock.on()) check(arena_dev_profiler(1), "opening the profiler's capture range");
    // The clock stops behind the launch's work, before the host waits for it.
    auto enqueued = [&] {
      if (measured && clock.on()) clock.stop(stream);
    };
    LaunchOutcome o;
    if (d) {
      o = launch_and_wait(*k, *d, stream, timeout_s, what, enqueued);
    } else {
      check(arena_dev_empty_kernel(stream.get()), "launching the empty kernel");
      enqueued();
      if (!stream.wait(timeout_s)) o = {LaunchOutcome::TimedOut, "the empty kernel did not finish"};
    }
    if (measured && !clock.on()) check(arena_dev_profiler(0), "closing the profiler's capture range");
    if (!o.ok()) throw std::runtime_error(o.message);
  };
  // Warm-up launches (JIT, autotuning, caches) for 100 ms at least, so that the GPU's clocks
  // are up, as they are while a perf gate times; then the measured ones.
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 2 || std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(100); ++i) launch(false, 0);
  if (clock.on()) clock.discard();
  for (int i = 0; i < launches; ++i) launch(true, static_cast<uint64_t>(i + 1));
  if (clock.on()) {
    json out = clock.times_us(launches);
    out["timed"] = what;
    out["clock"] = opt.get("trace");
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf("profiled %d launch(es) of %s\n", launches, what.c_str());
  }
  return 0;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

int report_main(int argc, char** argv) {
  // --side may repeat: collect those by hand, the rest through RunnerOptions.
  std::vector<std::pair<std::string, std::string>> side_files;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--side" && i + 1 < argc) {
      const std::string v = argv[++i];
      const size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--side takes NAME=ncu-output.csv");
      side_files.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else {
      rest.push_back(argv[i]);
    }
  }
  RunnerOptions opt(static_cast<int>(rest.size()), rest.data(), {"info", "title", "result", "measurements"});
  if (side_files.empty()) throw std::invalid_argument("give at least one --side NAME=ncu-output.csv");
  DevicePeaks peaks;
  if (opt.has("info")) {
    json info = json::parse(read_file(opt.get("info")));
    peaks.name = info.value("name", "");
    peaks.bytes_per_s = info.value("peak_bytes_per_s", 0.0);
    peaks.fp32_flops = info.value("peak_fp32_flops", 0.0);
  }
  std::vector<SideProfile> sides;
  for (const auto& [name, file] : side_files) sides.push_back(summarize(name, parse_ncu_csv(read_file(file), file)));
  std::string title = opt.get("title", "profile");
  if (!peaks.name.empty()) title += " on " + peaks.name;
  std::fputs(format_profile(title, sides, peaks).c_str(), stdout);
  if (opt.has("result")) {
    ProfileResult r = profile_result(sides, peaks);
    r.header.started = r.header.finished = utc_now();
    write_json_atomic(opt.get("result"), r);
  }
  if (opt.get("measurements") == "1")
    for (const auto& s : sides) {
      print_text_measurement("bottleneck." + s.side, s.summary.bottleneck);
      print_measurement("profile_duration_us." + s.side, s.summary.duration_ns / 1e3);
    }
  return 0;
}

}  // namespace

int arena_profile_main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "launch") return launch_main(argc - 1, argv + 1);
    if (mode == "report") return report_main(argc - 1, argv + 1);
    if (mode == "metrics") {  // the fixed metric set, comma-separated, for ncu --metrics
      std::string all;
      for (const auto& m : profile_metrics()) all += (all.empty() ? "" : ",") + m;
      std::printf("%s\n", all.c_str());
      return 0;
    }
    std::fprintf(stderr, "usage: arena-profile launch --task T --kernel K [--config I] [--info out.json]\n"
                         "       arena-profile metrics\n"
                         "       arena-profile report --side NAME=ncu.csv [--side ...] [--info device.json] "
                         "[--title TEXT] [--result out.json] [--measurements 1]\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-profile: %s\n", e.what());
    return 1;
  }
}

#ifndef ARENA_TOOLS_LIBRARY
int main(int argc, char** argv) { return arena_profile_main(argc, argv); }
#endif
