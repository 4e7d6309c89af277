// The gates' result files, typed: what the gates (harness/tools, harness/src) write and the
// only thing arena-score (harness/score) reads of them (docs/DESIGN.md, "Results"). It holds
// the key names, the verdicts and the decision rule, the per-configuration statistics the
// reports show, and the schema version every file carries. Adding a statistic: list it in
// config_statistics() and give its source in config_statistic_sources()
// (harness/src/perf_statistics.cpp); scores.json and the reports follow.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

// Raised when a file breaks this schema; the reader adds which file.
struct SchemaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

// Each enum's spelling in the files, in declaration order.
namespace schema_detail {
template <class E, size_t N>
const char* name_in(const std::pair<E, const char*> (&names)[N], E v, const char* fallback) {
  for (const auto& [e, name] : names)
    if (e == v) return name;
  return fallback;
}

template <class E, size_t N>
E from_name_in(const std::pair<E, const char*> (&names)[N], const std::string& s, const char* what) {
  std::string known;
  for (size_t i = 0; i < N; ++i) {
    if (s == names[i].second) return names[i].first;
    known += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i].second;
  }
  throw SchemaError(std::string("unknown ") + what + " '" + s + "' (" + known + ")");
}
}  // namespace schema_detail

inline constexpr std::pair<Verdict, const char*> kVerdictNames[] = {{Verdict::Faster, "FASTER"},
                                                                    {Verdict::Same, "SAME"},
                                                                    {Verdict::Slower, "SLOWER"},
                                                                    {Verdict::Ambiguous, "AMBIGUOUS"},
                                                                    {Verdict::NotTimed, "NOT_TIMED"}};
inline const char* verdict_name(Verdict v) { return schema_detail::name_in(kVerdictNames, v, "UNKNOWN"); }
inline Verdict verdict_from_name(const std::string& s) { return schema_detail::from_name_in(kVerdictNames, s, "verdict"); }

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

inline constexpr std::pair<Status, const char*> kStatusNames[] = {{Status::Passed, "passed"},
                                                                  {Status::Failed, "failed"},
                                                                  {Status::Error, "error"},
                                                                  {Status::Skipped, "skipped"},
                                                                  {Status::Running, "running"}};
inline const char* status_name(Status s) { return schema_detail::name_in(kStatusNames, s, "unknown"); }
inline Status status_from_name(const std::string& s) { return schema_detail::from_name_in(kStatusNames, s, "status"); }

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

// --- reading and writing -----------------------------------------------------------------------
namespace schema_detail {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <class T>
void read_value(const nlohmann::json& v, const char* name, T& out) {
  try {
    v.get_to(out);
  } catch (const nlohmann::json::exception& e) {
    throw SchemaError(std::string("key '") + name + "' has the wrong type (" + v.type_name() + ")");
  } catch (const SchemaError& e) {
    throw SchemaError(std::string("key '") + name + "': " + e.what());
  }
}

// A key the file must hold (null counts as absent).
template <class T>
void required(const nlohmann::json& j, const char* name, T& out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) throw SchemaError(std::string("missing required key '") + name + "'");
  read_value(*it, name, out);
}

// A key the file may leave out or set to null; `out` keeps its default then (NaN for numbers).
template <class T>
void optional(const nlohmann::json& j, const char* name, T& out) {
  auto it = j.find(name);
  if (it != j.end() && !it->is_null()) read_value(*it, name, out);
}

template <class T>
void optional(const nlohmann::json& j, const char* name, std::optional<T>& out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return;
  T v{};
  read_value(*it, name, v);
  out = std::move(v);
}

// A map of numbers where null stands for NaN (how JSON writes a statistic that is not a number).
inline void numbers(const nlohmann::json& j, const char* name, std::map<std::string, double>& out, bool need) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) {
    if (need) throw SchemaError(std::string("missing required key '") + name + "'");
    return;
  }
  if (!it->is_object()) throw SchemaError(std::string("key '") + name + "' is not an object");
  for (const auto& [k, v] : it->items()) {
    if (!v.is_null() && !v.is_number())
      throw SchemaError(std::string("key '") + name + "." + k + "' is not a number (" + v.type_name() + ")");
    out[k] = v.is_null() ? kNaN : v.get<double>();
  }
}

template <class T>
void put_optional(nlohmann::json& j, const char* name, const std::optional<T>& v) {
  if (v) j[name] = *v;
}

inline void put_nonempty(nlohmann::json& j, const char* name, const std::string& v) {
  if (!v.empty()) j[name] = v;
}

}  // namespace schema_detail

// What every result file starts with.
struct ResultHeader {
  int schema_version = kResultSchemaVersion;
  std::string gate;  // compile, correct_seen, correct_unseen, correct_all, perf, profile, agent
  Status status = Status::Running;
  std::string task;               // <suite>/<task>
  std::string started, finished;  // ISO-8601 UTC
  std::string error;              // why the gate could not run (status error)
  std::string skip_reason;        // why it was skipped (status skipped)
};

inline void to_json(nlohmann::json& j, const ResultHeader& h) {
  j[key::schema_version] = h.schema_version;
  j[key::gate] = h.gate;
  j[key::status] = h.status;
  schema_detail::put_nonempty(j, "task", h.task);
  schema_detail::put_nonempty(j, "started", h.started);
  schema_detail::put_nonempty(j, "finished", h.finished);
  schema_detail::put_nonempty(j, "error", h.error);
  schema_detail::put_nonempty(j, "skip_reason", h.skip_reason);
}

// Checks the version first, so a file of another version is named as such rather than as
// missing keys.
inline void from_json(const nlohmann::json& j, ResultHeader& h) {
  using namespace schema_detail;
  if (!j.is_object()) throw SchemaError("not a JSON object");
  auto v = j.find(key::schema_version);
  if (v == j.end()) throw SchemaError("no schema_version (written by a gate older than this arena-score)");
  if (!v->is_number_integer() || v->get<int>() != kResultSchemaVersion)
    throw SchemaError("schema_version " + v->dump() + " is not one this reader knows (it reads " +
                      std::to_string(kResultSchemaVersion) + "); score results with the arena-score of the "
                      "KernelArena that wrote them");
  h.schema_version = v->get<int>();
  required(j, key::gate, h.gate);
  required(j, key::status, h.status);
  optional(j, "task", h.task);
  optional(j, "started", h.started);
  optional(j, "finished", h.finished);
  optional(j, "error", h.error);
  optional(j, "skip_reason", h.skip_reason);
}

// The device a gate ran on.
struct DeviceFacts {
  int id = 0;
  std::string name, arch, vendor;
  int sm_count = 0, warp_size = 0, clock_khz = 0, mem_clock_khz = 0, mem_bus_bits = 0;
  int64_t l2_bytes = 0, total_mem = 0;
  int runtime_version = 0, driver_version = 0;
  double peak_bytes_per_s = schema_detail::kNaN, peak_fp32_flops = schema_detail::kNaN;
};

inline void to_json(nlohmann::json& j, const DeviceFacts& d) {
  j = {{"id", d.id},
       {"name", d.name},
       {"arch", d.arch},
       {"vendor", d.vendor},
       {"sm_count", d.sm_count},
       {"warp_size", d.warp_size},
       {"clock_khz", d.clock_khz},
       {"mem_clock_khz", d.mem_clock_khz},
       {"mem_bus_bits", d.mem_bus_bits},
       {"l2_bytes", d.l2_bytes},
       {"total_mem", d.total_mem},
       {"runtime_version", d.runtime_version},
       {"driver_version", d.driver_version},
       {"peak_bytes_per_s", d.peak_bytes_per_s},
       {"peak_fp32_flops", d.peak_fp32_flops}};
}

inline void from_json(const nlohmann::json& j, DeviceFacts& d) {
  using namespace schema_detail;
  required(j, "name", d.name);
  optional(j, "id", d.id);
  optional(j, "arch", d.arch);
  optional(j, "vendor", d.vendor);
  optional(j, "sm_count", d.sm_count);
  optional(j, "warp_size", d.warp_size);
  optional(j, "clock_khz", d.clock_khz);
  optional(j, "mem_clock_khz", d.mem_clock_khz);
  optional(j, "mem_bus_bits", d.mem_bus_bits);
  optional(j, "l2_bytes", d.l2_bytes);
  optional(j, "total_mem", d.total_mem);
  optional(j, "runtime_version", d.runtime_version);
  optional(j, "driver_version", d.driver_version);
  optional(j, "peak_bytes_per_s", d.peak_bytes_per_s);
  optional(j, "peak_fp32_flops", d.peak_fp32_flops);
}

// --- compile gate (cmake/ArenaCompileKernel.cmake, harness/python/arena_check_triton.py) -------
struct CompileResult {
  ResultHeader header;
  bool compiled = false;
  std::string what, source, message, platform;
  std::vector<std::string> problems;  // the module check's findings (Triton)
  nlohmann::json confinement;         // what the confined compiler was allowed (null when not confined)
};

inline void to_json(nlohmann::json& j, const CompileResult& r) {
  to_json(j, r.header);
  j["compiled"] = r.compiled;
  schema_detail::put_nonempty(j, "what", r.what);
  schema_detail::put_nonempty(j, "source", r.source);
  schema_detail::put_nonempty(j, "message", r.message);
  schema_detail::put_nonempty(j, "platform", r.platform);
  if (!r.problems.empty()) j["problems"] = r.problems;
  if (!r.confinement.is_null()) j["confinement"] = r.confinement;
}

inline void from_json(const nlohmann::json& j, CompileResult& r) {
  using namespace schema_detail;
  from_json(j, r.header);
  required(j, "compiled", r.compiled);
  optional(j, "what", r.what);
  optional(j, "source", r.source);
  optional(j, "message", r.message);
  optional(j, "platform", r.platform);
  optional(j, "problems", r.problems);
  if (j.contains("confinement")) r.confinement = j["confinement"];
}

// --- correctness gates (arena-correct) ----------------------------------------------------------
struct CorrectConfig {
  std::string label, params;
  bool passed = false;
  std::vector<std::string> problems;
  double seconds = schema_detail::kNaN, host_wait_seconds = schema_detail::kNaN;
  nlohmann::json trials = nlohmann::json::array();  // per trial: plan and per-tensor comparison
};

inline void to_json(nlohmann::json& j, const CorrectConfig& c) {
  j = {{"label", c.label}, {"params", c.params}, {"passed", c.passed}, {"problems", c.problems},
       {"seconds", c.seconds}, {"host_wait_seconds", c.host_wait_seconds}, {"trials", c.trials}};
}

inline void from_json(const nlohmann::json& j, CorrectConfig& c) {
  using namespace schema_detail;
  required(j, "label", c.label);
  required(j, "passed", c.passed);
  optional(j, "params", c.params);
  optional(j, "problems", c.problems);
  optional(j, "seconds", c.seconds);
  optional(j, "host_wait_seconds", c.host_wait_seconds);
  if (j.contains("trials")) c.trials = j["trials"];
}

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
};

inline void to_json(nlohmann::json& j, const CorrectResult& r) {
  using namespace schema_detail;
  to_json(j, r.header);
  put_nonempty(j, "candidate", r.candidate);
  put_nonempty(j, "oracle", r.oracle);
  put_optional(j, key::fuzz_seed, r.fuzz_seed);
  put_optional(j, "device", r.device);
  j["configs"] = r.configs;
  put_optional(j, "passed_configs", r.passed_configs);
  put_optional(j, "total_configs", r.total_configs);
  if (!std::isnan(r.seconds)) j["seconds"] = r.seconds;
  if (!std::isnan(r.max_abs_err)) j["max_abs_err"] = r.max_abs_err;
  if (!std::isnan(r.max_rel_err)) j["max_rel_err"] = r.max_rel_err;
  if (!r.workers.is_null()) j["workers"] = r.workers;
  put_nonempty(j, "process_model", r.process_model);
}

inline void from_json(const nlohmann::json& j, CorrectResult& r) {
  using namespace schema_detail;
  from_json(j, r.header);
  optional(j, "candidate", r.candidate);
  optional(j, "oracle", r.oracle);
  optional(j, key::fuzz_seed, r.fuzz_seed);
  optional(j, "device", r.device);
  optional(j, "configs", r.configs);
  optional(j, "passed_configs", r.passed_configs);
  optional(j, "total_configs", r.total_configs);
  optional(j, "seconds", r.seconds);
  optional(j, "max_abs_err", r.max_abs_err);
  optional(j, "max_rel_err", r.max_rel_err);
  if (j.contains("workers")) r.workers = j["workers"];
  optional(j, "process_model", r.process_model);
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
  bool timed_out = false;
};

inline void to_json(nlohmann::json& j, const PerfMethod& m) {
  j = {{"flush_bytes", m.flush_bytes},       {"flush", m.flush},           {"inputs", m.inputs},
       {"timing", m.timing},                 {"interleaving", m.interleaving}, {"samples_per_round", m.samples_per_round},
       {"min_rounds", m.min_rounds},         {"batches", m.batches},       {"kept_samples", m.kept_samples},
       {"warmup_s", m.warmup_s},             {"budget_s", m.budget_s},     {"timed_seconds", m.timed_seconds},
       {"delta", m.delta},                   {"timed_out", m.timed_out}};
  if (!std::isnan(m.event_overhead_us)) j["event_overhead_us"] = m.event_overhead_us;
  j["flush_mode"] = m.flush_mode;
  if (!m.spent_s.empty()) j["spent_s"] = m.spent_s;
}

inline void from_json(const nlohmann::json& j, PerfMethod& m) {
  using namespace schema_detail;
  required(j, "budget_s", m.budget_s);
  required(j, "delta", m.delta);
  optional(j, "flush_bytes", m.flush_bytes);
  optional(j, "flush", m.flush);
  optional(j, "inputs", m.inputs);
  optional(j, "timing", m.timing);
  optional(j, "interleaving", m.interleaving);
  optional(j, "samples_per_round", m.samples_per_round);
  optional(j, "min_rounds", m.min_rounds);
  optional(j, "batches", m.batches);
  optional(j, "kept_samples", m.kept_samples);
  optional(j, "warmup_s", m.warmup_s);
  optional(j, "timed_seconds", m.timed_seconds);
  optional(j, "event_overhead_us", m.event_overhead_us);
  optional(j, "timed_out", m.timed_out);
  optional(j, "flush_mode", m.flush_mode);
  optional(j, "spent_s", m.spent_s);
}

// A speedup with its 95 % interval and verdict.
struct SpeedupInterval {
  double speedup = schema_detail::kNaN, ci95_low = schema_detail::kNaN, ci95_high = schema_detail::kNaN;
  Verdict verdict = Verdict::NotTimed;
};

inline void to_json(nlohmann::json& j, const SpeedupInterval& s) {
  j = {{key::speedup, s.speedup}, {key::ci95_low, s.ci95_low}, {key::ci95_high, s.ci95_high}, {key::verdict, s.verdict}};
}

inline void from_json(const nlohmann::json& j, SpeedupInterval& s) {
  using namespace schema_detail;
  optional(j, key::speedup, s.speedup);
  optional(j, key::ci95_low, s.ci95_low);
  optional(j, key::ci95_high, s.ci95_high);
  optional(j, key::verdict, s.verdict);
}

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
};

inline void to_json(nlohmann::json& j, const SideTiming& s) {
  j = {{"samples", s.samples},         {"median_ms", s.median_ms},
       {"mean_ms", s.mean_ms},         {"min_ms", s.min_ms},
       {"max_ms", s.max_ms},           {"q1_ms", s.q1_ms},
       {"q3_ms", s.q3_ms},             {"stdev_rel", s.stdev_rel},
       {"iqr_rel", s.iqr_rel},         {"bytes_per_s", s.bytes_per_s},
       {"flops_per_s", s.flops_per_s}, {"fraction_of_peak_bw", s.fraction_of_peak_bw},
       {"fraction_of_peak_fp32", s.fraction_of_peak_fp32}, {"fraction_of_peak", s.fraction_of_peak},
       {"samples_ms", s.samples_ms}};
  if (!std::isnan(s.event_median_us)) j["event_median_us"] = s.event_median_us;
  if (!s.name.empty()) j["name"] = s.name;
  if (s.vs_candidate) j.update(nlohmann::json(*s.vs_candidate));
}

inline void from_json(const nlohmann::json& j, SideTiming& s) {
  using namespace schema_detail;
  required(j, "median_ms", s.median_ms);
  optional(j, "samples", s.samples);
  optional(j, "mean_ms", s.mean_ms);
  optional(j, "min_ms", s.min_ms);
  optional(j, "max_ms", s.max_ms);
  optional(j, "q1_ms", s.q1_ms);
  optional(j, "q3_ms", s.q3_ms);
  optional(j, "stdev_rel", s.stdev_rel);
  optional(j, "iqr_rel", s.iqr_rel);
  optional(j, "bytes_per_s", s.bytes_per_s);
  optional(j, "flops_per_s", s.flops_per_s);
  optional(j, "fraction_of_peak_bw", s.fraction_of_peak_bw);
  optional(j, "fraction_of_peak_fp32", s.fraction_of_peak_fp32);
  optional(j, "fraction_of_peak", s.fraction_of_peak);
  optional(j, "samples_ms", s.samples_ms);
  optional(j, "event_median_us", s.event_median_us);
  optional(j, "name", s.name);
  if (j.contains(key::speedup)) s.vs_candidate = j.get<SpeedupInterval>();
}

struct PerfConfig {
  std::string label, params;
  std::string error;  // why the configuration was not timed; nothing below is set then
  SpeedupInterval speedup;  // the candidate over the baseline
  double speedup_median_of_rounds = schema_detail::kNaN;
  std::string ci_method;
  int rounds = 0;
  double bytes = schema_detail::kNaN, flops = schema_detail::kNaN;  // the task's cost model
  std::optional<SideTiming> baseline, candidate;
  std::vector<SideTiming> references;  // further references timed in the same rounds
  nlohmann::json post_timing_checks = nlohmann::json::array();  // kept samples checked against the oracle
  std::map<std::string, double> statistics;  // config_statistics(), by key
};

inline void to_json(nlohmann::json& j, const PerfConfig& c) {
  j = {{"label", c.label}, {"params", c.params}};
  if (!c.error.empty()) {
    j["error"] = c.error;
    return;
  }
  j.update(nlohmann::json(c.speedup));
  j["speedup_median_of_rounds"] = c.speedup_median_of_rounds;
  j["ci_method"] = c.ci_method;
  j["rounds"] = c.rounds;
  j["bytes"] = c.bytes;
  j["flops"] = c.flops;
  schema_detail::put_optional(j, "baseline", c.baseline);
  schema_detail::put_optional(j, "candidate", c.candidate);
  if (!c.references.empty()) j["references"] = c.references;
  j["post_timing_checks"] = c.post_timing_checks;
  j[key::statistics] = c.statistics;
}

inline void from_json(const nlohmann::json& j, PerfConfig& c) {
  using namespace schema_detail;
  required(j, "label", c.label);
  optional(j, "params", c.params);
  optional(j, "error", c.error);
  if (!c.error.empty()) return;
  required(j, key::speedup, c.speedup.speedup);
  required(j, key::verdict, c.speedup.verdict);
  optional(j, key::ci95_low, c.speedup.ci95_low);
  optional(j, key::ci95_high, c.speedup.ci95_high);
  optional(j, "speedup_median_of_rounds", c.speedup_median_of_rounds);
  optional(j, "ci_method", c.ci_method);
  optional(j, "rounds", c.rounds);
  optional(j, "bytes", c.bytes);
  optional(j, "flops", c.flops);
  optional(j, "baseline", c.baseline);
  optional(j, "candidate", c.candidate);
  optional(j, "references", c.references);
  if (j.contains("post_timing_checks")) c.post_timing_checks = j["post_timing_checks"];
  numbers(j, key::statistics, c.statistics, true);
}

// What the perf engine reports: every configuration and the aggregate.
struct PerfReport {
  PerfMethod method;
  std::vector<PerfConfig> configs;
  SpeedupInterval speedup;  // geometric mean over the timed configurations; NOT_TIMED when none was
  std::string aggregate;
  std::string baseline_name = "baseline";  // what the speedup is over ("torch eager" for torch2hip)
  std::map<std::string, SpeedupInterval> speedup_vs;           // further references, by name
  std::map<std::string, std::string> references_dropped;       // further references that could not run, and why
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
};

inline void to_json(nlohmann::json& j, const PerfResult& r) {
  using namespace schema_detail;
  to_json(j, r.header);
  put_nonempty(j, "candidate", r.candidate);
  put_optional(j, "device", r.device);
  if (r.report) {
    const PerfReport& p = *r.report;
    j["method"] = p.method;
    j["configs"] = p.configs;
    j.update(nlohmann::json(p.speedup));
    put_nonempty(j, "aggregate", p.aggregate);
    j["baseline_name"] = p.baseline_name;
    if (!p.speedup_vs.empty()) j["speedup_vs"] = p.speedup_vs;
    if (!p.references_dropped.empty()) j["references_dropped"] = p.references_dropped;
  }
  j["failures"] = r.failures;
  if (!r.workers.is_null()) j["workers"] = r.workers;
  put_nonempty(j, "process_model", r.process_model);
  if (!r.phases.empty()) j["phases"] = r.phases;
}

inline void from_json(const nlohmann::json& j, PerfResult& r) {
  using namespace schema_detail;
  from_json(j, r.header);
  optional(j, "candidate", r.candidate);
  optional(j, "device", r.device);
  optional(j, "failures", r.failures);
  if (j.contains("workers")) r.workers = j["workers"];
  optional(j, "process_model", r.process_model);
  optional(j, "phases", r.phases);
  if (!j.contains("configs")) return;  // failed or skipped before timing
  PerfReport p;
  required(j, "method", p.method);
  required(j, "configs", p.configs);
  required(j, key::verdict, p.speedup.verdict);
  optional(j, key::speedup, p.speedup.speedup);
  optional(j, key::ci95_low, p.speedup.ci95_low);
  optional(j, key::ci95_high, p.speedup.ci95_high);
  optional(j, "aggregate", p.aggregate);
  optional(j, "baseline_name", p.baseline_name);
  optional(j, "speedup_vs", p.speedup_vs);
  optional(j, "references_dropped", p.references_dropped);
  r.report = std::move(p);
}

// --- profile gate (arena-profile report) ---------------------------------------------------------
struct ProfileSide {
  std::string bottleneck, why;  // memory-bound, compute-bound, ... and the sentence behind it
  double duration_ns = schema_detail::kNaN, dram_bytes = schema_detail::kNaN, flops = schema_detail::kNaN;
  double dram_pct = -1, sm_sol_pct = -1, mem_sol_pct = -1, occupancy_pct = -1, theoretical_occupancy_pct = -1,
         tensor_pipe_pct = -1;
  std::map<std::string, double> top_stalls;  // reason -> warps stalled per issue
  nlohmann::json kernels = nlohmann::json::array();  // per kernel: name and raw metrics
};

inline void to_json(nlohmann::json& j, const ProfileSide& s) {
  j = {{"bottleneck", s.bottleneck},     {"why", s.why},
       {"duration_ns", s.duration_ns},   {"dram_bytes", s.dram_bytes},
       {"flops", s.flops},               {"dram_pct", s.dram_pct},
       {"sm_sol_pct", s.sm_sol_pct},     {"mem_sol_pct", s.mem_sol_pct},
       {"occupancy_pct", s.occupancy_pct}, {"theoretical_occupancy_pct", s.theoretical_occupancy_pct},
       {"tensor_pipe_pct", s.tensor_pipe_pct}, {"top_stalls", s.top_stalls},
       {"kernels", s.kernels}};
}

inline void from_json(const nlohmann::json& j, ProfileSide& s) {
  using namespace schema_detail;
  required(j, "bottleneck", s.bottleneck);
  optional(j, "why", s.why);
  optional(j, "duration_ns", s.duration_ns);
  optional(j, "dram_bytes", s.dram_bytes);
  optional(j, "flops", s.flops);
  optional(j, "dram_pct", s.dram_pct);
  optional(j, "sm_sol_pct", s.sm_sol_pct);
  optional(j, "mem_sol_pct", s.mem_sol_pct);
  optional(j, "occupancy_pct", s.occupancy_pct);
  optional(j, "theoretical_occupancy_pct", s.theoretical_occupancy_pct);
  optional(j, "tensor_pipe_pct", s.tensor_pipe_pct);
  numbers(j, "top_stalls", s.top_stalls, false);
  if (j.contains("kernels")) s.kernels = j["kernels"];
}

struct ProfileResult {
  ResultHeader header;
  std::string device;
  double peak_bytes_per_s = schema_detail::kNaN, peak_fp32_flops = schema_detail::kNaN;
  std::map<std::string, ProfileSide> sides;  // candidate, baseline
};

inline void to_json(nlohmann::json& j, const ProfileResult& r) {
  to_json(j, r.header);
  j["device"] = r.device;
  j["peak_bytes_per_s"] = r.peak_bytes_per_s;
  j["peak_fp32_flops"] = r.peak_fp32_flops;
  j["sides"] = r.sides;
}

inline void from_json(const nlohmann::json& j, ProfileResult& r) {
  using namespace schema_detail;
  from_json(j, r.header);
  optional(j, "device", r.device);
  optional(j, "peak_bytes_per_s", r.peak_bytes_per_s);
  optional(j, "peak_fp32_flops", r.peak_fp32_flops);
  if (r.header.status == Status::Passed) required(j, "sides", r.sides);
  else optional(j, "sides", r.sides);
}

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
};

inline void to_json(nlohmann::json& j, const AgentResult& r) {
  to_json(j, r.header);
  j["agent"] = r.agent;
  schema_detail::put_nonempty(j, "model", r.model);
  j["agent_status"] = r.agent_status;
  j["seconds"] = r.seconds;
  j["timeout_s"] = r.timeout_s;
  if (r.exit_code) j["exit_code"] = *r.exit_code;
  if (r.signal) j["signal"] = *r.signal;
  j["timed_out"] = r.timed_out;
  j["killed_leftover_processes"] = r.killed_leftover_processes;
  j["sandboxed"] = r.sandboxed;
  j["resumed"] = r.resumed;
  j["command"] = r.command;
  j["candidate_taken"] = r.candidate_taken;
  j["candidate_changed"] = r.candidate_changed;
  j["ignored_changes"] = r.ignored_changes;
}

inline void from_json(const nlohmann::json& j, AgentResult& r) {
  using namespace schema_detail;
  from_json(j, r.header);
  required(j, "agent", r.agent);
  optional(j, "model", r.model);
  required(j, "agent_status", r.agent_status);
  required(j, "seconds", r.seconds);
  optional(j, "timeout_s", r.timeout_s);
  optional(j, "exit_code", r.exit_code);
  optional(j, "signal", r.signal);
  optional(j, "timed_out", r.timed_out);
  optional(j, "killed_leftover_processes", r.killed_leftover_processes);
  optional(j, "sandboxed", r.sandboxed);
  optional(j, "resumed", r.resumed);
  optional(j, "command", r.command);
  optional(j, "candidate_taken", r.candidate_taken);
  optional(j, "candidate_changed", r.candidate_changed);
  optional(j, "ignored_changes", r.ignored_changes);
}

}  // namespace arena
