// Configurations drawn from a task's fuzz domain at evaluation time. The seed comes from
// the build (never from the agent's workspace), so an agent cannot tune for these shapes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "task_spec.h"

namespace arena {

// Draws t.fuzz.count configurations, each int param log-uniformly in its range (so tiny
// and huge sizes are both likely), keeping only those that satisfy every `require`
// expression and give valid shapes. Throws SpecError when the domain is too narrow.
std::vector<Config> generate_fuzz_configs(const TaskSpec& t, uint64_t seed);

// Whether c lies in t's fuzz domain: every `require` holds and the shapes are valid.
bool fuzz_admits(const TaskSpec& t, const Config& c);

// The fuzz domain's low corner ("fuzz low corner"): every ranged int param at its range's
// minimum, raised by as few steps as possible (a short ladder per param: min, min+1, ...,
// doublings, max) until every `require` holds and the shapes are valid; of those, the one with
// the fewest tensor elements. std::nullopt, with `why` set, when no such configuration is found.
std::optional<Config> fuzz_low_corner(const TaskSpec& t, std::string& why);

}  // namespace arena
