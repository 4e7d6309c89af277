// Broken on purpose: defers the work to a host thread that launches after arena_launch
// returns (exploit: work outside the timed region). The compile gate must reject it.
#include <hip/hip_runtime.h>
#include <thread>
#include "arena/arena_abi.h"

ARENA_EXPORT int arena_launch(const arena_args* a) {
  arena_args copy = *a;
  std::thread([copy] { (void)copy; }).detach();
  return 0;
}
