// arena-perf: the perf gate, a judge that never runs kernel code. Baseline and candidate,
// each in worker processes of its own, timed side by side (see perf_engine.h for the
// protocol); prints the speedup with its 95 % interval, the verdict and the fraction of peak
// as CTest measurements, and writes the full result and Google Benchmark's own JSON beside
// the test.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "device.h"
#include "gate_report.h"
#include "gate_workers.h"
#include "kernel_library.h"
#include "perf_engine.h"
#include "runner_options.h"
#include "task_spec.h"

using namespace arena;
using json = nlohmann::json;

namespace {

void print_table(const json& r) {
  std::printf("\n%-10s %-28s %12s %12s %9s %19s %9s %8s\n", "config", "params", "base med us", "cand med us",
              "speedup", "95% CI", "verdict", "cand %pk");
  for (const auto& c : r["configs"]) {
    if (c.contains("error")) {
      std::printf("%-10s %-28s %s\n", c["label"].get<std::string>().c_str(), c["params"].get<std::string>().c_str(),
                  c["error"].get<std::string>().c_str());
      continue;
    }
    std::printf("%-10s %-28s %12.2f %12.2f %9.4f   [%7.4f, %7.4f] %9s %7.1f%%\n",
                c["label"].get<std::string>().c_str(), c["params"].get<std::string>().c_str(),
                c["baseline"]["median_ms"].get<double>() * 1e3, c["candidate"]["median_ms"].get<double>() * 1e3,
                c["speedup"].get<double>(), c["ci95_low"].get<double>(), c["ci95_high"].get<double>(),
                c["verdict"].get<std::string>().c_str(), c["candidate"]["fraction_of_peak"].get<double>() * 100);
  }
  for (const auto& c : r["configs"])
    if (c.contains("references"))
      for (const auto& x : c["references"])
        std::printf("%-10s vs %-25s %12.2f %12.2f %9.4f   [%7.4f, %7.4f] %9s\n", c["label"].get<std::string>().c_str(),
                    x["name"].get<std::string>().c_str(), x["median_ms"].get<double>() * 1e3,
                    c["candidate"]["median_ms"].get<double>() * 1e3, x["speedup"].get<double>(),
                    x["ci95_low"].get<double>(), x["ci95_high"].get<double>(), x["verdict"].get<std::string>().c_str());
  std::printf("overall: speedup %.4f, 95%% CI [%.4f, %.4f], %s (timing: %s; events add %.2f us)\n\n",
              r["speedup"].get<double>(), r["ci95_low"].get<double>(), r["ci95_high"].get<double>(),
              r["verdict"].get<std::string>().c_str(), r["method"]["timing"].get<std::string>().c_str(),
              r["method"].value("event_overhead_us", 0.0));
}

}  // namespace

int arena_perf_main(int argc, char** argv) {
  json result = {{"gate", "perf"}, {"started", utc_now()}};
  std::string result_path;
  try {
    std::vector<std::string> known = {"task", "candidate", "baseline", "reference", "result", "gbench-out", "budget-s",
                                      "flush-bytes", "flush-mode", "delta", "samples-per-round", "min-rounds", "kernel-timeout-s",
                                      "require-faster", "baseline-name", "extra-reference", "kept-samples"};
    known.insert(known.end(), kWorkerOptionNames.begin(), kWorkerOptionNames.end());
    RunnerOptions opt(argc, argv, known);
    result_path = opt.require("result");
    TaskSpec task = load_task(opt.require("task"));
    result["task"] = task.suite + "/" + task.name;
    result["candidate"] = opt.require("candidate");

    DeviceChoice dev = select_device();
    if (!dev.available) skip_gate(dev.why + " (this gate needs a GPU)", result_path, result);
    result["device"] = device_json(dev.info, dev.id);
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

    PerfOptions po;
    po.budget_s = opt.number("budget-s", po.budget_s);
    po.flush_bytes = static_cast<size_t>(opt.number("flush-bytes", 0));
    po.flush_mode = static_cast<int>(opt.number("flush-mode", po.flush_mode));
    if (po.flush_mode < 0 || po.flush_mode > 2) throw std::invalid_argument("--flush-mode takes 0, 1 or 2");
    po.delta = opt.number("delta", po.delta);
    po.samples_per_round = static_cast<int>(opt.number("samples-per-round", po.samples_per_round));
    po.min_rounds = static_cast<int>(opt.number("min-rounds", po.min_rounds));
    po.kernel_timeout_s = opt.number("kernel-timeout-s", po.kernel_timeout_s);
    po.kept_samples = static_cast<int>(opt.number("kept-samples", po.kept_samples));

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
    // Where the gate's wall time goes, for the record (the timed rounds are one part of it).
    json phases = json::object();
    auto lap = [&phases, t = std::chrono::steady_clock::now()](const char* name) mutable {
      auto now = std::chrono::steady_clock::now();
      phases[name] = std::chrono::duration<double>(now - t).count();
      t = now;
    };
    GateWorkers::start(raw, result_path, result);
    lap("start_workers_s");
    PerfEngine engine(task, raw, reference ? &*reference : nullptr, dev.info, po);
    std::vector<std::string> failures;
    json r;
    try {
      engine.prepare();
      lap("prepare_s");
      engine.run();
      lap("timed_rounds_s");
      r = engine.report();
      lap("checks_and_report_s");
      failures = engine.failures();
    } catch (const std::exception& e) {
      // A kernel that cannot be launched, recorded or timed fails the gate with the reason.
      failures.push_back(e.what());
    }
    result["phases"] = phases;
    json worker_facts = json::object();
    for (auto& s : sides) worker_facts[s->role()] = s->describe();
    result["workers"] = worker_facts;
    result["process_model"] = "the judge (this process) never loads kernel code; workers launch it on its buffers";
    if (r.is_null()) {
      result["status"] = "failed";
      result["failures"] = failures;
      result["finished"] = utc_now();
      write_json_atomic(result_path, result);
      for (const auto& f : failures) std::printf("FAILED: %s\n", f.c_str());
      std::printf("CTEST_FULL_OUTPUT\n");
      return 1;
    }
    // Task validation: the expert solution must be confidently faster than the baseline.
    if (opt.get("require-faster") == "1" && r["verdict"] != "FASTER")
      failures.push_back("the candidate is required to be FASTER, but the verdict is " + r["verdict"].get<std::string>());
    result.update(r);
    result["failures"] = failures;
    result["status"] = failures.empty() ? "passed" : "failed";
    result["finished"] = utc_now();
    write_json_atomic(result_path, result);
    if (opt.has("gbench-out")) write_json_atomic(opt.get("gbench-out"), engine.gbench_json());

    if (!r["speedup"].is_null()) print_table(r);
    if (r.contains("references_dropped"))
      for (const auto& [name, why] : r["references_dropped"].items())
        std::printf("NOTE: reference %s was not timed: %s\n", name.c_str(), why.get<std::string>().c_str());
    for (const auto& f : failures) std::printf("FAILED: %s\n", f.c_str());
    if (!r["speedup"].is_null()) {
      print_measurement("speedup", r["speedup"].get<double>());
      print_measurement("ci95_low", r["ci95_low"].get<double>());
      print_measurement("ci95_high", r["ci95_high"].get<double>());
    }
    print_text_measurement("verdict", r["verdict"].get<std::string>());
    for (const auto& c : r["configs"]) {
      if (c.contains("error")) continue;
      const std::string l = c["label"].get<std::string>();
      print_measurement("speedup." + l, c["speedup"].get<double>());
      print_measurement("baseline_median_us." + l, c["baseline"]["median_ms"].get<double>() * 1e3);
      print_measurement("candidate_median_us." + l, c["candidate"]["median_ms"].get<double>() * 1e3);
      print_measurement("candidate_fraction_of_peak." + l, c["candidate"]["fraction_of_peak"].get<double>());
    }
    if (r.contains("speedup_vs"))
      for (const auto& [name, x] : r["speedup_vs"].items()) {
        print_measurement("speedup_vs." + name, x["speedup"].get<double>());
        print_measurement("speedup_vs." + name + ".ci95_low", x["ci95_low"].get<double>());
        print_measurement("speedup_vs." + name + ".ci95_high", x["ci95_high"].get<double>());
      }
    if (opt.has("baseline-name")) print_text_measurement("baseline_name", opt.get("baseline-name"));
    print_measurement("event_overhead_us", r["method"].value("event_overhead_us", 0.0));
    std::printf("CTEST_FULL_OUTPUT\n");
    benchmark::Shutdown();
    return failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-perf: %s\n", e.what());
    result["status"] = "error";
    result["error"] = e.what();
    if (!result_path.empty()) write_json_atomic(result_path, result);
    return 1;
  }
}

#ifndef ARENA_TOOLS_LIBRARY
int main(int argc, char** argv) { return arena_perf_main(argc, argv); }
#endif
