#include "fuzz.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "inputs.h"

namespace arena {

namespace {

bool satisfies(const TaskSpec& t, const Config& c) {
  try {
    for (const auto& r : t.fuzz.require)
      if (!r.eval(c.bindings)) return false;
    for (const auto& ts : t.tensors)
      for (int64_t d : t.shape_of(ts, c))
        if (d < 1) return false;
    for (const auto& ts : t.tensors)
      if (ts.dist && ts.dist->kind == Distribution::IntRange) {
        Distribution d = ts.dist->at(c.bindings);
        if (d.a > d.b) return false;  // an empty int_range (indices below a size of 0)
      }
    return true;
  } catch (const ExprError&) {
    return false;  // overflow: the draw is out of any sensible size
  }
}

}  // namespace

std::vector<Config> generate_fuzz_configs(const TaskSpec& t, uint64_t seed) {
  std::vector<Config> out;
  std::mt19937_64 rng(seed ^ hash_name(t.suite + "/" + t.name));
  const int max_attempts = 100000;
  int attempts = 0;
  while (static_cast<int>(out.size()) < t.fuzz.count) {
    if (++attempts > max_attempts)
      throw SpecError(t.file.string() + ": configs.fuzz: no valid configuration in " + std::to_string(max_attempts) +
                      " draws (ranges and require leave too little room)");
    std::map<std::string, double> values;
    for (const auto& p : t.params) {
      if (!p.is_int) continue;
      auto it = t.fuzz.ranges.find(p.name);
      if (it == t.fuzz.ranges.end()) {
        values[p.name] = static_cast<double>(p.min.value_or(1));
        continue;
      }
      auto [lo, hi] = it->second;
      std::uniform_real_distribution<double> u(std::log(static_cast<double>(lo)),
                                               std::log(static_cast<double>(hi) + 1.0));
      int64_t v = static_cast<int64_t>(std::floor(std::exp(u(rng))));
      values[p.name] = static_cast<double>(std::clamp(v, lo, hi));
    }
    std::string label = "fuzz[" + std::to_string(out.size()) + "]";
    Config c = make_config(t, values, label, "configs.fuzz");
    if (satisfies(t, c)) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace arena
