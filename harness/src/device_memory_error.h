// An allocation of the harness's own (a buffer set, its red zones, the oracle's tensors) that
// fails for lack of device memory is an infrastructure error, not a wrong kernel: other gates
// on the GPU held the memory (docs/DESIGN.md, "Scheduling"). Only the judge's own failures are
// classified so; whatever a candidate's worker reports stays the candidate's.
#pragma once
#include <cstdint>
#include <string>

#include "result_schema.h"  // kOutOfDeviceMemory: how the reason starts

namespace arena {

// The exit status a host oracle returns when it ran out of device memory (a PyTorch oracle
// runs on the GPU inside the judge); any other non-zero status is the oracle failing.
inline constexpr int kOracleOutOfDeviceMemory = 3;

// Whether a device runtime's error text says it ran out of memory (CUDA's
// cudaErrorMemoryAllocation reads "out of memory", HIP's hipErrorOutOfMemory too).
bool says_out_of_device_memory(const std::string& device_error);

// "<kOutOfDeviceMemory> while <what>; N GB of the GPU's M GB were in use by other processes: ..."
// with what to change (ARENA_PERF_SLOTS, ARENA_GPU_MEMORY_GB). used/total < 0: unknown.
std::string out_of_device_memory_reason(const std::string& what, double used_gb, double total_gb);

}  // namespace arena
