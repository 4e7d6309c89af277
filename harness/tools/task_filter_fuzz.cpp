#include "task_filter_fuzz.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compare.h"
#include "fuzz.h"
#include "inputs.h"
#include "tensors.h"

using json = nlohmann::json;

namespace arena::task_filter {

namespace {

// The fuzz configurations to check: the low corner, then each seed's draws; once each.
std::vector<Config> fuzz_configs(const TaskSpec& t, const Options& o, std::vector<std::string>& problems) {
  std::vector<Config> out;
  std::string why;
  if (auto corner = fuzz_low_corner(t, why))
    out.push_back(*corner);
  else
    std::printf("  fuzz low corner skipped: %s\n", why.c_str());
  for (uint64_t seed : o.fuzz_seeds) {
    std::vector<Config> drawn;
    try {
      drawn = generate_fuzz_configs(t, seed);
    } catch (const SpecError& e) {
      problems.push_back("fuzz seed " + std::to_string(seed) + ": " + e.what());
      continue;
    }
    for (auto& c : drawn) {
      c.label += " of seed " + std::to_string(seed);
      bool seen = false;
      for (const auto& have : out) seen |= have.describe() == c.describe();
      if (!seen) out.push_back(std::move(c));
    }
  }
  return out;
}

// Whether every output of two oracle runs is the same bytes (the gate's test across draws).
bool same_outputs(const TaskSpec& t, const HostTensors& a,
                  const HostTensors& b, int64_t& elements) {
  bool same = true;
  elements = 0;
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    if (!t.tensors[i].writes()) continue;
    elements += static_cast<int64_t>(a[i].size());
    same &= a[i].size() == b[i].size() &&
            (a[i].empty() || std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(double)) == 0);
  }
  return same;
}

// The gate's task checks on one fuzz configuration: trial 0's outputs informative, trial 1's
// (another draw, with outliers) different from them.
std::vector<std::string> check_one(const TaskSpec& t, const Config& c, uint32_t stream, const ReferenceLibrary& ref) {
  std::vector<std::string> found;
  const std::string where = c.label + " (" + c.describe() + ")";
  StreamKey key{hash_name(t.suite + "/" + t.name + "/filter/fuzz"), stream, 0, 0};
  HostTensors first, second;
  try {
    first = run_reference(t, c, draw_inputs(t, c, key, trial_plan(0)), ref);
    key.trial = 1;
    second = run_reference(t, c, draw_inputs(t, c, key, trial_plan(1)), ref);
  } catch (const std::exception& e) {
    return {"the oracle fails on " + where + ": " + e.what()};
  }
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    if (!ts.writes()) continue;
    Informativeness inf = check_informative(first[i].data(), static_cast<int64_t>(first[i].size()), ts.tol, ts.dtype);
    if (!inf.ok)
      found.push_back("expected output '" + ts.name + "' on " + where +
                      " cannot tell a real kernel from a trivial one: " + inf.why);
  }
  int64_t elements = 0;
  if (same_outputs(t, first, second, elements) && elements > 1)
    found.push_back("expected outputs on " + where + " are the same for two different input draws");
  return found;
}

std::string range_text(const std::string& name, const std::pair<int64_t, int64_t>& r) {
  return "configs.fuzz.ranges." + name + " [" + std::to_string(r.first) + ", " + std::to_string(r.second) + "]";
}

// c with int param `name` set to `value`, when the fuzz domain admits it.
std::optional<Config> with_int(const TaskSpec& t, const Config& c, const std::string& name, int64_t value) {
  Config out = with_param(t, c, name, static_cast<double>(value));
  if (!fuzz_admits(t, out)) return std::nullopt;
  return out;
}

// The fuzz ranges to change for degenerate c: each param at its range's minimum whose raise
// (to min+1, min+2 or min+3, the others unchanged) alone makes c pass; else every param at its
// minimum; else every range.
std::string ranges_to_change(const TaskSpec& t, const Config& c, uint32_t stream, const ReferenceLibrary& ref) {
  std::string fixes, at_min, all;
  auto add = [](std::string& to, const std::string& what) { to += (to.empty() ? "" : "; ") + what; };
  for (const auto& [name, range] : t.fuzz.ranges) {
    add(all, range_text(name, range));
    auto it = c.bindings.find(name);
    if (it == c.bindings.end() || it->second != range.first) continue;
    add(at_min, range_text(name, range));
    for (int64_t v = range.first + 1; v <= range.first + 3 && v <= range.second; ++v) {
      auto raised = with_int(t, c, name, v);
      if (!raised || !check_one(t, *raised, stream, ref).empty()) continue;
      add(fixes, range_text(name, range) + " (" + name + "=" + std::to_string(v) + " is not degenerate here)");
      break;
    }
  }
  if (!fixes.empty()) return "raise the minimum of " + fixes;
  if (!at_min.empty()) return "raise the minimum of one of " + at_min;
  return "change " + all;
}

}  // namespace

json check_fuzz(const TaskSpec& t, const ReferenceLibrary& ref, const Options& o, std::vector<std::string>& problems) {
  json out = json::array();
  if (t.fuzz.count == 0) return out;  // no fuzz domain
  int checked = 0, over_budget = 0;
  const std::vector<Config> configs = fuzz_configs(t, o, problems);
  for (size_t k = 0; k < configs.size(); ++k) {
    const Config& c = configs[k];
    const int64_t n = t.total_numel(c);
    json cj = {{"label", c.label}, {"params", c.describe()}, {"elements", n}};
    if (n > o.max_elements) {
      ++over_budget;
      cj["checked"] = false;
      out.push_back(cj);
      continue;
    }
    ++checked;
    std::vector<std::string> found = check_one(t, c, static_cast<uint32_t>(k), ref);
    if (!found.empty()) {
      const std::string fix = ranges_to_change(t, c, static_cast<uint32_t>(k), ref);
      for (const auto& f : found)
        problems.push_back("fuzz: " + f + "; the fuzz domain allows a degenerate draw: " + fix);
    }
    cj["checked"] = true;
    cj["problems"] = found;
    out.push_back(cj);
  }
  std::printf("  fuzz: the gate's task checks on %d configuration(s) (the low corner and seeds", checked);
  for (uint64_t s : o.fuzz_seeds) std::printf(" %llu", static_cast<unsigned long long>(s));
  std::printf("; %d over the element budget skipped):", over_budget);
  for (const auto& cj : out)
    if (cj["checked"].get<bool>())
      std::printf(" %s (%s)", cj["label"].get<std::string>().c_str(), cj["params"].get<std::string>().c_str());
  std::printf("\n");
  return out;
}

}  // namespace arena::task_filter
