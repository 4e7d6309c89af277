// Input generation: a counter-based RNG (Philox4x32-10, Random123) keyed by
// (task, configuration, trial, tensor), so every value is reproducible from its coordinates
// and generation parallelizes over element ranges.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host_pool.h"  // parallel_for
#include "task_spec.h"

namespace arena {

// How one correctness trial draws its inputs.
struct TrialPlan {
  int index = 0;
  bool alternate_family = false;  // normal <-> uniform with the same mean and spread
  bool outliers = false;          // 0.1 % of elements scaled by 50
  std::string describe() const;
};

// Trial 0 draws the declared distributions, trial 1 adds outliers, trial 2 swaps the
// family; later trials cycle with fresh draws.
TrialPlan trial_plan(int index);

// The version of the values generate_values draws: part of every cached draw's key
// (arena-correct's input cache), so a change in how values are drawn must change it.
constexpr const char* kDrawVersion = "philox4x32-10 box-muller v1";

constexpr double kOutlierProbability = 0.001;
constexpr double kOutlierScale = 50.0;

uint64_t hash_name(const std::string& s);  // FNV-1a, stable across platforms

struct StreamKey {
  uint64_t task;     // hash of the task name
  uint32_t config;   // which configuration (distinct per set)
  uint32_t trial;
  uint32_t tensor;
};

// The key of the perf gate's first buffer contents for seen configuration `index`, drawn on
// the device (DeviceTensors' drawing constructor; every timed sample then draws its own);
// arena-profile launches on the same data.
uint64_t perf_first_contents_key(uint64_t task_key, size_t index);

// Fills `out` (n values) with draws from `d` under `plan`, exactly representable in `dtype`
// is NOT guaranteed here: callers round through the dtype (see dtype.h). Values drawn
// differently from before need a new kDrawVersion.
void generate_values(const Distribution& d, const TrialPlan& plan, const StreamKey& key, double* out, int64_t n);


}  // namespace arena
