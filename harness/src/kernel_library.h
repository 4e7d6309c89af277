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

struct KernelLibrary {
  std::string role;  // "baseline" or "candidate"
  SharedLibrary lib;
  arena_launch_fn launch = nullptr;
  arena_workspace_size_fn workspace_size = nullptr;  // optional
  static KernelLibrary load(const std::string& path, const std::string& role);
};

struct ReferenceLibrary {
  SharedLibrary lib;
  arena_reference_fn run = nullptr;
  static ReferenceLibrary load(const std::string& path);
};

}  // namespace arena
