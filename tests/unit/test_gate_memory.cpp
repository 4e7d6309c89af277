// The correctness gate's device memory estimate (what CTest places gates by) and the judge's
// reading of an allocation failure as out of device memory (an infrastructure error).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "device_memory_error.h"
#include "gate_memory.h"
#include "task_spec.h"

using namespace arena;
namespace fs = std::filesystem;

namespace {

// A task of one f32 input x[M, N] and one f32 output y[M, N], with a host oracle beside it.
fs::path write_task(const std::string& name, bool with_reference) {
  const fs::path dir = fs::temp_directory_path() / ("arena_gate_memory_" + std::to_string(::getpid())) / "hip2hip" / name;
  fs::create_directories(dir);
  std::ofstream(dir / "task.json") << R"({
    "schema": 1, "name": ")" << name << R"(", "suite": "hip2hip", "category": "elementwise", "description": "d",
    "params": [{"name": "M", "type": "int", "min": 1}, {"name": "N", "type": "int", "min": 1}],
    "tensors": [
      {"name": "x", "dtype": "f32", "shape": ["M", "N"], "role": "input", "dist": {"kind": "normal", "std": 1}},
      {"name": "y", "dtype": "f32", "shape": ["M", "N"], "role": "output"}],
    "configs": {"seen": [{"M": 1024, "N": 1024}, {"M": 4096, "N": 4096}], "unseen": [{"M": 3, "N": 5}]},
    "tolerance": {"atol": 1e-6, "rtol": 1e-5},
    "cost": {"bytes": "8 * M * N", "flops": "M * N"}
  })";
  if (with_reference) std::ofstream(dir / "reference.cpp") << "// oracle\n";
  else fs::remove(dir / "reference.cpp");
  return dir / "task.json";
}

constexpr int64_t kRedZones = 2 * 64 * 1024;

}  // namespace

// x: 64 MiB and its pristine copy, y: 64 MiB, each tensor with two 64 KiB red zones.
TEST(GateMemory, BufferSetCountsTensorsPristineInputsAndRedZones) {
  TaskSpec t = load_task(write_task("sized", true));
  const int64_t tensor = int64_t{4096} * 4096 * 4;
  EXPECT_EQ(buffer_set_bytes(t, t.seen[1]), 3 * tensor + 2 * kRedZones);
  // 15 floats round up to 256 bytes.
  EXPECT_EQ(buffer_set_bytes(t, t.unseen[0]), 3 * 256 + 2 * kRedZones);
}

// The largest configuration of the set decides; three processes' contexts (judge, recorder,
// executor) come on top; a task whose oracle is its baseline has the baseline's two as well.
TEST(GateMemory, GateTakesItsLargestConfigurationAndItsProcesses) {
  TaskSpec t = load_task(write_task("sized", true));
  const int64_t largest = buffer_set_bytes(t, t.seen[1]);
  EXPECT_EQ(correctness_gate_device_bytes(t, t.seen), largest + 3 * kContextBytes);
  EXPECT_LT(correctness_gate_device_bytes(t, t.unseen), correctness_gate_device_bytes(t, t.seen));
  TaskSpec no_oracle = load_task(write_task("baseline_oracle", false));
  EXPECT_EQ(correctness_gate_device_bytes(no_oracle, no_oracle.seen), largest + 5 * kContextBytes);
}

TEST(DeviceMemoryError, RuntimeTextsOfOutOfMemory) {
  EXPECT_TRUE(says_out_of_device_memory("allocating 34210560 bytes: hipMalloc: out of memory (cudaErrorMemoryAllocation)"));
  EXPECT_TRUE(says_out_of_device_memory("writing a red zone: hipGetLastError(): out of memory"));
  EXPECT_TRUE(says_out_of_device_memory("hipMalloc: hipErrorOutOfMemory"));
  EXPECT_FALSE(says_out_of_device_memory("copying to the device: an illegal memory access was encountered"));
  EXPECT_FALSE(says_out_of_device_memory("the reference oracle returned 1 on seen[0]"));
}

// The reason starts as arena-score recognizes it, says what ran out and what to change.
TEST(DeviceMemoryError, ReasonIsWhatTheScorerReadsAsNotJudged) {
  const std::string r = out_of_device_memory_reason("allocating 1024 bytes: out of memory", 139.5, 141.0);
  ResultHeader h;
  h.status = Status::Error;
  h.error = r;
  EXPECT_TRUE(is_out_of_device_memory(h)) << r;
  EXPECT_NE(r.find("139.5 GB of the GPU's 141.0 GB"), std::string::npos) << r;
  EXPECT_NE(r.find("ARENA_PERF_SLOTS"), std::string::npos) << r;
  EXPECT_NE(r.find("ARENA_GPU_MEMORY_GB"), std::string::npos) << r;
  EXPECT_EQ(out_of_device_memory_reason("x", -1, -1).find(" GB of"), std::string::npos);
  h.status = Status::Failed;  // a candidate's failure that merely says the same words
  EXPECT_FALSE(is_out_of_device_memory(h));
}
