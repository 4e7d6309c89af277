// The throwaway project's test program: each mode mimics one kind of KernelArena gate result.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "measure") == 0) {
    // More than CTest's default 1 KiB of passed-test output, then the measurements.
    for (int i = 0; i < 40; ++i) std::printf("demo round %02d: nothing to see here, just filler output\n", i);
    std::printf("<CTestMeasurement type=\"numeric/double\" name=\"speedup\">1.5</CTestMeasurement>\n");
    std::printf("<CTestMeasurement type=\"text/string\" name=\"verdict\">FASTER</CTestMeasurement>\n");
    std::printf("demo: last line of the measure test\n");
    return 0;
  }
  if (std::strcmp(mode, "skip") == 0) {
    std::printf("demo: no GPU visible, skipping (exit 77)\n");
    return 77;
  }
  if (std::strcmp(mode, "resources") == 0) {
    const char* count = std::getenv("CTEST_RESOURCE_GROUP_COUNT");
    const char* gpus = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
    if (!count || !gpus) {
      std::printf("demo: no resource allocation (CTEST_RESOURCE_GROUP_0_GPUS unset): no resource spec file passed\n");
      return 1;
    }
    std::printf("demo: CTEST_RESOURCE_GROUP_COUNT=%s CTEST_RESOURCE_GROUP_0_GPUS=%s\n", count, gpus);
    return 0;
  }
  if (std::strcmp(mode, "fail") == 0) {
    std::printf("demo: failing on purpose\n");
    return 1;
  }
  std::printf("usage: arena_cdash_demo measure|skip|resources|fail\n");
  return 2;
}
