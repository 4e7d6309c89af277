// arena-profile: the harness side of profile.sh (harness/tools/arena-profile.sh).
//
//   arena-profile launch --task T --kernel K [--config I] [--info out.json]
//       draws the perf gate's inputs for seen configuration I, launches the kernel for 100 ms
//       (warm-up: JIT, autotuning, caches, clocks) and then once inside the profiler's capture range
//       (ncu --profile-from-start off profiles only that one). --info writes the device's
//       name and peaks for the report.
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
#include <sstream>
#include <string>

#include "device.h"
#include "gate_report.h"
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

int launch_main(int argc, char** argv) {
  RunnerOptions opt(argc, argv, {"task", "kernel", "config", "info", "timeout-s"});
  TaskSpec task = load_task(opt.require("task"));
  const int index = static_cast<int>(opt.number("config", 0));
  if (index < 0 || index >= static_cast<int>(task.seen.size()))
    throw std::invalid_argument("--config " + std::to_string(index) + ": the task has " +
                                std::to_string(task.seen.size()) + " seen configuration(s), numbered from 0");
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
  const Config& c = task.seen[index];
  KernelLibrary k = KernelLibrary::load(opt.require("kernel"), "kernel", task.file.string());
  // The perf gate's first contents for this configuration, drawn on the device as the gate
  // draws them.
  Stream stream;
  DeviceTensors d(task, c, perf_first_contents_key(hash_name(task.suite + "/" + task.name), index),
                  query_workspace(k, c), stream);
  const double timeout_s = opt.number("timeout-s", 60);
  // Warm-up launches (JIT, autotuning, caches) for 100 ms at least, so that the GPU's clocks
  // are up, as they are while a perf gate times; then one launch in the capture range.
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    const bool profiled = i >= 2 && std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(100);
    d.prepare_launch(stream);
    if (profiled) check(arena_dev_profiler(1), "opening the profiler's capture range");
    LaunchOutcome o = launch_and_wait(k, d, stream, timeout_s, c.label);
    if (profiled) check(arena_dev_profiler(0), "closing the profiler's capture range");
    if (!o.ok()) {
      std::fprintf(stderr, "arena-profile: %s\n", o.message.c_str());
      return 1;
    }
    if (profiled) break;
  }
  std::printf("profiled one launch of %s on %s (%s)\n", opt.get("kernel").c_str(), c.label.c_str(), c.describe().c_str());
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
      print_text_measurement("bottleneck." + s.side, s.bottleneck);
      print_measurement("profile_duration_us." + s.side, s.duration_ns / 1e3);
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
