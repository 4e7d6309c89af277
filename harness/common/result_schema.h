// The gates' result files, typed: what the gates (harness/tools, harness/src) write and the
// only thing arena-score (harness/score) reads of them (docs/DESIGN.md, "Results"). It holds
// the key names, the verdicts and the decision rule, the per-configuration statistics the
// reports show, and the schema version every file carries. Adding a statistic: list it in
// config_statistics() and give its source in config_statistic_sources()
// (harness/src/perf_statistics.cpp); scores.json and the reports follow.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "schema_fields.h"

namespace arena {

// Every result file says which schema it follows; a reader refuses versions it does not know.
constexpr int kResultSchemaVersion = 1;
// Gate results lie under the build folder, at <kResultsFolder>/<suite>/<task>/<gate>.json.
inline const char* const kResultsFolder = "arena/results";
inline std::string result_path_in(const std::string& results_folder, const std::string& test_name) {
  return results_folder + "/" + test_name + ".json";
}

// --- key names that both sides (and scores.json) spell ---------------------------------------
namespace key {
inline constexpr const char* schema_version = "schema_version";
inline constexpr const char* gate = "gate";
inline constexpr const char* status = "status";
inline constexpr const char* speedup = "speedup";
inline constexpr const char* ci95_low = "ci95_low";
inline constexpr const char* ci95_high = "ci95_high";
inline constexpr const char* verdict = "verdict";
inline constexpr const char* statistics = "statistics";
inline constexpr const char* fuzz_seed = "fuzz_seed";
}  // namespace key

// --- verdicts and the rule that decides them --------------------------------------------------
enum class Verdict { Faster, Same, Slower, Ambiguous, NotTimed };
inline constexpr schema_detail::EnumNames<Verdict, 5> kVerdictNames = {
    "verdict", "UNKNOWN",
    {{Verdict::Faster, "FASTER"}, {Verdict::Same, "SAME"}, {Verdict::Slower, "SLOWER"},
     {Verdict::Ambiguous, "AMBIGUOUS"}, {Verdict::NotTimed, "NOT_TIMED"}}};

// delta is the relative threshold (e.g. 0.01). FASTER if ci_low > 1 + delta; SLOWER if
// ci_high < 1 - delta; SAME if [ci_low, ci_high] lies inside [1 - delta, 1 + delta];
// AMBIGUOUS otherwise (including NaN bounds). The perf gate decides a speedup's verdict with
// it, arena-score compare a change between two runs.
inline Verdict decide(double ci_low, double ci_high, double delta) {
  if (ci_low > 1 + delta) return Verdict::Faster;
  if (ci_high < 1 - delta) return Verdict::Slower;
  if (ci_low >= 1 - delta && ci_high <= 1 + delta) return Verdict::Same;
  return Verdict::Ambiguous;
}

// How a gate ended, in its own words; "running" is what a gate writes while it works (a file
// left with it belongs to a gate that crashed or timed out).
enum class Status { Passed, Failed, Error, Skipped, Running };
inline constexpr schema_detail::EnumNames<Status, 5> kStatusNames = {
    "status", "unknown",
    {{Status::Passed, "passed"}, {Status::Failed, "failed"}, {Status::Error, "error"},
     {Status::Skipped, "skipped"}, {Status::Running, "running"}}};

// How the files spell them.
inline const char* verdict_name(Verdict v) { return kVerdictNames.name(v); }
inline const char* status_name(Status s) { return kStatusNames.name(s); }
inline Verdict verdict_from_name(const std::string& s) { return kVerdictNames.value(s); }
inline Status status_from_name(const std::string& s) { return kStatusNames.value(s); }
inline void to_json(nlohmann::json& j, Verdict v) { j = verdict_name(v); }
inline void from_json(const nlohmann::json& j, Verdict& v) { v = verdict_from_name(j.get<std::string>()); }
inline void to_json(nlohmann::json& j, Status s) { j = status_name(s); }
inline void from_json(const nlohmann::json& j, Status& s) { s = status_from_name(j.get<std::string>()); }

// --- per-configuration statistics of the perf gate ---------------------------------------------
// Listed once: the perf engine fills PerfConfig::statistics under these keys, arena-score copies
// each into its configs in scores.json, and the reports show one column per entry, in order.
enum class StatisticUnit { Microseconds, Fraction };
struct ConfigStatistic {
  const char* key;
  const char* label;        // column heading
  StatisticUnit unit;       // microseconds print as numbers, fractions as percentages
  const char* description;  // for the reports' definitions
};

inline constexpr const char* kBaselineMedianUs = "baseline_median_us";
inline constexpr const char* kCandidateMedianUs = "candidate_median_us";
inline constexpr const char* kFractionOfPeak = "fraction_of_peak";
inline constexpr const char* kCandidateIqrUs = "candidate_iqr_us";

inline const std::vector<ConfigStatistic>& config_statistics() {
  static const std::vector<ConfigStatistic> list = {
      {kBaselineMedianUs, "baseline median us", StatisticUnit::Microseconds,
       "median of the baseline's timed samples on the configuration"},
      {kCandidateMedianUs, "candidate median us", StatisticUnit::Microseconds,
       "median of the candidate's timed samples on the configuration"},
      {kFractionOfPeak, "candidate peak", StatisticUnit::Fraction,
       "the candidate's fraction of the device's peak (bandwidth, or fp32 FLOP/s where the task is compute-bound)"},
      {kCandidateIqrUs, "candidate IQR us", StatisticUnit::Microseconds,
       "interquartile range (q3 - q1) of the candidate's timed samples on the configuration: their spread"},
  };
  return list;
}

// --- the results, each with its fields (schema_fields.h: how a field list is read and written) --
// In a field list, `required` keys must be in the file and `optional` ones may be left out
// (both are always written); `when_set` keys are written only when they hold something.

// What every result file starts with.
struct ResultHeader {
  int schema_version = kResultSchemaVersion;
  std::string gate;  // compile, correct_seen, correct_unseen, correct_all, perf, profile, agent
  Status status = Status::Running;
  std::string task;               // <suite>/<task>
  std::string started, finished;  // ISO-8601 UTC
  std::string error;              // why the gate could not run (status error)
  std::string skip_reason;        // why it was skipped (status skipped)

  // Beside schema_version, which to_json / from_json below write and check.
  template <class Self, class Visit>
  static void fields(Self& h, Visit& f) {
    ARENA_EACH_FIELD(f.required, h, gate, status);
    ARENA_EACH_FIELD(f.when_set, h, task, started, finished, error, skip_reason);
  }
};

// How a gate's error begins when an allocation of the harness's own (a buffer set, a red zone,
// the oracle) failed for lack of device memory that other gates on its GPU held
// (harness/src/device_memory_error.h): arena-score reads such a gate as not judged, and it
// never counts as passed (docs/DESIGN.md, "Scheduling").
inline constexpr const char* kOutOfDeviceMemory = "out of device memory";
inline bool is_out_of_device_memory(const ResultHeader& h) {
  return h.status == Status::Error && h.error.rfind(kOutOfDeviceMemory, 0) == 0;
}

inline void to_json(nlohmann::json& j, const ResultHeader& h) {
  schema_detail::write_fields(j, h);
  j[key::schema_version] = h.schema_version;
}

// Checks the version first, so a file of another version is named as such rather than as
// missing keys.
inline void from_json(const nlohmann::json& j, ResultHeader& h) {
  if (!j.is_object()) throw SchemaError("not a JSON object");
  auto v = j.find(key::schema_version);
  if (v == j.end()) throw SchemaError("no schema_version (written by a gate older than this arena-score)");
  if (!v->is_number_integer() || v->get<int>() != kResultSchemaVersion)
    throw SchemaError("schema_version " + v->dump() + " is not one this reader knows (it reads " +
                      std::to_string(kResultSchemaVersion) + "); score results with the arena-score of the "
                      "KernelArena that wrote them");
  h.schema_version = v->get<int>();
  schema_detail::read_fields(j, h);
}

// The device a gate ran on.
struct DeviceFacts {
  int id = 0;
  std::string name, arch, vendor;
  int sm_count = 0, warp_size = 0, clock_khz = 0, mem_clock_khz = 0, mem_bus_bits = 0;
  int64_t l2_bytes = 0, total_mem = 0;
  int runtime_version = 0, driver_version = 0;
  double peak_bytes_per_s = schema_detail::kNaN, peak_fp32_flops = schema_detail::kNaN;

  template <class Self, class Visit>
  static void fields(Self& d, Visit& f) {
    ARENA_EACH_FIELD(f.required, d, name);
    ARENA_EACH_FIELD(f.optional, d, id, arch, vendor, sm_count, warp_size, clock_khz, mem_clock_khz, mem_bus_bits,
                     l2_bytes, total_mem, runtime_version, driver_version, peak_bytes_per_s, peak_fp32_flops);
  }
};

// --- compile gate (cmake/ArenaCompileKernel.cmake, harness/python/arena_check_triton.py) -------
struct CompileResult {
  ResultHeader header;
  bool compiled = false;
  std::string what, source, message, platform;
  std::vector<std::string> problems;  // the module check's findings (Triton)
  nlohmann::json confinement;         // what the confined compiler was allowed (null when not confined)

  template <class Self, class Visit>
  static void fields(Self& r, Visit& f) {
    f.flat(r.header);
    ARENA_EACH_FIELD(f.required, r, compiled);
    ARENA_EACH_FIELD(f.when_set, r, what, source, message, platform, problems, confinement);
  }
};

// --- correctness gates (arena-correct) ----------------------------------------------------------
struct CorrectConfig {
  std::string label, params;
  bool passed = false;
  std::vector<std::string> problems;
  double seconds = schema_detail::kNaN, host_wait_seconds = schema_detail::kNaN;
  nlohmann::json trials = nlohmann::json::array();  // per trial: plan and per-tensor comparison

  template <class Self, class Visit>
  static void fields(Self& c, Visit& f) {
    ARENA_EACH_FIELD(f.required, c, label, passed);
    ARENA_EACH_FIELD(f.optional, c, params, problems, seconds, host_wait_seconds, trials);
  }
};

struct CorrectResult {
  ResultHeader header;
  std::string candidate, oracle;        // oracle: "reference" or "baseline"
  std::optional<uint64_t> fuzz_seed;    // seed of the generated unseen configurations
  std::optional<DeviceFacts> device;
  std::vector<CorrectConfig> configs;   // grows configuration by configuration while running
  std::optional<int> passed_configs, total_configs;  // once finished
  double seconds = schema_detail::kNaN;
  double max_abs_err = schema_detail::kNaN, max_rel_err = schema_detail::kNaN;  // worst over every comparison
  nlohmann::json workers;               // each side's worker and confinement facts
  std::string process_model;
  nlohmann::json oracle_cache;          // the host oracle's cache: dir, hits, computed, rejected
  // The gate's wall time by phase (gate_phases.h): start, workers, trials, oracle, launches, comparison
  std::map<std::string, double> phases;

  template <class Self, class Visit>
  static void fields(Self& r, Visit& f) {
    f.flat(r.header);
    ARENA_EACH_FIELD(f.when_set, r, candidate, oracle, fuzz_seed, device);
    ARENA_EACH_FIELD(f.optional, r, configs);
    ARENA_EACH_FIELD(f.when_set, r, passed_configs, total_configs, seconds, max_abs_err, max_rel_err, workers,
                     process_model, oracle_cache, phases);
  }
};

inline void from_json(const nlohmann::json& j, CorrectResult& r) {
  schema_detail::read_fields(j, r);
  const bool finished = r.header.status == Status::Passed || r.header.status == Status::Failed;
  if (finished && (!r.passed_configs || !r.total_configs))
    throw SchemaError("a finished correctness result needs passed_configs and total_configs");
}

// --- perf gate (arena-perf, harness/src/perf_report.cpp) ----------------------------------------
// How the samples were taken: what a reader needs to trust (or repeat) the numbers.
struct PerfMethod {
  int64_t flush_bytes = 0;
  std::string flush, inputs, timing, interleaving;
  int samples_per_round = 0, min_rounds = 0, batches = 0, kept_samples = 0, flush_mode = 0;
  std::map<std::string, double> spent_s;  // wall time by step (inputs, recording, rounds, checks...)
  double warmup_s = schema_detail::kNaN, budget_s = schema_detail::kNaN, timed_seconds = schema_detail::kNaN;
  double delta = schema_detail::kNaN, event_overhead_us = schema_detail::kNaN;
  double process_spread = schema_detail::kNaN;  // the per-process term in every interval (log-space sd)
  bool timed_out = false;

  template <class Self, class Visit>
  static void fields(Self& m, Visit& f) {
    ARENA_EACH_FIELD(f.required, m, budget_s, delta);
    ARENA_EACH_FIELD(f.optional, m, flush_bytes, flush, inputs, timing, interleaving, samples_per_round, min_rounds,
                     batches, kept_samples, warmup_s, timed_seconds);
    ARENA_EACH_FIELD(f.when_set, m, event_overhead_us, process_spread);
    ARENA_EACH_FIELD(f.optional, m, timed_out, flush_mode);
    ARENA_EACH_FIELD(f.when_set, m, spent_s);
  }
};

// A speedup with its 95 % interval and verdict.
struct SpeedupInterval {
  double speedup = schema_detail::kNaN, ci95_low = schema_detail::kNaN, ci95_high = schema_detail::kNaN;
  Verdict verdict = Verdict::NotTimed;

  // On its own every key is optional; a result that holds a speedup inline says which of
  // speedup and verdict it must have. The keys it must have are read first, so a file that
  // lacks one is refused for that key whatever else is wrong in it.
  template <class Self, class Visit>
  static void fields(Self& s, Visit& f, schema_detail::Need speedup_need = schema_detail::Need::Optional,
                     schema_detail::Need verdict_need = schema_detail::Need::Optional) {
    using schema_detail::Need;
    for (Need pass : {Need::Required, Need::Optional}) {
      if (speedup_need == pass) f.field(key::speedup, s.speedup, pass);
      if (pass == Need::Optional) ARENA_EACH_FIELD(f.optional, s, ci95_low, ci95_high);
      if (verdict_need == pass) f.field(key::verdict, s.verdict, pass);
    }
  }
};

// One side's timed samples on one configuration (times in milliseconds).
struct SideTiming {
  int64_t samples = 0;
  double median_ms = schema_detail::kNaN, mean_ms = schema_detail::kNaN, min_ms = schema_detail::kNaN,
         max_ms = schema_detail::kNaN, q1_ms = schema_detail::kNaN, q3_ms = schema_detail::kNaN;
  double stdev_rel = schema_detail::kNaN, iqr_rel = schema_detail::kNaN;
  double bytes_per_s = schema_detail::kNaN, flops_per_s = schema_detail::kNaN;
  double fraction_of_peak_bw = schema_detail::kNaN, fraction_of_peak_fp32 = schema_detail::kNaN,
         fraction_of_peak = schema_detail::kNaN;
  std::vector<double> samples_ms;
  double event_median_us = schema_detail::kNaN;  // device events around the same launches
  // A further reference (torch.compile) only: its name and its speedup over the candidate.
  std::string name;
  std::optional<SpeedupInterval> vs_candidate;

  template <class Self, class Visit>
  static void fields(Self& s, Visit& f) {
    ARENA_EACH_FIELD(f.required, s, median_ms);
    ARENA_EACH_FIELD(f.optional, s, samples, mean_ms, min_ms, max_ms, q1_ms, q3_ms, stdev_rel, iqr_rel, bytes_per_s,
                     flops_per_s, fraction_of_peak_bw, fraction_of_peak_fp32, fraction_of_peak, samples_ms);
    ARENA_EACH_FIELD(f.when_set, s, event_median_us, name);
    f.flat_when_set(s.vs_candidate, key::speedup);
  }
};

struct PerfConfig {
  std::string label, params;
  std::string error;  // why the configuration was not timed; nothing below is set then
  SpeedupInterval speedup;  // the candidate over the baseline
  double speedup_median_of_rounds = schema_detail::kNaN;
  // The log speedup's standard error from the rounds alone, before the per-process term: what
  // an A/A calibration of that term needs (tests/gpu/process_spread.py).
  double rounds_se = schema_detail::kNaN;
  std::string ci_method;
  int rounds = 0;
  double bytes = schema_detail::kNaN, flops = schema_detail::kNaN;  // the task's cost model
  std::optional<SideTiming> baseline, candidate;
  std::vector<SideTiming> references;  // further references timed in the same rounds
  nlohmann::json post_timing_checks = nlohmann::json::array();  // kept samples checked against the oracle
  std::map<std::string, double> statistics;  // config_statistics(), by key

  template <class Self, class Visit>
  static void fields(Self& c, Visit& f) {
    using schema_detail::Need;
    ARENA_EACH_FIELD(f.required, c, label);
    ARENA_EACH_FIELD(f.optional, c, params);
    ARENA_EACH_FIELD(f.when_set, c, error);
    if (!c.error.empty()) return;  // an untimed configuration holds only why
    SpeedupInterval::fields(c.speedup, f, Need::Required, Need::Required);
    ARENA_EACH_FIELD(f.optional, c, speedup_median_of_rounds, ci_method, rounds, bytes, flops);
    ARENA_EACH_FIELD(f.when_set, c, rounds_se);
    ARENA_EACH_FIELD(f.when_set, c, baseline, candidate, references);
    ARENA_EACH_FIELD(f.optional, c, post_timing_checks);
    f.numbers(key::statistics, c.statistics, Need::Required);
  }
};

// What the perf engine reports: every configuration and the aggregate.
struct PerfReport {
  PerfMethod method;
  std::vector<PerfConfig> configs;
  SpeedupInterval speedup;  // geometric mean over the timed configurations; NOT_TIMED when none was
  std::string aggregate;
  std::string baseline_name = "baseline";  // what the speedup is over ("torch eager" for torch2hip)
  std::map<std::string, SpeedupInterval> speedup_vs;           // further references, by name
  std::map<std::string, std::string> references_dropped;       // further references that could not run, and why

  template <class Self, class Visit>
  static void fields(Self& p, Visit& f) {
    using schema_detail::Need;
    ARENA_EACH_FIELD(f.required, p, method, configs);
    SpeedupInterval::fields(p.speedup, f, Need::Optional, Need::Required);
    ARENA_EACH_FIELD(f.when_set, p, aggregate);
    ARENA_EACH_FIELD(f.optional, p, baseline_name);
    ARENA_EACH_FIELD(f.when_set, p, speedup_vs, references_dropped);
  }
};

struct PerfResult {
  ResultHeader header;
  std::string candidate;
  std::optional<DeviceFacts> device;
  std::optional<PerfReport> report;    // absent when the gate failed before timing
  std::vector<std::string> failures;   // why the gate failed; the first words say what kind
  nlohmann::json workers;
  std::string process_model;
  std::map<std::string, double> phases;  // the gate's wall time by phase (workers, prepare, rounds, checks)

  template <class Self, class Visit>
  static void fields(Self& r, Visit& f) {
    f.flat(r.header);
    ARENA_EACH_FIELD(f.when_set, r, candidate, device);
    ARENA_EACH_FIELD(f.optional, r, failures);
    ARENA_EACH_FIELD(f.when_set, r, workers, process_model, phases);
    f.flat_when_set(r.report, "configs");  // a gate that failed or was skipped before timing has none
  }
};

// --- profile gate (arena-profile report) ---------------------------------------------------------
struct ProfileSide {
  std::string bottleneck, why;  // memory-bound, compute-bound, ... and the sentence behind it
  double duration_ns = schema_detail::kNaN, dram_bytes = schema_detail::kNaN, flops = schema_detail::kNaN;
  double dram_pct = -1, sm_sol_pct = -1, mem_sol_pct = -1, occupancy_pct = -1, theoretical_occupancy_pct = -1,
         tensor_pipe_pct = -1;
  std::map<std::string, double> top_stalls;  // reason -> warps stalled per issue
  nlohmann::json kernels = nlohmann::json::array();  // per kernel: name and raw metrics

  template <class Self, class Visit>
  static void fields(Self& s, Visit& f) {
    ARENA_EACH_FIELD(f.required, s, bottleneck);
    ARENA_EACH_FIELD(f.optional, s, why, duration_ns, dram_bytes, flops, dram_pct, sm_sol_pct, mem_sol_pct,
                     occupancy_pct, theoretical_occupancy_pct, tensor_pipe_pct);
    f.numbers("top_stalls", s.top_stalls, schema_detail::Need::Optional);
    ARENA_EACH_FIELD(f.optional, s, kernels);
  }
};

struct ProfileResult {
  ResultHeader header;
  std::string device;
  double peak_bytes_per_s = schema_detail::kNaN, peak_fp32_flops = schema_detail::kNaN;
  std::map<std::string, ProfileSide> sides;  // candidate, baseline

  template <class Self, class Visit>
  static void fields(Self& r, Visit& f) {
    using schema_detail::Need;
    f.flat(r.header);
    ARENA_EACH_FIELD(f.optional, r, device, peak_bytes_per_s, peak_fp32_flops);
    f.field("sides", r.sides, r.header.status == Status::Passed ? Need::Required : Need::Optional);
  }
};

// --- agent step (arena-run-agent, driven by cmake/ArenaAgent.cmake) ---------------------------
// The step passes whenever the runner worked: the agent's own ending is agent_status, and the
// gates judge whatever it left.
struct AgentResult {
  ResultHeader header;
  std::string agent, model;
  std::string agent_status;  // finished (exit 0), failed, timed_out
  double seconds = schema_detail::kNaN, timeout_s = schema_detail::kNaN;
  std::optional<int> exit_code, signal;
  bool timed_out = false, killed_leftover_processes = false, sandboxed = false, resumed = false;
  std::vector<std::string> command;
  bool candidate_taken = false, candidate_changed = false;
  std::vector<std::string> ignored_changes;  // every change but the candidate file's

  template <class Self, class Visit>
  static void fields(Self& r, Visit& f) {
    f.flat(r.header);
    ARENA_EACH_FIELD(f.required, r, agent);
    ARENA_EACH_FIELD(f.when_set, r, model);
    ARENA_EACH_FIELD(f.required, r, agent_status, seconds);
    ARENA_EACH_FIELD(f.optional, r, timeout_s);
    ARENA_EACH_FIELD(f.when_set, r, exit_code, signal);
    ARENA_EACH_FIELD(f.optional, r, timed_out, killed_leftover_processes, sandboxed, resumed, command,
                     candidate_taken, candidate_changed, ignored_changes);
  }
};

}  // namespace arena
