#include "fuzz.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "inputs.h"

namespace arena {

bool fuzz_admits(const TaskSpec& t, const Config& c) {
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

namespace {

// A param's values in the low corner's search, smallest first: min, min+1, min+2, min+3, then
// doublings, then max.
std::vector<int64_t> corner_ladder(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t x = lo; x <= hi && x <= lo + 3; ++x) v.push_back(x);
  for (int64_t x = std::max<int64_t>(lo, 1); x <= hi / 2;) {
    x *= 2;
    if (x > v.back()) v.push_back(x);
  }
  if (v.back() != hi) v.push_back(hi);
  return v;
}

// All tensors' elements in c; the largest int64 where a shape cannot be evaluated.
int64_t corner_elements(const TaskSpec& t, const Config& c) {
  try {
    return t.total_numel(c);
  } catch (const ExprError&) {
    return std::numeric_limits<int64_t>::max();
  }
}

}  // namespace

std::optional<Config> fuzz_low_corner(const TaskSpec& t, std::string& why) {
  std::vector<const ParamSpec*> ranged;
  std::vector<std::vector<int64_t>> ladders;
  std::map<std::string, double> values;
  for (const auto& p : t.params) {
    if (!p.is_int) continue;
    auto it = t.fuzz.ranges.find(p.name);
    values[p.name] = static_cast<double>(it == t.fuzz.ranges.end() ? p.min.value_or(1) : it->second.first);
    if (it == t.fuzz.ranges.end()) continue;
    ranged.push_back(&p);
    ladders.push_back(corner_ladder(it->second.first, it->second.second));
  }
  // Ladder steps summed over the params, fewest first; among configurations with as many steps,
  // the one with the fewest elements.
  const long max_tries = 200000;
  long tries = 0;
  std::optional<Config> best;
  int64_t best_elements = 0;
  std::function<void(size_t, size_t)> fill = [&](size_t k, size_t steps_left) {
    if (tries > max_tries) return;
    if (k + 1 >= ranged.size()) {
      if (!ranged.empty()) {
        if (steps_left >= ladders[k].size()) return;
        values[ranged[k]->name] = static_cast<double>(ladders[k][steps_left]);
      } else if (steps_left > 0) {
        return;
      }
      ++tries;
      Config c = make_config(t, values, "fuzz low corner", "configs.fuzz");
      if (!fuzz_admits(t, c)) return;
      const int64_t n = corner_elements(t, c);
      if (!best || n < best_elements) {
        best = std::move(c);
        best_elements = n;
      }
      return;
    }
    for (size_t s = 0; s <= steps_left && s < ladders[k].size(); ++s) {
      values[ranged[k]->name] = static_cast<double>(ladders[k][s]);
      fill(k + 1, steps_left - s);
    }
  };
  size_t most_steps = 0;
  for (const auto& l : ladders) most_steps += l.size() - 1;
  for (size_t steps = 0; steps <= most_steps && !best && tries <= max_tries; ++steps) fill(0, steps);
  if (!best)
    why = "no configuration within " + std::to_string(tries) +
          " tries near the ranges' minimum satisfies configs.fuzz.require with valid shapes";
  return best;
}

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
    if (fuzz_admits(t, c)) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace arena
