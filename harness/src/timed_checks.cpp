#include "timed_checks.h"

#include "device_download.h"

namespace arena {

SampleReservoir::SampleReservoir(const TaskSpec& task, const Config& c, int slots, uint64_t seed)
    : rng_(seed) {
  for (int s = 0; s < slots; ++s) {
    auto k = std::make_unique<KeptSample>();
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      const TensorSpec& ts = task.tensors[i];
      const int64_t n = task.numel(ts, c);
      const size_t bytes = static_cast<size_t>(n) * dtype_size(ts.dtype);
      constexpr auto judge_only = DeviceBuffer::Sharing::JudgeOnly;
      k->in.emplace_back(ts.reads() ? DeviceBuffer(std::max<size_t>(bytes, 1), judge_only) : DeviceBuffer());
      k->out.emplace_back(ts.writes() ? DeviceBuffer(std::max<size_t>(bytes, 1), judge_only) : DeviceBuffer());
      k->numel.push_back(n);
    }
    slots_.push_back(std::move(k));
  }
}

KeptSample* SampleReservoir::choose(int round, int samples) {
  pending_ = nullptr;
  if (slots_.empty() || samples < 1) return nullptr;
  // Reservoir sampling over rounds, one sample of a chosen round: after n rounds every round
  // has been kept with the same probability.
  const int n = round + 1;
  KeptSample* slot = nullptr;
  if (n <= static_cast<int>(slots_.size())) {
    slot = slots_[n - 1].get();
  } else if (std::uniform_int_distribution<int>(1, n)(rng_) <= static_cast<int>(slots_.size())) {
    slot = slots_[std::uniform_int_distribution<size_t>(0, slots_.size() - 1)(rng_)].get();
  }
  if (!slot) return nullptr;
  slot->round = round;
  slot->sample = std::uniform_int_distribution<int>(0, samples - 1)(rng_);
  pending_ = slot;
  return slot;
}

void SampleReservoir::filled() {
  if (pending_) pending_->filled = true;
  pending_ = nullptr;
}

std::vector<std::string> capture_kept_sample(const std::vector<KeptCaptureStep>& plan, void* const* tensors,
                                             KeptSample& k, const Stream& s) {
  for (const KeptCaptureStep& step : plan) {
    const TensorRef& x = step.ref;
    if (step.tensor >= k.in.size() || static_cast<int64_t>(x.numel) != k.numel[step.tensor])
      throw std::runtime_error("kept sample: tensor " + std::to_string(step.tensor) + " does not match its kept copy");
    if (step.redraw)
      check(arena_dev_generate(k.in[step.tensor].get(), static_cast<int>(x.dtype), static_cast<size_t>(x.numel),
                               x.dist_kind, x.a, x.b, step.key, s.get()),
            "redrawing a kept sample's inputs");
    if (step.copy_output)
      check(arena_dev_d2d(k.out[step.tensor].get(), tensors[step.tensor], x.bytes, s.get()),
            "copying a kept sample's outputs");
  }
  // Inputs must come out of the launch as they went in (arena_dev_compare waits for the stream).
  std::vector<std::string> modified;
  for (const KeptCaptureStep& step : plan) {
    if (!step.compare_input) continue;
    size_t first = step.ref.bytes;
    check(arena_dev_compare(tensors[step.tensor], k.in[step.tensor].get(), step.ref.bytes, s.get(), &first),
          "checking a kept sample's inputs");
    if (first < step.ref.bytes)
      modified.push_back("input tensor " + std::to_string(step.tensor) +
                         " was modified by a timed launch (first changed element " +
                         std::to_string(first / dtype_size(step.ref.dtype)) + ")");
  }
  if (!s.wait(600)) throw DeviceError("keeping a sample did not finish within 600 s");
  return modified;
}

HostData host_inputs_of(const TaskSpec& task, const KeptSample& k) {
  HostData h;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    const TensorSpec& ts = task.tensors[i];
    h.numel.push_back(k.numel[i]);
    h.bytes.emplace_back();
    h.values.push_back(ts.reads() ? download_values(ts.dtype, k.in[i].get(), k.numel[i]) : HostValues());
  }
  return h;
}

CompareResult compare_kept_output(const TaskSpec& task, const KeptSample& k, size_t i, const double* want) {
  const TensorSpec& ts = task.tensors[i];
  return compare_device_values(ts.dtype, k.out[i].get(), want, k.numel[i], ts.tol);
}

}  // namespace arena
