#include "task_filter_oracle.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "compare.h"
#include "gate_report.h"
#include "inputs.h"
#include "kernel_library.h"
#include "parallel_host.h"
#include "task_filter_fuzz.h"
#include "tensors.h"

using json = nlohmann::json;

namespace arena::task_filter {

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
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

namespace {

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
                   [&](const Config& a, const Config& b) { return t.total_numel(a) < t.total_numel(b); });
  std::vector<Config> under;
  for (const auto& c : all)
    if (t.total_numel(c) <= o.max_elements) under.push_back(c);
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
  HostValues v(n);
  generate_values(ts.dist->at(c.bindings), trial_plan(0), key, v.data(), n);
  HostBytes bytes(n * dtype_size(ts.dtype));
  parallel_from_double(ts.dtype, v.data(), bytes.data(), n);
  parallel_to_double(ts.dtype, bytes.data(), v.data(), n);
  h.bytes[i] = std::move(bytes);
  h.values[i] = std::move(v);
}

// Whether any output differs beyond its tolerance between two oracle runs.
bool outputs_differ(const TaskSpec& t, const HostTensors& a,
                    const HostTensors& b) {
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
double match_fraction(double c, const HostValues& want, const TensorSpec& ts) {
  if (want.empty()) return 0;
  int64_t hits = 0;
  for (double w : want) hits += values_match(c, w, ts.dtype, ts.tol);
  return static_cast<double>(hits) / static_cast<double>(want.size());
}

// The most frequent value (exact equality) and the median of a set.
std::pair<double, double> mode_and_median(const HostValues& v) {
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

// Whether a param names a dimension of some tensor (changing it changes the shapes).
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


// The oracle, loaded; a Python oracle where PyTorch cannot be imported skips the gate.
ReferenceLibrary load_oracle(const TaskSpec& t, const std::string& ref_spec, const std::string& result_path,
                             json& result) {
  try {
    return ReferenceLibrary::load(ref_spec, t.file.string());
  } catch (const std::exception& e) {
    const std::string what = e.what();
    if (what.find("PyTorch is not installed") != std::string::npos ||
        what.find("No module named 'torch'") != std::string::npos)
      skip_gate("the oracle needs PyTorch, which this Python cannot import (" + what + ")", result_path, result);
    throw;
  }
}

// One checked configuration's expected outputs.
struct ConfigOutputs {
  std::string label;
  HostTensors out;
};

// What the probes found, over the checked configurations (largest first).
struct Findings {
  explicit Findings(size_t nt) : pooled(nt), input_matters(nt, false), input_fixed(nt, true) {}
  HostTensors pooled;  // expected outputs over every checked configuration
  std::vector<bool> input_matters, input_fixed;
  std::map<std::string, bool> param_matters;         // the params no shape depends on
  std::map<std::string, std::string> param_change;   // "<from> to <to>": the change tried
  std::vector<ConfigOutputs> by_size;

  // The change tried on a param; "" where its bounds left no other value to try.
  std::string change_of(const std::string& name) const {
    auto it = param_change.find(name);
    return it == param_change.end() ? "" : it->second;
  }
};

// Redraws each input (one that can take more than one value, not yet shown to matter) and
// records in `changed` whether the outputs moved.
void probe_inputs(const TaskSpec& t, const Config& c, size_t ci, uint64_t task_key, const HostData& base,
                  const HostTensors& expected, ReferenceLibrary& ref, Findings& f,
                  json& changed) {
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.reads()) continue;
    const Distribution d = ts.dist->at(c.bindings);
    if (d.kind == Distribution::IntRange && d.a == d.b) continue;  // one value only: nothing to redraw
    f.input_fixed[i] = false;
    if (f.input_matters[i]) continue;  // already shown on a larger configuration
    HostData h = base;
    StreamKey k2{task_key, static_cast<uint32_t>(ci), 1000u + static_cast<uint32_t>(i), static_cast<uint32_t>(i)};
    redraw(t, c, h, i, k2);
    const bool differs = outputs_differ(t, expected, run_reference(t, c, h, ref));
    changed[ts.name] = differs;
    if (differs) f.input_matters[i] = true;
  }
}

// Changes each free param (not yet shown to matter) to the first other value the oracle
// accepts, and records in `changed` whether the outputs moved.
void probe_params(const TaskSpec& t, const Config& c, const std::vector<std::string>& free_params,
                  const HostData& base, const HostTensors& expected, ReferenceLibrary& ref,
                  Findings& f, json& changed) {
  for (const auto& name : free_params) {
    if (f.param_matters[name]) continue;  // already shown on a larger configuration
    const ParamSpec* p = nullptr;
    size_t fi = 0;
    for (const auto& q : t.params) {
      if (q.name == name) p = &q;
      if (!q.is_int && !p) ++fi;
    }
    double v = p->is_int ? static_cast<double>(c.bindings.at(name)) : c.floats[fi];
    for (double nv : perturbed(*p, v)) {
      HostTensors out2;
      try {
        out2 = run_reference(t, with_param(t, c, name, nv), base, ref);
      } catch (const std::exception&) {
        continue;  // a value the model refuses: try the next one
      }
      const bool differs = outputs_differ(t, expected, out2);
      changed[name] = differs;
      f.param_matters[name] = f.param_matters[name] || differs;
      f.param_change[name] = fmt(v) + " to " + fmt(nv);
      break;
    }
  }
}

// Runs the oracle on every checked configuration, then on redrawn inputs and changed params;
// returns each configuration's record for the result.
json probe_configs(const TaskSpec& t, const std::vector<Config>& configs, ReferenceLibrary& ref, Findings& f) {
  const uint64_t task_key = hash_name(t.suite + "/" + t.name + "/filter");
  std::vector<std::string> free_params;
  for (const auto& p : t.params)
    if (!in_any_shape(t, p.name)) free_params.push_back(p.name);
  json cjs = json::array();
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    const Config& c = configs[ci];
    json cj = {{"label", c.label}, {"params", c.describe()}, {"elements", t.total_numel(c)}};
    StreamKey key{task_key, static_cast<uint32_t>(ci), 0, 0};
    HostData base = draw_inputs(t, c, key, trial_plan(0));
    auto expected = run_reference(t, c, base, ref);
    for (size_t i = 0; i < t.tensors.size(); ++i)
      if (t.tensors[i].writes()) f.pooled[i].insert(f.pooled[i].end(), expected[i].begin(), expected[i].end());
    f.by_size.push_back({c.label, expected});
    json changed = json::object();
    probe_inputs(t, c, ci, task_key, base, expected, ref, f, changed);
    probe_params(t, c, free_params, base, expected, ref, f, changed);
    cj["output_changes_when_redrawn_or_changed"] = changed;
    cjs.push_back(cj);
  }
  return cjs;
}

// The outputs' values over all checked configurations: how much a kernel writing zeros or one
// value would match; constant, mostly-zero and mostly-one-value outputs are problems.
json check_output_values(const TaskSpec& t, const Findings& f, size_t nconfigs, const Options& o,
                         std::vector<std::string>& problems) {
  json outputs = json::object();
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.writes() || f.pooled[i].empty()) continue;
    const auto& v = f.pooled[i];
    auto [mode, median] = mode_and_median(v);
    const double zero_fraction = match_fraction(0.0, v, ts);
    // A constant kernel's best guesses: the most frequent value, the median, and NaN (which
    // matches only NaN: an oracle that gives NaN lets a kernel write NaN).
    double one_value = mode, mode_fraction = match_fraction(mode, v, ts);
    for (double c : {median, std::numeric_limits<double>::quiet_NaN()}) {
      const double fr = match_fraction(c, v, ts);
      if (fr > mode_fraction) {
        mode_fraction = fr;
        one_value = c;
      }
    }
    outputs[ts.name] = {{"elements", v.size()},
                        {"zero_match_fraction", zero_fraction},
                        {"one_value_match_fraction", mode_fraction},
                        {"one_value", one_value}};
    std::string where = "on " + std::to_string(nconfigs) + " configuration(s), " + std::to_string(v.size()) +
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
  return outputs;
}

// Configurations with as many output elements and the same values, from different inputs.
void check_identical_configs(const TaskSpec& t, const Findings& f, std::vector<std::string>& problems) {
  const auto& by_size = f.by_size;
  for (size_t a = 0; a < by_size.size(); ++a)
    for (size_t b = a + 1; b < by_size.size(); ++b) {
      bool same_size = true, all_tiny = true;
      for (size_t i = 0; i < t.tensors.size(); ++i) {
        if (!t.tensors[i].writes()) continue;
        same_size &= by_size[a].out[i].size() == by_size[b].out[i].size();
        all_tiny &= by_size[a].out[i].size() <= 1;
      }
      if (!same_size || all_tiny) continue;
      if (!outputs_differ(t, by_size[a].out, by_size[b].out))
        problems.push_back("the outputs are identical on " + by_size[a].label + " and " + by_size[b].label +
                           " (different inputs and params, the same values within tolerance)");
    }
}

// Inputs and free params that changed no output anywhere.
void check_dependence(const TaskSpec& t, const Findings& f, std::vector<std::string>& problems) {
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.reads() || f.input_fixed[i] || f.input_matters[i]) continue;
    problems.push_back("the outputs do not depend on input '" + ts.name +
                       "': redrawing it changes no expected value beyond the tolerance on any checked configuration");
  }
  for (const auto& [name, matters] : f.param_matters)
    if (!matters)
      problems.push_back("the outputs do not depend on param '" + name + "': changing it (" + f.change_of(name) +
                         ") changes no expected value beyond the tolerance on any checked configuration");
}

// What was checked and what each output, input and param did.
void print_findings(const TaskSpec& t, const std::vector<Config>& configs, const json& outputs, const Findings& f) {
  std::printf("%s: oracle checks on %zu configuration(s):", (t.suite + "/" + t.name).c_str(), configs.size());
  for (const auto& c : configs) std::printf(" %s (%s)", c.label.c_str(), c.describe().c_str());
  std::printf("\n");
  for (const auto& [name, o] : outputs.items())
    std::printf("  output %s: %s values; zeros would match %s, one value %s\n", name.c_str(),
                std::to_string(o["elements"].get<int64_t>()).c_str(), pct(o["zero_match_fraction"]).c_str(),
                pct(o["one_value_match_fraction"]).c_str());
  for (size_t i = 0; i < t.tensors.size(); ++i)
    if (t.tensors[i].reads())
      std::printf("  input %s: %s\n", t.tensors[i].name.c_str(),
                  f.input_fixed[i] ? "takes one value (not redrawn)"
                                   : f.input_matters[i] ? "changes the outputs" : "changes nothing");
  for (const auto& [name, matters] : f.param_matters)
    std::printf("  param %s (%s): %s\n", name.c_str(), f.change_of(name).c_str(),
                matters ? "changes the outputs" : "changes nothing");
}

}  // namespace

int run_oracle_checks(const TaskSpec& t, const std::string& ref_spec, const Options& o,
                      const std::string& result_path, json& result) {
  ReferenceLibrary ref = load_oracle(t, ref_spec, result_path, result);
  const std::vector<Config> configs = pick_configs(t, o);
  Findings f(t.tensors.size());
  result["configs"] = probe_configs(t, configs, ref, f);
  std::vector<std::string> problems;
  const json outputs = check_output_values(t, f, configs.size(), o, problems);
  result["outputs"] = outputs;
  check_identical_configs(t, f, problems);
  check_dependence(t, f, problems);
  print_findings(t, configs, outputs, f);
  result["fuzz"] = check_fuzz(t, ref, o, problems);
  result["problems"] = problems;
  for (const auto& p : problems) std::printf("REJECTED: %s\n", p.c_str());
  print_measurement("filter_configs", static_cast<double>(configs.size()));
  print_measurement("filter_problems", static_cast<double>(problems.size()));
  return problems.empty() ? 0 : 1;
}

}  // namespace arena::task_filter
