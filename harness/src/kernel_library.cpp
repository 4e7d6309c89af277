#include "kernel_library.h"

#include <dlfcn.h>

#include <stdexcept>
#include <utility>

namespace arena {

SharedLibrary::SharedLibrary(const std::string& path) : path_(path) {
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* why = dlerror();
    throw LibraryError("cannot load " + path + ": " + (why ? why : "unknown error"));
  }
}

SharedLibrary::SharedLibrary(SharedLibrary&& o) noexcept
    : handle_(std::exchange(o.handle_, nullptr)), path_(std::move(o.path_)) {}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& o) noexcept {
  if (this != &o) {
    if (handle_) dlclose(handle_);
    handle_ = std::exchange(o.handle_, nullptr);
    path_ = std::move(o.path_);
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

KernelLibrary KernelLibrary::load(const std::string& path, const std::string& role) {
  KernelLibrary k;
  k.role = role;
  k.lib = SharedLibrary(path);
  k.launch = reinterpret_cast<arena_launch_fn>(k.lib.symbol("arena_launch"));
  if (!k.launch) throw LibraryError(role + " library " + path + " does not export arena_launch");
  k.workspace_size = reinterpret_cast<arena_workspace_size_fn>(k.lib.symbol("arena_workspace_size"));
  return k;
}

ReferenceLibrary ReferenceLibrary::load(const std::string& path) {
  ReferenceLibrary r;
  r.lib = SharedLibrary(path);
  r.run = reinterpret_cast<arena_reference_fn>(r.lib.symbol("arena_reference"));
  if (!r.run) throw LibraryError("reference library " + path + " does not export arena_reference");
  return r;
}

}  // namespace arena
