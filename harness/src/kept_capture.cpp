#include "kept_capture.h"

#include <stdexcept>

namespace arena {

std::vector<KeptCaptureStep> kept_capture_plan(const BindingSpec& binding, uint64_t round_key, int sample) {
  if (sample < 0) throw std::invalid_argument("kept sample: the sample index is negative");
  std::vector<KeptCaptureStep> plan;
  for (size_t t = 0; t < binding.tensors.size(); ++t) {
    const TensorRef& x = binding.tensors[t];
    if (!x.reads && !x.writes) continue;
    KeptCaptureStep s;
    s.tensor = t;
    s.ref = x;
    if (x.reads) {
      if (x.dist_kind < 0)
        throw std::invalid_argument("kept sample: tensor " + std::to_string(t) +
                                    " is read but has no device distribution, so its inputs cannot be redrawn");
      s.redraw = true;
      s.key = sample_key(round_key, static_cast<uint32_t>(sample), static_cast<uint32_t>(t));
      s.compare_input = !x.writes;  // an inout tensor is meant to change
    }
    s.copy_output = x.writes;
    plan.push_back(s);
  }
  return plan;
}

int KeptPause::accept(const nlohmann::json& pause) {
  if (pause.value("pause", "") != "kept")
    throw std::runtime_error("the executor paused for '" + pause.value("pause", std::string("?")) +
                             "', not after a kept sample");
  if (sample_ < 0) throw std::runtime_error("the executor paused after a sample in a round that keeps none");
  if (seen_) throw std::runtime_error("the executor paused twice in one round");
  const int s = pause.value("sample", -1);
  if (s != sample_)
    throw std::runtime_error("the executor paused after sample " + std::to_string(s) + ", not after the kept sample " +
                             std::to_string(sample_));
  seen_ = true;
  return s;
}

void KeptPause::finish(bool round_completed) const {
  if (round_completed && sample_ >= 0 && !seen_)
    throw std::runtime_error("the executor finished the round without stopping after its kept sample " +
                             std::to_string(sample_) + ", so the judge could not copy it");
}

}  // namespace arena
