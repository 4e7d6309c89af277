// What the judge and a worker say to each other (docs/DESIGN.md, "Process model"). Requests
// are wire messages whose head has "op"; answers have "ok" and, when false, "error".
//
//   setup           {mode: record|replay|direct, kernel, role, task_file?, image_kernels?, confine?}
//   map             {buffers: [{id, bytes}]} + one IPC handle blob per buffer
//   unmap           {ids}
//   workspace_size  {ints, floats}                          -> {bytes}
//   record          {binding, warmups, timeout_s}           -> {status, problems, recipe} + image blobs
//   recipe          {key, recipe, buffers} + image blobs     (replay: install and check a recipe)
//   bind            {set, binding, recipe?}
//   launch          {set, timeout_s}                         -> {outcome, message, gpu_us, kernels}
//   round           {set, samples, key, flush_buffer, flush_bytes, flush_mode, workspace_pattern, timeout_s,
//                    keep?, first_audit?}   (flush_buffer: a lent buffer's id, swept before each sample)
//                                                            -> {outcome, samples: [{gpu_us?, event_us}], quiet_samples}
//                   (keep: after that sample's launch has ended, the executor sends
//                   {pause: "kept", sample} and waits for {op: "resume"}, while the judge copies
//                   the sample in its own context: kept_capture.h)
//                   (a replaying executor given first_audit times the samples before it by events
//                   alone, the tracer's kernel records off: those have no gpu_us; quiet_samples
//                   says how many there were)
//   exit
//
// A launch or round that hangs or faults answers with outcome "timeout" or "fault" and the
// worker then exits: its GPU context cannot be trusted any more.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dtype.h"

namespace arena {

// One tensor (or the workspace) of a launch: `bytes` at `offset` in the lent buffer `buffer`,
// and how a timed sample redraws it (dist_kind: -1 never; 0 normal, 1 uniform, 2 integers).
struct TensorRef {
  uint64_t buffer = 0, offset = 0, bytes = 0;
  int64_t numel = 0;
  DType dtype = DType::U8;
  bool reads = false, writes = false;
  int dist_kind = -1;
  double a = 0, b = 0;
};

struct BindingSpec {
  std::vector<TensorRef> tensors;  // task.json order
  bool has_workspace = false;
  TensorRef workspace;
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

nlohmann::json binding_to_json(const BindingSpec& b);
// Throws std::invalid_argument naming the field.
BindingSpec binding_from_json(const nlohmann::json& j);

// The key of sample `sample`'s draw of tensor `tensor` in a round keyed `round_key`.
uint64_t sample_key(uint64_t round_key, uint32_t sample, uint32_t tensor);

}  // namespace arena
