#include "gate_memory.h"

#include <algorithm>
#include <string>

namespace arena {

namespace {

constexpr int64_t kRedZones = 2 * 64 * 1024;  // GuardedBuffer::kRedZone on each side (device.h)
constexpr int64_t kAlign = 256;               // GuardedBuffer::kAlign
constexpr int64_t kTrials = 3;                // arena-correct's default --trials
constexpr int64_t kPreparedConfigs = 2;       // the configuration checked and the next one

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int64_t buffer_set_bytes(const TaskSpec& t, const Config& c) {
  int64_t set = 0;
  for (const TensorSpec& ts : t.tensors) {
    const int64_t bytes = (t.numel(ts, c) * static_cast<int64_t>(dtype_size(ts.dtype)) + kAlign - 1) / kAlign * kAlign;
    set += bytes + kRedZones + (ts.reads() ? bytes : 0);
  }
  return set;
}

int64_t correctness_gate_device_bytes(const TaskSpec& t, const std::vector<Config>& configs) {
  const bool torch_oracle = t.torch.present;
  const bool python_candidate = ends_with(t.candidate, ".py");
  const bool baseline_oracle = t.reference.empty() && !torch_oracle && !std::filesystem::exists(t.dir / "reference.cpp");
  int64_t tensors = 0;
  for (const Config& c : configs) {
    int64_t set = buffer_set_bytes(t, c), float64 = 0;
    for (const TensorSpec& ts : t.tensors) float64 += t.numel(ts, c) * 8;
    if (torch_oracle) set += kPreparedConfigs * kTrials * 2 * float64;
    tensors = std::max(tensors, set);
  }
  // Processes: the judge, the candidate's recorder and executor, the baseline's two when it is
  // the oracle. The judge imports PyTorch for a PyTorch oracle; a Python recorder (Triton) does,
  // and so does the baseline's of a Python suite.
  int64_t contexts = 3 + (baseline_oracle ? 2 : 0);
  int64_t python = (torch_oracle ? 1 : 0) + (python_candidate ? 1 + (baseline_oracle ? 1 : 0) : 0);
  return tensors + contexts * kContextBytes + python * kPythonContextExtraBytes;
}

}  // namespace arena
