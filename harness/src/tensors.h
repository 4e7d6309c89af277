// The data of one launch: host inputs drawn for a (configuration, trial), the oracle's
// expected outputs, and guarded device buffers that a kernel runs on and is checked against.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host_values.h"
#include "parallel_host.h"
#include "device.h"
#include "inputs.h"
#include "kernel_library.h"
#include "task_spec.h"
#include "worker_protocol.h"

namespace arena {

// Host side of one (configuration, trial): every tensor's bytes in its dtype, and the same
// values as doubles (what the oracle sees is exactly what the kernel sees).
struct HostData {
  std::vector<int64_t> numel;
  std::vector<HostBytes> bytes;  // inputs and inout tensors; empty for outputs
  HostTensors values;            // inputs and inout tensors as doubles
};

HostData draw_inputs(const TaskSpec& t, const Config& c, const StreamKey& key_base, const TrialPlan& plan);

// Runs the host oracle; returns every tensor as doubles (outputs filled). Throws
// std::runtime_error when the oracle reports failure. Pass `in` as an rvalue where it is not
// needed afterwards: its values become the returned inputs without a copy.
HostTensors run_reference(const TaskSpec& t, const Config& c, HostData in,
                          const ReferenceLibrary& ref);

// A NaN (floats) or sentinel (integers) 8-byte fill pattern; `variant` 0 and 1 differ in every
// byte, so an element left unwritten cannot match in two launches.
uint64_t poison_pattern(DType d, int variant);

// Scratch bytes `k` asks for on `c` (0 without arena_workspace_size); throws when over 64 GiB.
// Only for kernels this process may run (trusted ones, or the profiler's single launch).
size_t query_workspace(const KernelLibrary& k, const Config& c);

// Guarded device buffers for launches of one kernel. Tensor buffers can be shared with a twin
// for another kernel (the perf gate times both kernels on the same buffers); the workspace is
// always the kernel's own. Every allocation can be lent to worker processes (binding()).
class DeviceTensors {
 public:
  DeviceTensors(const TaskSpec& t, const Config& c, const HostData& in, size_t workspace_bytes, const Stream& s,
                int poison_variant = 0);
  // Inputs and inout tensors drawn on the device from their distributions, keyed by `draw_key`
  // and the tensor's index (the perf gate's first contents: no host draw, no upload).
  DeviceTensors(const TaskSpec& t, const Config& c, uint64_t draw_key, size_t workspace_bytes, const Stream& s);
  // Same tensor buffers as `other`, own workspace.
  DeviceTensors(const DeviceTensors& other, size_t workspace_bytes, const Stream& s);
  // Uploads inputs and inout tensors (and their pristine copies), poisons outputs and
  // workspace (variant 0/1), and waits.
  void reset(const HostData& in, int poison_variant, const Stream& s);
  // Sets input or inout tensor `i` (and its pristine copy) from device memory, and waits.
  void set_input_from_device(size_t i, const void* src, const Stream& s);
  // Enqueues, without waiting: outputs poisoned, inout tensors restored from their pristine
  // copies. Run before every timed sample, so each launch starts from the same state.
  void prepare_launch(const Stream& s) const;
  // The ABI struct for a launch in this process; valid while this object lives.
  const arena_args& args() const { return args_; }
  // The same launch for a worker process: tensors and workspace as (allocation id, offset),
  // with how a timed sample redraws each input.
  BindingSpec binding() const;
  // The allocations binding() refers to, to be lent (mapped) before it is sent.
  std::vector<const DeviceBuffer*> allocations() const;
  // Red-zone and (when check_inputs) input-integrity checks (inputs compared on the device
  // with their pristine copies); each problem is one sentence.
  std::vector<std::string> integrity_problems(const Stream& s, bool check_inputs = true) const;
  // Output (and inout) tensor `i` as doubles.
  HostValues output_values(size_t i) const;
  size_t workspace_bytes() const { return args_.workspace_bytes; }

 private:
  struct Storage {
    std::vector<GuardedBuffer> buffers;
    std::vector<DeviceBuffer> pristine;  // inputs and inout tensors: the uploaded values
  };
  void allocate(const Stream& s);
  void bind(size_t workspace_bytes, const Stream& s);

  const TaskSpec& task_;
  Config config_;
  std::shared_ptr<Storage> storage_;
  std::unique_ptr<GuardedBuffer> workspace_;
  std::vector<void*> pointers_;
  std::vector<int64_t> ints_;
  std::vector<double> floats_;
  std::vector<int64_t> numel_;
  arena_args args_{};
  int poison_variant_ = 0;
};

}  // namespace arena
