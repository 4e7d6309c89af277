// libarena_worker.so: the worker (harness/src/worker.h) as a shared library, for Python workers
// (harness/python/arena_host.py ... worker), which serve Python-provided kernels (Triton
// modules to record, PyTorch references to run) through the loader they register. Apart from
// libarena_tools.so (the judge's tools) because it needs the GPU driver and its tracer, which a
// machine without a GPU lacks: the judge must load there, and skip.
#include "confine.h"
#include "kernel_library.h"
#include "worker.h"

extern "C" __attribute__((visibility("default"))) void arena_set_python_loader(arena::arena_python_loader_fn f) {
  arena::set_python_loader(f);
}

// Serves the judge on `fd` with Python-provided kernels.
extern "C" __attribute__((visibility("default"))) int arena_worker_main(int fd) { return arena::run_worker(fd); }

// Paths the interpreter reads from once confined (its modules), granted by every confinement.
extern "C" __attribute__((visibility("default"))) void arena_worker_allow_read(const char* path) {
  arena::add_confinement_read_path(path);
}
