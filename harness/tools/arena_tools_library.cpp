// libarena_tools.so: arena-correct, arena-perf, arena-profile and arena-task-filter as one shared library, for a host process
// that must share the runners' address space, device context and stream with the kernels
// it provides (the Python host, harness/python/arena_host.py, which serves "py:" kernels
// and oracles: PyTorch references, Triton kernels).
#include <cstdio>
#include <cstring>

#include "kernel_library.h"

int arena_correct_main(int argc, char** argv);
int arena_perf_main(int argc, char** argv);
int arena_profile_main(int argc, char** argv);
int arena_task_filter_main(int argc, char** argv);

extern "C" __attribute__((visibility("default"))) void arena_set_python_loader(arena::arena_python_loader_fn f) {
  arena::set_python_loader(f);
}

// argv[0] is the program name shown in messages; returns the tool's exit status (77: skipped).
extern "C" __attribute__((visibility("default"))) int arena_tool_main(const char* tool, int argc, char** argv) {
  if (std::strcmp(tool, "arena-correct") == 0) return arena_correct_main(argc, argv);
  if (std::strcmp(tool, "arena-perf") == 0) return arena_perf_main(argc, argv);
  if (std::strcmp(tool, "arena-profile") == 0) return arena_profile_main(argc, argv);
  if (std::strcmp(tool, "arena-task-filter") == 0) return arena_task_filter_main(argc, argv);
  std::fprintf(stderr, "libarena_tools: unknown tool '%s' (arena-correct, arena-perf, arena-profile, arena-task-filter)\n",
               tool);
  return 2;
}
