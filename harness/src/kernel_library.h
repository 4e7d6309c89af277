// dlopen'd kernel libraries (baseline, candidate) and host oracles (reference.cpp).
#pragma once
#include <stdexcept>
#include <string>

#define ARENA_HOST_ONLY 1
#include "arena/arena_abi.h"
#include "arena/arena_reference.h"

namespace arena {

struct LibraryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Loaded with RTLD_LOCAL so a library's symbols never interpose the harness's own.
class SharedLibrary {
 public:
  SharedLibrary() = default;
  explicit SharedLibrary(const std::string& path);  // throws LibraryError naming the path and dlerror()
  SharedLibrary(SharedLibrary&& o) noexcept;
  SharedLibrary& operator=(SharedLibrary&& o) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();
  void* symbol(const char* name) const;  // nullptr when absent
  const std::string& path() const { return path_; }
  bool loaded() const { return handle_ != nullptr; }

 private:
  void* handle_ = nullptr;
  std::string path_;
};

// A kernel or oracle named "py:<spec>" is provided by the Python host
// (harness/python/arena_host.py), which runs the tools from libarena_tools.so and answers
// these requests with C function pointers into the interpreter. Only the host registers a
// loader; a "py:" path in a plain runner is an error that says so.
// Device code of a kernel function the object compiled at run time (Triton's JIT): returns 0
// and sets *data/*size (valid until the next call) when the function is one of its own.
typedef int (*arena_image_fn)(void* function, const void** data, size_t* size);
struct PythonObject {
  arena_launch_fn launch = nullptr;
  arena_workspace_size_fn workspace_size = nullptr;
  arena_reference_fn reference = nullptr;
  int writes_outputs = 1;  // 0: a timing-only reference that returns its own outputs
  arena_image_fn image = nullptr;
  arena_image_fn build = nullptr;  // how it compiled that function (JSON): the judge builds it again
};
// Returns 0 and fills `out`, or non-zero with a message in err[0..err_len). `task_file` is
// the task.json the runner judges against ("" where unknown).
typedef int (*arena_python_loader_fn)(const char* spec, const char* role, const char* task_file, PythonObject* out,
                                      char* err, size_t err_len);
void set_python_loader(arena_python_loader_fn loader);  // exported by libarena_tools.so
bool is_python_spec(const std::string& path);

struct KernelLibrary {
  std::string role;  // "baseline", "candidate", or a reference's name ("torch.compile")
  SharedLibrary lib;
  arena_launch_fn launch = nullptr;
  arena_workspace_size_fn workspace_size = nullptr;  // optional
  // False for a timing-only reference (PyTorch eager in perf): it leaves the output buffers
  // alone, so post-timing output checks do not apply to it.
  bool writes_outputs = true;
  arena_image_fn image = nullptr;  // Python kernels compiled at run time: their device code
  arena_image_fn build = nullptr;  // and how each was compiled (JSON)
  static KernelLibrary load(const std::string& path, const std::string& role, const std::string& task_file = "");
};

struct ReferenceLibrary {
  SharedLibrary lib;
  arena_reference_fn run = nullptr;
  bool in_interpreter = false;  // a Python oracle: shares the interpreter with timed launches
  static ReferenceLibrary load(const std::string& path, const std::string& task_file = "");
};

}  // namespace arena
