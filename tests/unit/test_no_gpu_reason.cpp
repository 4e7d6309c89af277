// The reason a gate cannot use a GPU tells a machine without one from a driver problem.
#include <gtest/gtest.h>

#include "no_gpu_reason.h"

using namespace arena;

namespace {
const char* kOldDriver =
    "hipGetDeviceCount: CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)";
}

TEST(NoGpuReason, NoDeviceNodesIsNoGpuWhateverTheRuntimeSays) {
  std::string why = no_gpu_reason({false, false, false}, kOldDriver);
  EXPECT_EQ(why.rfind("no GPU on this machine", 0), 0u) << why;
  EXPECT_NE(why.find("/dev/nvidiactl"), std::string::npos) << why;
  EXPECT_NE(why.find("no NVIDIA driver library"), std::string::npos) << why;
  EXPECT_EQ(why.find("insufficient"), std::string::npos) << why;  // not a driver problem
}

TEST(NoGpuReason, AnOldDriverIsNamedAsSuch) {
  std::string why = no_gpu_reason({true, false, true}, kOldDriver);
  EXPECT_EQ(why.rfind("a GPU whose driver is too old", 0), 0u) << why;
  EXPECT_NE(why.find("cudaErrorInsufficientDriver"), std::string::npos) << why;
}

TEST(NoGpuReason, NodesWithoutTheDriverLibraryOrAnotherErrorSayWhatFailed) {
  EXPECT_EQ(no_gpu_reason({true, false, false}, "x").rfind("an NVIDIA GPU whose driver library", 0), 0u);
  std::string why = no_gpu_reason({false, true, false}, "hipGetDeviceCount: no ROCm-capable device is detected");
  EXPECT_EQ(why.rfind("a GPU the runtime cannot open", 0), 0u) << why;
  EXPECT_NE(why.find("no ROCm-capable device"), std::string::npos) << why;
}

TEST(NoGpuReason, ThisMachineIsProbedWithoutAGpuRuntime) {
  GpuPresence p = probe_gpu_presence();  // what it finds depends on the machine; it must not throw
  EXPECT_FALSE(no_gpu_reason(p, "").empty());
}
