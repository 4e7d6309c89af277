// arena-worker: a worker process of a gate (harness/src/worker.h). The judge starts it as
// `arena-worker --fd 3` with the socket on file descriptor 3; it says hello and serves
// requests until told to exit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "worker.h"

int main(int argc, char** argv) {
  int fd = 3;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--fd") == 0) fd = std::atoi(argv[i + 1]);
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf("usage: arena-worker --fd N   (started by arena-correct and arena-perf, not by hand)\n");
    return 0;
  }
  return arena::run_worker(fd);
}
