// Configurations drawn from a task's fuzz domain at evaluation time. The seed comes from
// the build (never from the agent's workspace), so an agent cannot tune for these shapes.
#pragma once
#include <cstdint>
#include <vector>

#include "task_spec.h"

namespace arena {

// Draws t.fuzz.count configurations, each int param log-uniformly in its range (so tiny
// and huge sizes are both likely), keeping only those that satisfy every `require`
// expression and give valid shapes. Throws SpecError when the domain is too narrow.
std::vector<Config> generate_fuzz_configs(const TaskSpec& t, uint64_t seed);

}  // namespace arena
