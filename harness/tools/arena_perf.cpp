// arena-perf: the perf gate, a judge that never runs kernel code. Baseline and candidate,
// each in worker processes of its own, timed side by side (see perf_engine.h for the
// protocol); prints the speedup with its 95 % interval, the verdict and the fraction of peak
// as CTest measurements, and writes the full result and Google Benchmark's own JSON beside
// the test.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "device.h"
#include "gate_report.h"
#include "gate_workers.h"
#include "gpu_lock.h"
#include "kernel_library.h"
#include "perf_engine.h"
#include "runner_options.h"
#include "task_spec.h"

using namespace arena;
using json = nlohmann::json;

namespace {

void print_table(const PerfReport& r) {
  std::printf("\n%-10s %-28s %12s %12s %9s %19s %9s %8s\n", "config", "params", "base med us", "cand med us",
              "speedup", "95% CI", "verdict", "cand %pk");
  for (const auto& c : r.configs) {
    if (!c.error.empty()) {
      std::printf("%-10s %-28s %s\n", c.label.c_str(), c.params.c_str(), c.error.c_str());
      continue;
    }
    std::printf("%-10s %-28s %12.2f %12.2f %9.4f   [%7.4f, %7.4f] %9s %7.1f%%\n", c.label.c_str(), c.params.c_str(),
                c.baseline->median_ms * 1e3, c.candidate->median_ms * 1e3, c.speedup.speedup, c.speedup.ci95_low,
                c.speedup.ci95_high, verdict_name(c.speedup.verdict), c.candidate->fraction_of_peak * 100);
  }
  for (const auto& c : r.configs)
    for (const auto& x : c.references)
      std::printf("%-10s vs %-25s %12.2f %12.2f %9.4f   [%7.4f, %7.4f] %9s\n", c.label.c_str(), x.name.c_str(),
                  x.median_ms * 1e3, c.candidate->median_ms * 1e3, x.vs_candidate->speedup, x.vs_candidate->ci95_low,
                  x.vs_candidate->ci95_high, verdict_name(x.vs_candidate->verdict));
  std::printf("overall: speedup %.4f, 95%% CI [%.4f, %.4f], %s (timing: %s; events add %.2f us)\n\n", r.speedup.speedup,
              r.speedup.ci95_low, r.speedup.ci95_high, verdict_name(r.speedup.verdict), r.method.timing.c_str(),
              std::isnan(r.method.event_overhead_us) ? 0.0 : r.method.event_overhead_us);
}

// The engine's options from the gate's (defaults where not given); throws on values out of range.
PerfOptions perf_options(const RunnerOptions& opt) {
  PerfOptions po;
  po.budget_s = opt.number("budget-s", po.budget_s);
  po.flush_bytes = static_cast<size_t>(opt.number("flush-bytes", 0));
  po.flush_mode = sweep_mode_from(static_cast<int64_t>(opt.number("flush-mode", 0)));
  po.delta = opt.number("delta", po.delta);
  po.process_spread = opt.number("process-spread", po.process_spread);
  if (!(po.process_spread >= 0 && po.process_spread < 0.1))
    throw std::invalid_argument("--process-spread takes a log-space standard deviation from 0 to below 0.1");
  po.samples_per_round = static_cast<int>(opt.number("samples-per-round", po.samples_per_round));
  po.min_rounds = static_cast<int>(opt.number("min-rounds", po.min_rounds));
  po.kernel_timeout_s = opt.number("kernel-timeout-s", po.kernel_timeout_s);
  po.kept_samples = static_cast<int>(opt.number("kept-samples", po.kept_samples));
  return po;
}

}  // namespace

int arena_perf_main(int argc, char** argv) {
  // Where the gate's wall time goes, for the record (the timed rounds are one part of it).
  std::map<std::string, double> phases;
  auto lap = [&phases, t = std::chrono::steady_clock::now()](const char* name) mutable {
    auto now = std::chrono::steady_clock::now();
    phases[name] = std::chrono::duration<double>(now - t).count();
    t = now;
  };
  PerfResult result;
  result.header.gate = "perf";
  result.header.started = utc_now();
  std::string result_path;
  try {
    std::vector<std::string> known = {"task", "candidate", "baseline", "reference", "result", "gbench-out", "budget-s",
                                      "flush-bytes", "flush-mode", "delta", "samples-per-round", "min-rounds", "kernel-timeout-s",
                                      "require-faster", "baseline-name", "extra-reference", "kept-samples", "process-spread"};
    known.insert(known.end(), kWorkerOptionNames.begin(), kWorkerOptionNames.end());
    RunnerOptions opt(argc, argv, known);
    result_path = opt.require("result");
    TaskSpec task = load_task(opt.require("task"));
    result.header.task = task.suite + "/" + task.name;
    result.candidate = opt.require("candidate");

    DeviceChoice dev = select_device();
    if (!dev.available) skip_gate(dev.why + " (this gate needs a GPU)", result_path, json(result));
    result.device = device_facts(dev.info, dev.id);
    std::printf("device %d: %s (%s), peak %.0f GB/s, %.1f fp32 TFLOP/s\n", dev.id, dev.info.name, dev.info.arch,
                dev.info.peak_bytes_per_s / 1e9, dev.info.peak_fp32_flops / 1e12);

    const std::string task_file = task.file.string();
    GateWorkers workers(opt, task, dev);
    std::vector<std::unique_ptr<Side>> sides;
    sides.push_back(workers.side(opt.get("baseline-name", "baseline"), opt.require("baseline"), true));
    sides.push_back(workers.side("candidate", opt.require("candidate"), false));
    // --extra-reference <name>=<kernel>: a second reference timed in the same rounds.
    if (opt.has("extra-reference")) {
      const std::string v = opt.get("extra-reference");
      const size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--extra-reference takes <name>=<kernel>");
      sides.push_back(workers.side(v.substr(0, eq), v.substr(eq + 1), true));
    }
    std::optional<ReferenceLibrary> reference;
    if (opt.has("reference")) reference = ReferenceLibrary::load(opt.get("reference"), task_file);

    const PerfOptions po = perf_options(opt);

    // Google Benchmark drives the rounds; random interleaving shuffles them.
    std::vector<std::string> gb_args = {"--benchmark_enable_random_interleaving=true"};
    std::vector<char*> gargv(opt.passthrough().begin(), opt.passthrough().end());
    if (!gargv.empty() && gargv.back() == nullptr) gargv.pop_back();
    for (auto& a : gb_args) gargv.push_back(a.data());
    int gargc = static_cast<int>(gargv.size());
    gargv.push_back(nullptr);
    benchmark::Initialize(&gargc, gargv.data());
    if (benchmark::ReportUnrecognizedArguments(gargc, gargv.data())) return 2;

    std::vector<Side*> raw;
    for (auto& s : sides) raw.push_back(s.get());
    lap("judge_setup_s");
    GateWorkers::start(raw, result_path, json(result));
    lap("start_workers_s");
    PerfEngine engine(task, raw, reference ? &*reference : nullptr, dev.info, po);
    std::vector<std::string> failures;
    std::optional<PerfReport> report;
    try {
      engine.prepare();
      lap("prepare_s");
      {  // no other gate works on this GPU while it times (gpu_lock.h; only where they share it)
        GpuLock gpu(GpuLock::dir_from_environment(), dev.id, GpuLock::Mode::Timing);
        lap("wait_for_gpu_s");
        engine.run();
      }
      lap("timed_rounds_s");
      report = engine.report();
      lap("checks_and_report_s");
      failures = engine.failures();
    } catch (const std::exception& e) {
      // A kernel that cannot be launched, recorded or timed fails the gate with the reason.
      failures.push_back(e.what());
    }
    result.phases = phases;
    result.workers = json::object();
    for (auto& s : sides) result.workers[s->role()] = s->describe();
    result.process_model = "the judge (this process) never loads kernel code; workers launch it on its buffers";
    if (!report) {
      result.header.status = Status::Failed;
      result.failures = failures;
      result.header.finished = utc_now();
      write_json_atomic(result_path, result);
      for (const auto& f : failures) std::printf("FAILED: %s\n", f.c_str());
      std::printf("CTEST_FULL_OUTPUT\n");
      return 1;
    }
    // Task validation: the expert solution must be confidently faster than the baseline.
    const PerfReport& r = *report;
    if (opt.get("require-faster") == "1" && r.speedup.verdict != Verdict::Faster)
      failures.push_back(std::string("the candidate is required to be FASTER, but the verdict is ") +
                         verdict_name(r.speedup.verdict));
    result.report = r;
    result.failures = failures;
    result.header.status = failures.empty() ? Status::Passed : Status::Failed;
    result.header.finished = utc_now();
    write_json_atomic(result_path, result);
    if (opt.has("gbench-out")) write_json_atomic(opt.get("gbench-out"), engine.gbench_json());
    for (auto& s : sides) s->ask_workers_to_exit();  // they end while the report prints

    const bool timed = r.speedup.verdict != Verdict::NotTimed;
    if (timed) print_table(r);
    for (const auto& [name, why] : r.references_dropped)
      std::printf("NOTE: reference %s was not timed: %s\n", name.c_str(), why.c_str());
    for (const auto& f : failures) std::printf("FAILED: %s\n", f.c_str());
    // For CDash's charts (arena-score reads the result file).
    if (timed) {
      print_measurement(key::speedup, r.speedup.speedup);
      print_measurement(key::ci95_low, r.speedup.ci95_low);
      print_measurement(key::ci95_high, r.speedup.ci95_high);
    }
    print_text_measurement(key::verdict, verdict_name(r.speedup.verdict));
    for (const auto& c : r.configs) {
      if (!c.error.empty()) continue;
      print_measurement(std::string(key::speedup) + "." + c.label, c.speedup.speedup);
      print_measurement("baseline_median_us." + c.label, c.baseline->median_ms * 1e3);
      print_measurement("candidate_median_us." + c.label, c.candidate->median_ms * 1e3);
      print_measurement("candidate_fraction_of_peak." + c.label, c.candidate->fraction_of_peak);
    }
    for (const auto& [name, x] : r.speedup_vs) {
      print_measurement("speedup_vs." + name, x.speedup);
      print_measurement("speedup_vs." + name + "." + key::ci95_low, x.ci95_low);
      print_measurement("speedup_vs." + name + "." + key::ci95_high, x.ci95_high);
    }
    if (opt.has("baseline-name")) print_text_measurement("baseline_name", opt.get("baseline-name"));
    print_measurement("event_overhead_us", r.method.event_overhead_us);
    std::printf("CTEST_FULL_OUTPUT\n");
    benchmark::Shutdown();
    return failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-perf: %s\n", e.what());
    result.header.status = Status::Error;
    result.header.error = e.what();
    if (!result_path.empty()) write_json_atomic(result_path, result);
    return 1;
  }
}

#ifndef ARENA_TOOLS_LIBRARY
int main(int argc, char** argv) { return arena_perf_main(argc, argv); }
#endif
