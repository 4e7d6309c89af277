// Checks of timed launches (docs/DESIGN.md, "Performance"): every timed sample draws fresh
// inputs, and a few samples chosen uniformly at random over the whole run (a reservoir over
// rounds: any round, early or late, is as likely to be kept) are copied aside by the judge,
// in its own context, while the executor waits right after the sample (kept_capture.h), then
// checked against the oracle. A kernel that returns remembered results, skips work on some
// calls, or behaves differently once it has been called many times is caught; the kernel's
// device code cannot tell which samples are kept, and no worker maps the kept copies.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compare.h"
#include "device.h"
#include "kept_capture.h"
#include "side.h"
#include "task_spec.h"
#include "tensors.h"

namespace arena {

// One kept sample, in the judge's device memory: never lent to a worker. The judge reads it
// once timing is over (inputs for the oracle, outputs compared a chunk at a time).
struct KeptSample {
  std::vector<DeviceBuffer> in, out;  // per tensor (empty where the tensor is not read/written)
  std::vector<int64_t> numel;         // per tensor
  bool filled = false;
  int round = -1, sample = -1;
};

class SampleReservoir {
 public:
  SampleReservoir(const TaskSpec& task, const Config& c, int slots, uint64_t seed);
  // Before round `round` (0-based) of `samples` samples: the slot to fill (its `sample` set to
  // the sample kept), or nullptr.
  KeptSample* choose(int round, int samples);
  // After that round ran: the slot now holds that sample (on the device; a later round may
  // take its place).
  void filled();
  // The kept samples, for the oracle.
  const std::vector<std::unique_ptr<KeptSample>>& kept() const { return slots_; }

 private:
  std::vector<std::unique_ptr<KeptSample>> slots_;
  std::mt19937_64 rng_;
  KeptSample* pending_ = nullptr;
};

// Keeps a sample in `k` (in this, the judge's, context, on `s`, and waits), the executor
// having stopped right after it: `plan` (kept_capture_plan) from the round's key, `tensors`
// the set's tensors as this process addresses them. Returns a sentence for every read-only
// input the launch changed.
std::vector<std::string> capture_kept_sample(const std::vector<KeptCaptureStep>& plan, void* const* tensors,
                                             KeptSample& k, const Stream& s);

// The kept sample's inputs as the oracle takes them (values only), read from the device.
HostData host_inputs_of(const TaskSpec& task, const KeptSample& k);

// Kept output tensor `i` compared with `want` (as compare() would on its downloaded values).
CompareResult compare_kept_output(const TaskSpec& task, const KeptSample& k, size_t i, const double* want);

}  // namespace arena
