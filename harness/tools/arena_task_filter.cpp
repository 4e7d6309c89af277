// arena-task-filter: rejects degenerate tasks, on the CPU, from their oracle, and flags
// launch-bound configurations from a perf result.
//
//   arena-task-filter --task <task.json> --reference <reference.so | py:torch:oracle:<dir>>
//                     [--result <file.json>] [--max-elements N] [--max-configs K] [--trivial-fraction F]
//   arena-task-filter --task <task.json> --perf-result <solution_faster.json> [--min-baseline-us U]
//                     [--result <file.json>]
//
// Oracle checks, on the task's own configurations (seen and unseen, the largest K whose tensors
// hold at most N elements in all; at least the two smallest; largest first), with inputs drawn
// exactly as the correctness gate draws them (declared distributions, rounded through each dtype):
//   constant             every expected value of an output, over all checked configurations,
//                        matches one value within the output's tolerance
//   mostly below tol     a kernel writing zeros would match more than F of an output's values
//   mostly one value     a kernel writing one value (the most frequent or the median) would
//                        match more than F of them
//   identical            two configurations with as many output elements, drawn from different
//                        inputs, give the same outputs within tolerance
//   independent input    redrawing one input tensor changes no expected value beyond the
//                        tolerance on any checked configuration
//   independent param    changing a param that no tensor shape depends on (a float, or an int
//                        such as a divisor) changes no expected value beyond the tolerance
// Perf mode: a seen configuration whose baseline (hip2hip, triton2triton) or eager PyTorch
// (torch2hip) median is under U µs (default 5) is launch-bound: the comparison measures launch
// and scheduling overheads, not kernels.
//
// Exit status: 0 the task passes, 1 rejected (each reason printed as "REJECTED: ..."), 2 usage or
// task error, 77 skipped (no PyTorch for a Python oracle, or no perf result to read).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare.h"
#include "gate_report.h"
#include "inputs.h"
#include "kernel_library.h"
#include "parallel_host.h"
#include "runner_options.h"
#include "task_spec.h"
#include "tensors.h"

using namespace arena;
using json = nlohmann::json;

namespace {

std::string g_result_path;  // --result: where skip_gate() writes, too

struct Options {
  int64_t max_elements = int64_t{1} << 21;
  int max_configs = 4;
  double trivial_fraction = 0.9;
};

int64_t total_elements(const TaskSpec& t, const Config& c) {
  int64_t n = 0;
  for (const auto& ts : t.tensors) n += t.numel(ts, c);
  return n;
}

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string pct(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * f);
  return buf;
}

// The configurations the oracle checks run on: the largest ones under the element budget.
std::vector<Config> pick_configs(const TaskSpec& t, const Options& o) {
  std::vector<Config> all = t.seen;
  all.insert(all.end(), t.unseen.begin(), t.unseen.end());
  std::stable_sort(all.begin(), all.end(),
                   [&](const Config& a, const Config& b) { return total_elements(t, a) < total_elements(t, b); });
  std::vector<Config> under;
  for (const auto& c : all)
    if (total_elements(t, c) <= o.max_elements) under.push_back(c);
  std::vector<Config> out;
  if (static_cast<int>(under.size()) > o.max_configs)
    out.assign(under.end() - o.max_configs, under.end());
  else
    out = under;
  for (size_t i = 0; i < all.size() && out.size() < 2; ++i) {  // at least two, however large
    bool have = false;
    for (const auto& c : out) have |= c.label == all[i].label;
    if (!have) out.insert(out.begin(), all[i]);
  }
  // Largest first: an input or param that changes the outputs there need not be tried again.
  std::reverse(out.begin(), out.end());
  return out;
}

// Replaces tensor i of `h` with a fresh draw from its distribution (another stream).
void redraw(const TaskSpec& t, const Config& c, HostData& h, size_t i, const StreamKey& key) {
  const TensorSpec& ts = t.tensors[i];
  const int64_t n = h.numel[i];
  std::vector<double> v(n);
  generate_values(ts.dist->at(c.bindings), trial_plan(0), key, v.data(), n);
  std::vector<unsigned char> bytes(n * dtype_size(ts.dtype));
  parallel_from_double(ts.dtype, v.data(), bytes.data(), n);
  parallel_to_double(ts.dtype, bytes.data(), v.data(), n);
  h.bytes[i] = std::move(bytes);
  h.values[i] = std::move(v);
}

// Whether any output differs beyond its tolerance between two oracle runs.
bool outputs_differ(const TaskSpec& t, const std::vector<std::vector<double>>& a,
                    const std::vector<std::vector<double>>& b) {
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.writes()) continue;
    if (a[i].size() != b[i].size()) return true;
    CompareResult r = compare_parallel(a[i].data(), b[i].data(), static_cast<int64_t>(a[i].size()), ts.dtype, ts.tol, 0);
    if (!r.passed()) return true;
  }
  return false;
}

// Share of `want` that a kernel writing the constant `c` everywhere would match.
double match_fraction(double c, const std::vector<double>& want, const TensorSpec& ts) {
  if (want.empty()) return 0;
  int64_t hits = 0;
  for (double w : want) hits += values_match(c, w, ts.dtype, ts.tol);
  return static_cast<double>(hits) / static_cast<double>(want.size());
}

// The most frequent value (exact equality) and the median of a set.
std::pair<double, double> mode_and_median(std::vector<double> v) {
  std::vector<double> finite;
  for (double x : v)
    if (std::isfinite(x)) finite.push_back(x);
  if (finite.empty()) return {0, 0};
  std::sort(finite.begin(), finite.end());
  double mode = finite[0];
  size_t best = 0;
  for (size_t i = 0; i < finite.size();) {
    size_t j = i;
    while (j < finite.size() && finite[j] == finite[i]) ++j;
    if (j - i > best) {
      best = j - i;
      mode = finite[i];
    }
    i = j;
  }
  return {mode, finite[finite.size() / 2]};
}

bool in_any_shape(const TaskSpec& t, const std::string& name) {
  for (const auto& ts : t.tensors)
    for (const auto& e : ts.shape)
      for (const auto& n : e.names())
        if (n == name) return true;
  return false;
}

// Other values of a param, changed enough to matter wherever the param matters, in the order
// they are tried (the oracle may refuse some: a probability above 1); empty when the param's
// bounds leave no other value.
std::vector<double> perturbed(const ParamSpec& p, double v) {
  std::vector<double> out;
  if (!p.is_int) {
    out = {v + std::max(1.0, std::fabs(v)), v != 0 ? v / 2 : 0.5, v != 0 ? -v : -0.5};
  } else {
    const int64_t iv = static_cast<int64_t>(v);
    for (int64_t c : {iv + 1, iv - 1, 2 * iv})
      if (c != iv && (!p.min || c >= *p.min) && (!p.max || c <= *p.max)) out.push_back(static_cast<double>(c));
  }
  return out;
}

Config with_param(const TaskSpec& t, const Config& c, const std::string& name, double value) {
  std::map<std::string, double> values;
  for (const auto& p : t.params) {
    if (p.is_int) values[p.name] = static_cast<double>(c.bindings.at(p.name));
  }
  size_t fi = 0;
  for (const auto& p : t.params)
    if (!p.is_int) values[p.name] = c.floats[fi++];
  values[name] = value;
  return make_config(t, values, c.label, c.label);
}

int run_oracle_checks(const TaskSpec& t, const std::string& ref_spec, const Options& o, json& result) {
  ReferenceLibrary ref;
  try {
    ref = ReferenceLibrary::load(ref_spec, t.file.string());
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find("PyTorch is not installed") != std::string::npos ||
        what.find("No module named 'torch'") != std::string::npos)
      skip_gate("the oracle needs PyTorch, which this Python cannot import (" + what + ")", g_result_path,
                result);
    throw;
  }
  const uint64_t task_key = hash_name(t.suite + "/" + t.name + "/filter");
  const std::vector<Config> configs = pick_configs(t, o);
  std::vector<std::string> problems;
  json cjs = json::array();

  const size_t nt = t.tensors.size();
  std::vector<std::vector<double>> pooled(nt);  // expected outputs over every checked configuration
  std::vector<bool> input_matters(nt, false), input_fixed(nt, true);
  std::map<std::string, bool> param_matters;
  std::map<std::string, std::string> param_change;
  std::vector<std::string> free_params;
  for (const auto& p : t.params)
    if (!in_any_shape(t, p.name)) free_params.push_back(p.name);
  struct Seen {
    std::string label;
    std::vector<std::vector<double>> out;
  };
  std::vector<Seen> by_size;

  for (size_t ci = 0; ci < configs.size(); ++ci) {
    const Config& c = configs[ci];
    json cj = {{"label", c.label}, {"params", c.describe()}, {"elements", total_elements(t, c)}};
    StreamKey key{task_key, static_cast<uint32_t>(ci), 0, 0};
    HostData base = draw_inputs(t, c, key, trial_plan(0));
    auto expected = run_reference(t, c, base, ref);
    for (size_t i = 0; i < nt; ++i)
      if (t.tensors[i].writes()) pooled[i].insert(pooled[i].end(), expected[i].begin(), expected[i].end());
    by_size.push_back({c.label, expected});
    json changed = json::object();
    for (size_t i = 0; i < nt; ++i) {
      const TensorSpec& ts = t.tensors[i];
      if (!ts.reads()) continue;
      const Distribution d = ts.dist->at(c.bindings);
      if (d.kind == Distribution::IntRange && d.a == d.b) continue;  // one value only: nothing to redraw
      input_fixed[i] = false;
      if (input_matters[i]) continue;  // already shown on a larger configuration
      HostData h = base;
      StreamKey k2{task_key, static_cast<uint32_t>(ci), 1000u + static_cast<uint32_t>(i), static_cast<uint32_t>(i)};
      redraw(t, c, h, i, k2);
      const bool differs = outputs_differ(t, expected, run_reference(t, c, h, ref));
      changed[ts.name] = differs;
      if (differs) input_matters[i] = true;
    }
    for (const auto& name : free_params) {
      if (param_matters[name]) continue;  // already shown on a larger configuration
      const ParamSpec* p = nullptr;
      size_t fi = 0;
      for (const auto& q : t.params) {
        if (q.name == name) p = &q;
        if (!q.is_int && !p) ++fi;
      }
      double v = p->is_int ? static_cast<double>(c.bindings.at(name)) : c.floats[fi];
      for (double nv : perturbed(*p, v)) {
        std::vector<std::vector<double>> out2;
        try {
          out2 = run_reference(t, with_param(t, c, name, nv), base, ref);
        } catch (const std::exception&) {
          continue;  // a value the model refuses: try the next one
        }
        const bool differs = outputs_differ(t, expected, out2);
        changed[name] = differs;
        param_matters[name] = param_matters[name] || differs;
        param_change[name] = fmt(v) + " to " + fmt(nv);
        break;
      }
    }
    cj["output_changes_when_redrawn_or_changed"] = changed;
    cjs.push_back(cj);
  }
  result["configs"] = cjs;

  // The outputs' values over all checked configurations.
  json outputs = json::object();
  for (size_t i = 0; i < nt; ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.writes() || pooled[i].empty()) continue;
    const auto& v = pooled[i];
    auto [mode, median] = mode_and_median(v);
    const double zero_fraction = match_fraction(0.0, v, ts);
    // A constant kernel's best guesses: the most frequent value, the median, and NaN (which
    // matches only NaN: an oracle that gives NaN lets a kernel write NaN).
    double one_value = mode, mode_fraction = match_fraction(mode, v, ts);
    for (double c : {median, std::numeric_limits<double>::quiet_NaN()}) {
      const double f = match_fraction(c, v, ts);
      if (f > mode_fraction) {
        mode_fraction = f;
        one_value = c;
      }
    }
    outputs[ts.name] = {{"elements", v.size()},
                        {"zero_match_fraction", zero_fraction},
                        {"one_value_match_fraction", mode_fraction},
                        {"one_value", one_value}};
    std::string where = "on " + std::to_string(configs.size()) + " configuration(s), " + std::to_string(v.size()) +
                        " value(s)";
    if (v.size() > 1 && mode_fraction >= 1.0) {
      problems.push_back("output '" + ts.name + "' is constant: every expected value " + where + " matches " +
                         fmt(one_value) + " within its tolerance");
    } else if (v.size() > 1 && zero_fraction > o.trivial_fraction) {
      problems.push_back("output '" + ts.name + "' is mostly below its tolerance: a kernel writing zeros would match " +
                         pct(zero_fraction) + " of its expected values " + where);
    } else if (v.size() > 1 && mode_fraction > o.trivial_fraction) {
      problems.push_back("output '" + ts.name + "' is mostly one value: a kernel writing " + fmt(one_value) +
                         " everywhere would match " + pct(mode_fraction) + " of its expected values " + where);
    }
  }
  result["outputs"] = outputs;

  // Configurations with as many output elements and the same values, from different inputs.
  for (size_t a = 0; a < by_size.size(); ++a)
    for (size_t b = a + 1; b < by_size.size(); ++b) {
      bool same_size = true, all_tiny = true;
      for (size_t i = 0; i < nt; ++i) {
        if (!t.tensors[i].writes()) continue;
        same_size &= by_size[a].out[i].size() == by_size[b].out[i].size();
        all_tiny &= by_size[a].out[i].size() <= 1;
      }
      if (!same_size || all_tiny) continue;
      if (!outputs_differ(t, by_size[a].out, by_size[b].out))
        problems.push_back("the outputs are identical on " + by_size[a].label + " and " + by_size[b].label +
                           " (different inputs and params, the same values within tolerance)");
    }

  for (size_t i = 0; i < nt; ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.reads() || input_fixed[i] || input_matters[i]) continue;
    problems.push_back("the outputs do not depend on input '" + ts.name +
                       "': redrawing it changes no expected value beyond the tolerance on any checked configuration");
  }
  for (const auto& [name, matters] : param_matters)
    if (!matters)
      problems.push_back("the outputs do not depend on param '" + name + "': changing it (" + param_change[name] +
                         ") changes no expected value beyond the tolerance on any checked configuration");

  std::printf("%s: oracle checks on %zu configuration(s):", (t.suite + "/" + t.name).c_str(), configs.size());
  for (const auto& c : configs) std::printf(" %s (%s)", c.label.c_str(), c.describe().c_str());
  std::printf("\n");
  for (const auto& [name, o] : outputs.items())
    std::printf("  output %s: %s values; zeros would match %s, one value %s\n", name.c_str(),
                std::to_string(o["elements"].get<int64_t>()).c_str(), pct(o["zero_match_fraction"]).c_str(),
                pct(o["one_value_match_fraction"]).c_str());
  for (size_t i = 0; i < nt; ++i)
    if (t.tensors[i].reads())
      std::printf("  input %s: %s\n", t.tensors[i].name.c_str(),
                  input_fixed[i] ? "takes one value (not redrawn)"
                                 : input_matters[i] ? "changes the outputs" : "changes nothing");
  for (const auto& [name, matters] : param_matters)
    std::printf("  param %s (%s): %s\n", name.c_str(), param_change[name].c_str(),
                matters ? "changes the outputs" : "changes nothing");
  result["problems"] = problems;
  for (const auto& p : problems) std::printf("REJECTED: %s\n", p.c_str());
  print_measurement("filter_configs", static_cast<double>(configs.size()));
  print_measurement("filter_problems", static_cast<double>(problems.size()));
  return problems.empty() ? 0 : 1;
}

int run_perf_check(const TaskSpec& t, const std::string& perf_path, double min_us, json& result) {
  std::ifstream in(perf_path);
  if (!in) {
    skip_gate("no perf result at " + perf_path + " (run the task's solution_faster selftest on a GPU first)",
              g_result_path, result);
  }
  json perf;
  try {
    in >> perf;
  } catch (const std::exception& e) {
    throw std::runtime_error(perf_path + ": not JSON (" + e.what() + ")");
  }
  if (perf.value("status", "") == "skipped" || !perf.contains("configs") || perf["configs"].empty())
    skip_gate(perf_path + " holds no timings (its gate was skipped or failed before timing)",
              g_result_path, result);
  const std::string who = perf.value("baseline_name", "baseline");
  std::vector<std::string> problems;
  json cjs = json::array();
  double fastest = 1e300;
  for (const auto& c : perf["configs"]) {
    if (!c.contains("baseline") || !c["baseline"].contains("median_ms")) continue;
    const double us = c["baseline"]["median_ms"].get<double>() * 1e3;
    fastest = std::min(fastest, us);
    const std::string label = c.value("label", "?"), params = c.value("params", "");
    cjs.push_back({{"label", label}, {"params", params}, {"baseline_median_us", us}, {"launch_bound", us < min_us}});
    std::printf("  %s (%s): %s median %s us\n", label.c_str(), params.c_str(), who.c_str(), fmt(us).c_str());
    if (us < min_us)
      problems.push_back("launch-bound: " + who + " takes " + fmt(us) + " us on " + label + " (" + params +
                         "), under " + fmt(min_us) + " us: the comparison would time launches, not kernels");
  }
  if (cjs.empty()) skip_gate(perf_path + " holds no baseline timings", g_result_path, result);
  result["configs"] = cjs;
  result["problems"] = problems;
  std::printf("%s: %zu seen configuration(s) timed, fastest %s median %s us (limit %s us)\n",
              (t.suite + "/" + t.name).c_str(), cjs.size(), who.c_str(), fmt(fastest).c_str(), fmt(min_us).c_str());
  for (const auto& p : problems) std::printf("REJECTED: %s\n", p.c_str());
  print_measurement("baseline_fastest_us", fastest);
  return problems.empty() ? 0 : 1;
}

}  // namespace

int arena_task_filter_main(int argc, char** argv) {
  json result;
  std::string& result_path = g_result_path;
  try {
    RunnerOptions opt(argc, argv,
                      {"task", "reference", "perf-result", "result", "max-elements", "max-configs", "trivial-fraction",
                       "min-baseline-us"});
    if (opt.passthrough().size() > 1)
      throw std::invalid_argument(std::string("unknown argument '") + opt.passthrough()[1] + "'");
    result_path = opt.get("result");
    TaskSpec t = load_task(opt.require("task"));
    result = {{"gate", opt.has("perf-result") ? "launch_bound" : "filter"},
              {"task", t.suite + "/" + t.name},
              {"started", utc_now()}};
    Options o;
    o.max_elements = static_cast<int64_t>(opt.number("max-elements", static_cast<double>(o.max_elements)));
    o.max_configs = static_cast<int>(opt.number("max-configs", o.max_configs));
    o.trivial_fraction = opt.number("trivial-fraction", o.trivial_fraction);
    auto t0 = std::chrono::steady_clock::now();
    int rc;
    if (opt.has("perf-result")) {
      rc = run_perf_check(t, opt.get("perf-result"), opt.number("min-baseline-us", 5.0), result);
    } else {
      rc = run_oracle_checks(t, opt.require("reference"), o, result);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result["seconds"] = secs;
    result["status"] = rc == 0 ? "passed" : "rejected";
    if (!result_path.empty()) write_json_atomic(result_path, result);
    print_measurement("seconds", secs);
    std::printf("%s\n", rc == 0 ? "passed" : "FAILED: the task is degenerate (REJECTED lines above)");
    return rc;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arena-task-filter: %s\n", e.what());
    if (!result_path.empty()) {
      result["status"] = "error";
      result["error"] = e.what();
      write_json_atomic(result_path, result);
    }
    return 2;
  }
}

#ifndef ARENA_TOOLS_LIBRARY
int main(int argc, char** argv) { return arena_task_filter_main(argc, argv); }
#endif
