// Device memory one correctness gate may hold at its peak, estimated from the task spec at
// configure time, so that CTest never places more gates on a GPU than its memory holds
// (docs/DESIGN.md, "Scheduling").
#pragma once
#include <cstdint>
#include <vector>

#include "task_spec.h"

namespace arena {

// Per-process device memory that is not the task's tensors: the CUDA/HIP context, its loaded
// modules and the runtime's own pools (measured at 0.3 to 0.6 GiB on H100/H200 per process).
inline constexpr int64_t kContextBytes = int64_t{512} << 20;
// A process that imports PyTorch holds more: its context loads ATen's and cuBLAS's modules,
// and the caching allocator keeps a reserve.
inline constexpr int64_t kPythonContextExtraBytes = int64_t{1} << 30;

// The judge's buffer set for one launch on `c`: every tensor (256-byte padded) with its two
// 64 KiB red zones, plus the pristine copy of each input and inout tensor (tensors.h).
int64_t buffer_set_bytes(const TaskSpec& t, const Config& c);

// Estimated peak bytes of a correctness gate over `configs` (one set of a task's configurations):
//   the judge's one live buffer set (every tensor with its two 64 KiB red zones and 256-byte
//   padding, plus the pristine copy of each input and inout tensor; arena-correct frees each set
//   before making the next, and workers unmap a freed set, so sets never overlap),
// + for a PyTorch oracle (the model in float64 on the GPU, inside the judge): the trials of the
//   checked and the next configuration are prepared at once (2 x 3), each holding every tensor
//   in float64 and as much again for the model's intermediates (each run's cached blocks are
//   given back when it ends: harness/python/arena_torch.py),
// + one context per process: the judge, the candidate's recorder and executor, and the
//   baseline's two where the baseline is the oracle; more for each process that imports PyTorch.
// The candidate's workspace is the candidate's own request, not known here.
int64_t correctness_gate_device_bytes(const TaskSpec& t, const std::vector<Config>& configs);

}  // namespace arena
