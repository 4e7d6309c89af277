// arena-correct: the correctness gate, a judge that never runs candidate code (docs/DESIGN.md,
// "Process model"). For each configuration of the chosen set (--set seen; unseen plus
// configurations generated from the fuzz domain; or all of them, for task validation), over
// several input trials: fresh counter-based inputs, poisoned outputs, red zones, the
// candidate (launched by its worker processes on this process's buffers) against the oracle
// (reference.cpp in double precision, else the baseline, itself in workers), inputs verified
// unchanged, and a second launch on other buffers with other poison that must agree too.
// One GoogleTest test per configuration; the full result goes to --result as JSON.
// The oracle's outputs are kept in --oracle-cache (oracle_cache.h); --only oracle fills it
// for every configuration and trial without a device or a candidate.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <future>
#include <map>
#include <string_view>
#include <memory>
#include <optional>

#include "compare.h"
#include "device.h"
#include "device_memory_error.h"
#include "fuzz.h"
#include "gate_memory.h"
#include "gate_phases.h"
#include "gate_report.h"
#include "gate_workers.h"
#include "host_pool.h"
#include "inputs.h"
#include "kernel_library.h"
#include "launch.h"
#include "oracle_cache.h"
#include "side.h"
#include "runner_options.h"
#include "task_spec.h"
#include "tensors.h"
#include "arena_correct_gate.h"

using namespace arena;
using namespace arena::correct_gate;
using json = nlohmann::json;

namespace {

Gate* g_gate = nullptr;

constexpr int64_t kSecondLaunchElementLimit = int64_t{1} << 25;

// A single output element may be constant by nature (the softmax of one value is 1).
int64_t output_elements(const TaskSpec& t, const HostTensors& expected) {
  int64_t n = 0;
  for (size_t i = 0; i < t.tensors.size() && i < expected.size(); ++i)
    if (t.tensors[i].writes()) n += static_cast<int64_t>(expected[i].size());
  return n;
}

size_t hash_outputs(const TaskSpec& t, const HostTensors& expected) {
  size_t h = 0;
  for (size_t i = 0; i < t.tensors.size() && i < expected.size(); ++i) {
    if (!t.tensors[i].writes()) continue;
    const auto& v = expected[i];
    h ^= std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double))) +
         0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

CorrectConfig check_config(Gate& g, size_t index) {
  const Config& c = g.configs[index];
  CorrectConfig cj;
  cj.label = c.label;
  cj.params = c.describe();
  std::vector<std::string> problems;
  auto t0 = std::chrono::steady_clock::now();
  if (!g.gave_up.empty()) problems.push_back("not run: " + g.gave_up);
  double waiting_s = 0;  // time spent waiting for inputs and the oracle (host side)
  size_t first_trial_outputs = 0;  // hash of trial 0's expected outputs
  std::vector<std::future<TrialData>> prepared = take_prepared(g, index);
  // The next configuration's inputs and oracle are computed while this one runs on the device.
  if (index + 1 < g.configs.size()) g.prefetched[index + 1] = start_trials(g, index + 1);
  bool stop = !g.gave_up.empty();
  for (int trial = 0; trial < static_cast<int>(prepared.size()) && !stop; ++trial) {
    TrialPlan plan = trial_plan(trial);
    auto wait0 = std::chrono::steady_clock::now();
    TrialData data = prepared[trial].get();
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - wait0).count();
    waiting_s += waited;
    g.phases.add("wait_for_trials_s", waited);
    const HostData& host = data.host;
    const std::string where = c.label + " (" + c.describe() + "), " + plan.describe();
    json tj = {{"trial", trial}, {"plan", plan.describe()}, {"tensors", json::array()}};
    size_t before = problems.size();
    // The candidate's launch is recorded once per configuration, on the first trial's inputs.
    if (trial == 0 && !recorded(g, *g.candidate, c, host, problems)) {
      cj.trials.push_back(tj);
      break;
    }
    auto expected = g.reference ? std::move(data.expected) : baseline_outputs(g, c, host, problems);
    if (problems.size() > before) {
      cj.trials.push_back(tj);
      break;
    }
    // Different inputs must give different expected outputs, or a kernel could ignore them.
    size_t outputs_hash = hash_outputs(g.task, expected);
    if (trial == 1 && outputs_hash == first_trial_outputs && output_elements(g.task, expected) > 1)
      problems.push_back("task problem: expected outputs on " + c.label +
                         " are the same for two different input draws (they do not depend on the inputs)");
    if (trial == 0) {
      GatePhases::Timer t(g.phases, "compare_s");
      first_trial_outputs = outputs_hash;
      for (size_t i = 0; i < g.task.tensors.size(); ++i) {
        const TensorSpec& ts = g.task.tensors[i];
        if (!ts.writes()) continue;
        Informativeness inf = check_informative(expected[i].data(), static_cast<int64_t>(expected[i].size()),
                                                ts.tol, ts.dtype);
        if (!inf.ok)
          problems.push_back("task problem: expected output '" + ts.name + "' on " + c.label +
                             " cannot tell a real kernel from a trivial one: " + inf.why);
      }
    }
    auto first = candidate_run(g, c, host, expected, 0, 0, where + ", launch 1", problems, tj["tensors"], stop);
    // Other buffers (shifted by a spacer allocation) and other poison: catches races,
    // stale state, and reads of memory the kernel never wrote. Every trial of ordinary
    // configurations does it; the largest ones only in the first trial, to bound the time.
    if (!stop && (trial == 0 || g.task.total_numel(c) <= kSecondLaunchElementLimit)) {
      auto second = candidate_run(g, c, host, expected, 1, 4096 * (trial + 1) + 256, where + ", launch 2", problems,
                                  tj["tensors"], stop);
      tj["launches_bitwise_identical"] = !first.empty() && first == second;  // NaNs make this false
    }
    cj.trials.push_back(tj);
  }
  if (g.hangs >= 1 && g.gave_up.empty())
    g.gave_up = "the candidate hung on an earlier configuration (each would cost a kernel timeout)";
  cj.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  cj.host_wait_seconds = waiting_s;
  cj.passed = problems.empty();
  cj.problems = problems;
  return cj;
}

void finish(Gate& g, int rc, double secs);

// The judge's own allocation (a buffer set, a red zone, the oracle) failed for lack of device
// memory. Whose memory was it? The candidate's recorder, the only process that runs its host
// code, is ended first (its memory with it): if the GPU then has room for this configuration's
// buffer set, the candidate's processes held it, and that is the candidate's failure. Otherwise
// other gates held it: an infrastructure error (status "error", not judged, never passed) unless
// an earlier configuration already failed, and the rest of the gate is not run
// (docs/DESIGN.md, "Scheduling").
std::string device_memory_problem(Gate& g, const std::string& what) {
  g.candidate->stop_recorder();
  if (g.baseline) g.baseline->stop_recorder();
  size_t free_bytes = 0, total_bytes = 0;
  const bool known = arena_dev_mem_info(&free_bytes, &total_bytes) == 0 && total_bytes > 0;
  const int64_t need = buffer_set_bytes(g.task, g.configs[g.current]);
  g.gave_up = "the gate ran out of device memory on " + g.configs[g.current].label;
  if (known && static_cast<int64_t>(free_bytes) >= need)
    return "error: " + what + "; with the candidate's recorder ended the GPU has " +
           std::to_string(free_bytes >> 20) + " MiB free, enough for this configuration's " +
           std::to_string(need >> 20) + " MiB: the candidate's processes held the memory";
  const double gb = 1e9;
  std::string reason = out_of_device_memory_reason(
      what, known ? static_cast<double>(total_bytes - free_bytes) / gb : -1, known ? total_bytes / gb : -1);
  // A configuration the candidate already failed settles the gate: it stays failed.
  if (g.failed == 0) g.infra_error = reason;
  return reason;
}

class ConfigTest : public ::testing::Test {
 public:
  explicit ConfigTest(size_t index) : index_(index) {}
  void TestBody() override {
    Gate& g = *g_gate;
    g.current = index_;
    CorrectConfig cj;
    try {
      cj = check_config(g, index_);
    } catch (const DeviceError& e) {
      cj.label = g.configs[index_].label;
      cj.passed = false;
      cj.problems = {says_out_of_device_memory(e.what()) ? device_memory_problem(g, e.what())
                                                         : std::string("error: ") + e.what()};
    } catch (const std::exception& e) {
      cj.label = g.configs[index_].label;
      cj.passed = false;
      cj.problems = {std::string("error: ") + e.what()};
    }
    for (const auto& p : cj.problems) ADD_FAILURE() << p;
    (cj.passed ? g.passed : g.failed)++;
    g.result.configs.push_back(cj);
    write_json_atomic(g.result_path, g.result);  // after every configuration (status running): nothing is lost
  }

 private:
  size_t index_;
};

std::string test_name(const Config& c) {
  std::string s = c.label;
  for (char& ch : s)
    if (ch == '[' || ch == ']') ch = '_';
  while (!s.empty() && s.back() == '_') s.pop_back();
  return s;
}

// The gate's task, configuration set, trials and result header from its options.
void read_gate_options(Gate& g, const RunnerOptions& opt, bool oracle_only) {
  g.result_path = oracle_only ? opt.get("result") : opt.require("result");
  g.set = opt.get("set", "seen");
  if (g.set != "seen" && g.set != "unseen" && g.set != "all")
    throw std::invalid_argument("--set must be seen, unseen or all");
  g.trials = static_cast<int>(opt.number("trials", 3));
  g.timeout_s = opt.number("kernel-timeout-s", 10);
  g.task = load_task(opt.require("task"));
  g.result.header.gate = "correct_" + g.set;
  g.result.header.task = g.task.suite + "/" + g.task.name;
  g.result.header.started = utc_now();
  g.result.candidate = oracle_only ? opt.get("candidate") : opt.require("candidate");
  // The seed of the generated configurations, recorded so that shards of one run can be told
  // from different runs (every correctness gate of a build is given the same one).
  if (opt.has("fuzz-seed") || g.set != "seen")
    g.result.fuzz_seed = static_cast<uint64_t>(opt.number("fuzz-seed", 1));
  if (g.set == "seen") {
    g.configs = g.task.seen;
    g.fixed_configs = g.configs.size();
  } else {
    if (g.set == "all") g.configs = g.task.seen;  // task validation: every configuration
    g.configs.insert(g.configs.end(), g.task.unseen.begin(), g.task.unseen.end());
    g.fixed_configs = g.configs.size();
    auto fuzz = generate_fuzz_configs(g.task, *g.result.fuzz_seed);
    g.configs.insert(g.configs.end(), fuzz.begin(), fuzz.end());
  }
  g.result.oracle = opt.has("reference") ? "reference" : "baseline";
}

}  // namespace

int arena_correct_main(int argc, char** argv) {
  Gate g;
  g.phases.add("process_start_s", std::max(0.0, seconds_since_process_start()));  // exec to main
  try {
    std::vector<std::string> known = {"task", "candidate", "baseline", "reference", "set", "fuzz-seed", "result",
                                      "trials", "kernel-timeout-s", "oracle-cache", "oracle-cache-budget-mb", "only"};
    known.insert(known.end(), kWorkerOptionNames.begin(), kWorkerOptionNames.end());
    RunnerOptions opt(argc, argv, known);
    const bool oracle_only = opt.has("only");
    g.preparing = std::make_unique<HostSlots>(host_threads());
    if (oracle_only && opt.get("only") != "oracle")
      throw std::invalid_argument("--only takes 'oracle' (fill the oracle cache), not '" + opt.get("only") + "'");
    if (oracle_only && !opt.has("reference"))
      throw std::invalid_argument("--only oracle needs --reference (the host oracle whose outputs are cached)");
    read_gate_options(g, opt, oracle_only);
    const std::string task_file = g.task.file.string();
    if (oracle_only) {
      setup_oracle_cache(g, opt);
      g.reference = ReferenceLibrary::load(opt.get("reference"), task_file);
      lap(g, "judge_setup_s");
      return fill_oracle_cache(g);
    }

    DeviceChoice dev = select_device();
    if (!dev.available) {
      lap(g, "judge_setup_s");
      g.result.phases = g.phases.all();
      skip_gate(dev.why + " (this gate needs a GPU)", g.result_path, json(g.result));
    }
    g.result.device = device_facts(dev.info, dev.id);
    g.device = dev.id;
    g.gpu_lock_dir = GpuLock::dir_from_environment();
    std::printf("device %d: %s (%s)\n", dev.id, dev.info.name, dev.info.arch);
    if (opt.has("reference")) setup_oracle_cache(g, opt);

    g.workers = std::make_unique<GateWorkers>(opt, g.task, dev);
    g.candidate = g.workers->side("candidate", opt.require("candidate"), false);
    if (opt.has("reference")) g.reference = ReferenceLibrary::load(opt.get("reference"), task_file);
    else g.baseline = g.workers->side("baseline", opt.require("baseline"), true);
    std::vector<Side*> sides = {g.candidate.get()};
    if (g.baseline) sides.push_back(g.baseline.get());
    lap(g, "judge_setup_s");
    start_workers(g, sides);
    lap(g, "start_workers_s");
    g.stream = std::make_unique<Stream>();

    int gargc = static_cast<int>(opt.passthrough().size());
    ::testing::InitGoogleTest(&gargc, opt.passthrough().data());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-correct: %s\n", e.what());
    if (!g.result_path.empty()) {
      g.result.header.status = Status::Error;
      g.result.header.error = e.what();
      lap(g, "judge_setup_s");
      g.result.phases = g.phases.all();
      write_json_atomic(g.result_path, g.result);
    }
    return 1;
  }

  g_gate = &g;
  const std::string suite = "correct_" + g.set;
  for (size_t i = 0; i < g.configs.size(); ++i)
    ::testing::RegisterTest(suite.c_str(), test_name(g.configs[i]).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [i]() -> ::testing::Test* { return new ConfigTest(i); });
  auto t0 = std::chrono::steady_clock::now();
  lap(g, "start_workers_s");  // with the stream and GoogleTest's setup
  int rc = RUN_ALL_TESTS();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  lap(g, "configs_s");
  // Held until this process ends (never released by hand): its workers' device contexts and its
  // own are torn down under it, not while a perf gate times on the GPU.
  new GpuLock(device_work(g));
  for (Side* s : {g.candidate.get(), g.baseline.get()})
    if (s) s->ask_workers_to_exit();  // they end in parallel while the result is written
  finish(g, rc, secs);
  return rc == 0 && g.failed == 0 && g.infra_error.empty() ? 0 : 1;
}

namespace {

void finish(Gate& g, int rc, double secs) {
  const std::string suite = "correct_" + g.set;
  g.result.header.finished = utc_now();
  g.result.header.status = rc == 0 && g.failed == 0 ? Status::Passed : Status::Failed;
  if (!g.infra_error.empty()) {  // never passed: an infrastructure error, not a verdict
    g.result.header.status = Status::Error;
    g.result.header.error = g.infra_error;
    std::printf("%s\n", g.infra_error.c_str());
  }
  g.result.seconds = secs;
  g.result.passed_configs = g.passed;
  g.result.total_configs = static_cast<int>(g.configs.size());
  g.result.max_abs_err = g.worst_abs;
  g.result.max_rel_err = g.worst_rel;
  g.result.workers = {{"candidate", g.candidate->describe()}};
  if (g.baseline) g.result.workers["baseline"] = g.baseline->describe();
  if (g.oracle_cache) {
    g.result.oracle_cache = oracle_cache_facts(g);
    print_oracle_cache(g);
  }
  g.result.process_model = "the judge (this process) never loads candidate code; workers launch it on its buffers";
  lap(g, "finish_s");
  take_oracle_phases(g);
  g.phases.add("total_s", std::max(0.0, seconds_since_process_start()));  // exec to the result
  g.result.phases = g.phases.all();
  write_json_atomic(g.result_path, g.result);
  std::printf("%s\n", g.phases.line(kPhaseOrder).c_str());
  std::printf("%s: %d of %zu configuration(s) passed, %d trial(s) each; worst max abs err %.3g, max rel err %.3g\n",
              suite.c_str(), g.passed, g.configs.size(), g.trials, g.worst_abs, g.worst_rel);
  print_measurement("configs_passed", g.passed);
  print_measurement("configs_total", static_cast<double>(g.configs.size()));
  print_measurement("max_abs_err", g.worst_abs);
  print_measurement("max_rel_err", g.worst_rel);
  if (secs >= 0) print_measurement("seconds", secs);
  std::printf("CTEST_FULL_OUTPUT\n");
}

}  // namespace

#ifndef ARENA_TOOLS_LIBRARY
int main(int argc, char** argv) { return arena_correct_main(argc, argv); }
#endif
