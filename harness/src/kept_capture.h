// How the judge keeps a timed sample (docs/DESIGN.md, "Performance"): in its own context, in
// memory it never lends, while the executor waits right after the sample. Nothing the judge
// checks afterwards lives in an address space where the candidate's device code runs.
//
// The executor stops once per round, after the kept sample's launch finished and before it
// queues anything else, and the judge then
//   1. redraws the sample's inputs (and inout tensors' inputs) from the round key with the
//      executor's own generator: the kept inputs never pass through the executor, so no copy
//      of them exists for a kernel to find or rewrite before or after its launch;
//   2. copies the outputs (and inout tensors) the launch left in the lent buffers;
//   3. compares every read-only input the launch left with its redraw (a kernel must not
//      change its inputs; rewriting them into a pair that agrees with its outputs is caught
//      here).
// This file holds the host-side parts (the plan of those steps, the check of the executor's
// pause); the device work is capture_kept_sample() in timed_checks.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "worker_protocol.h"

namespace arena {

// One tensor's part of keeping a sample.
struct KeptCaptureStep {
  size_t tensor = 0;
  TensorRef ref;                // the tensor as the executor's binding has it
  bool redraw = false;          // read by the launch: redraw its inputs into the kept copy
  uint64_t key = 0;             // the draw's key: sample_key(round key, sample, tensor)
  bool copy_output = false;     // written by the launch: copy what it left
  bool compare_input = false;   // read-only: what the launch left must equal the redraw
};

// The steps for sample `sample` (0-based) of a round keyed `round_key` on `binding`, in tensor
// order. Throws std::invalid_argument naming the tensor when a read tensor has no device
// distribution (its inputs could not be redrawn).
std::vector<KeptCaptureStep> kept_capture_plan(const BindingSpec& binding, uint64_t round_key, int sample);

// The judge's check of a round's pause: the executor must stop exactly once, after the kept
// sample (none when no sample is kept), and a round that completed must have stopped there.
class KeptPause {
 public:
  explicit KeptPause(int sample) : sample_(sample) {}  // -1: no sample is kept this round
  // The executor's pause message ({"pause": "kept", "sample": i}); returns i. Throws
  // std::runtime_error for a pause the round did not ask for, a second one, or another sample.
  int accept(const nlohmann::json& pause);
  // After the round's answer; throws std::runtime_error when a completed round never stopped
  // after its kept sample.
  void finish(bool round_completed) const;
  // The pause message an executor sends after sample `sample`, and the judge's answer.
  static nlohmann::json message(int sample) { return {{"pause", "kept"}, {"sample", sample}}; }
  static nlohmann::json resume() { return {{"op", "resume"}}; }

 private:
  int sample_ = -1;
  bool seen_ = false;
};

}  // namespace arena
