// A trial's inputs for arena-correct (arena_correct_gate.h): drawn on the host, or read from
// the input cache, where a repeated gate finds them (docs/DESIGN.md, "Correctness"). Drawing
// costs tens of nanoseconds an element on one thread (a Philox draw and, for normal values,
// a logarithm, a square root and a cosine); reading back the same inputs in their dtype costs
// a few. The cache is an OracleCache of its own (the same folder and budget, its own counts):
// an entry holds each input's bytes, packed into 8-byte words.
#include "arena_correct_gate.h"

#include <cstring>
#include <stdexcept>

namespace arena::correct_gate {

namespace {

// Everything the drawn inputs depend on: the task's spec (distributions, shapes), the
// configuration, the trial, the fuzz seed of generated configurations, and how values are drawn.
OracleKey inputs_key(const Gate& g, size_t index, const TrialPlan& plan) {
  const Config& c = g.configs[index];
  OracleKey k = trial_key(g, "arena-correct drawn inputs", index, plan.index);
  k.add("draw", std::string(kDrawVersion)).add("plan", plan.describe());
  for (size_t i = 0; i < g.task.tensors.size(); ++i) {
    const TensorSpec& ts = g.task.tensors[i];
    k.add("tensor " + std::to_string(i), ts.name + " " + dtype_name(ts.dtype) + " x" +
                                             std::to_string(g.task.numel(ts, c)) + (ts.reads() ? " read" : ""));
  }
  return k;
}

HostValues pack(const HostBytes& b) {
  HostValues words((b.size() + 7) / 8);
  if (b.empty()) return words;
  words.back() = 0;  // the last word's padding: an entry's bytes depend on the inputs alone
  std::memcpy(words.data(), b.data(), b.size());
  return words;
}

// The cached entry back as HostData; false when its sizes are not the inputs' (then drawn).
bool unpack(const Gate& g, const Config& c, const HostTensors& words, HostData& h) {
  if (words.size() != g.task.tensors.size()) return false;
  for (size_t i = 0; i < g.task.tensors.size(); ++i) {
    const TensorSpec& ts = g.task.tensors[i];
    const int64_t n = g.task.numel(ts, c);
    const size_t bytes = ts.reads() ? static_cast<size_t>(n) * dtype_size(ts.dtype) : 0;
    if (words[i].size() != (bytes + 7) / 8) return false;
    h.numel.push_back(n);
    HostBytes b(bytes);
    HostValues v(ts.reads() ? static_cast<size_t>(n) : 0);
    if (bytes) {
      std::memcpy(b.data(), words[i].data(), bytes);
      parallel_to_double(ts.dtype, b.data(), v.data(), n);
    }
    h.bytes.push_back(std::move(b));
    h.values.push_back(std::move(v));
  }
  return true;
}

}  // namespace

HostData trial_inputs(const Gate& g, size_t index, const StreamKey& key, const TrialPlan& plan) {
  const Config& c = g.configs[index];
  if (!g.input_cache) return draw_inputs(g.task, c, key, plan);
  std::optional<HostData> drawn;
  const HostTensors words = g.input_cache->get(inputs_key(g, index, plan), [&] {
    drawn = draw_inputs(g.task, c, key, plan);
    HostTensors packed;
    for (const auto& b : drawn->bytes) packed.push_back(pack(b));
    return packed;
  });
  if (drawn) return std::move(*drawn);
  HostData h;
  if (unpack(g, c, words, h)) return h;
  return draw_inputs(g.task, c, key, plan);  // an entry of other sizes under this key: not used
}

}  // namespace arena::correct_gate
