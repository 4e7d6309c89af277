#include "timed_checks.h"

#include "device_download.h"

namespace arena {

SampleReservoir::SampleReservoir(const TaskSpec& task, const Config& c, int slots, uint64_t seed)
    : rng_(seed) {
  for (int s = 0; s < slots; ++s) {
    auto k = std::make_unique<KeptSample>();
    k->in.reserve(task.tensors.size());  // target.allocations points into these
    k->out.reserve(task.tensors.size());
    for (size_t i = 0; i < task.tensors.size(); ++i) {
      const TensorSpec& ts = task.tensors[i];
      const size_t bytes = static_cast<size_t>(task.numel(ts, c)) * dtype_size(ts.dtype);
      k->in.emplace_back(ts.reads() ? DeviceBuffer(std::max<size_t>(bytes, 1)) : DeviceBuffer());
      k->out.emplace_back(ts.writes() ? DeviceBuffer(std::max<size_t>(bytes, 1)) : DeviceBuffer());
      TensorRef in_ref, out_ref;
      if (ts.reads()) in_ref = {k->in.back().id(), 0, bytes, task.numel(ts, c), ts.dtype, false, false, -1, 0, 0};
      if (ts.writes()) out_ref = {k->out.back().id(), 0, bytes, task.numel(ts, c), ts.dtype, false, false, -1, 0, 0};
      k->target.inputs.tensors.push_back(in_ref);
      k->target.outputs.tensors.push_back(out_ref);
      if (ts.reads()) k->target.allocations.push_back(&k->in.back());
      if (ts.writes()) k->target.allocations.push_back(&k->out.back());
    }
    slots_.push_back(std::move(k));
  }
}

SnapshotTarget* SampleReservoir::choose(int round, int samples) {
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
  slot->target.sample = slot->sample;
  pending_ = slot;
  return &slot->target;
}

void SampleReservoir::filled() {
  if (pending_) pending_->filled = true;
  pending_ = nullptr;
}

HostData host_inputs_of(const TaskSpec& task, const KeptSample& k) {
  HostData h;
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    const TensorSpec& ts = task.tensors[i];
    const TensorRef& in = k.target.inputs.tensors[i];
    h.numel.push_back(in.numel ? in.numel : k.target.outputs.tensors[i].numel);
    h.bytes.emplace_back();
    h.values.push_back(ts.reads() ? download_values(ts.dtype, k.in[i].get(), in.numel) : std::vector<double>());
  }
  return h;
}

CompareResult compare_kept_output(const TaskSpec& task, const KeptSample& k, size_t i, const double* want) {
  const TensorSpec& ts = task.tensors[i];
  return compare_device_values(ts.dtype, k.out[i].get(), want, k.target.outputs.tensors[i].numel, ts.tol);
}

}  // namespace arena
