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

namespace {
arena_python_loader_fn g_python_loader = nullptr;

PythonObject load_python(const std::string& path, const std::string& role, const std::string& task_file) {
  if (!g_python_loader)
    throw LibraryError(role + " '" + path + "' is provided by Python: run this tool through harness/python/arena_host.py");
  PythonObject o;
  char err[2048] = {0};
  if (g_python_loader(path.c_str() + 3, role.c_str(), task_file.c_str(), &o, err, sizeof err) != 0)
    throw LibraryError("cannot load " + role + " " + path + ": " + (err[0] ? err : "unknown error"));
  return o;
}
}  // namespace

void set_python_loader(arena_python_loader_fn loader) { g_python_loader = loader; }

bool is_python_spec(const std::string& path) { return path.rfind("py:", 0) == 0; }

KernelLibrary KernelLibrary::load(const std::string& path, const std::string& role, const std::string& task_file) {
  KernelLibrary k;
  k.role = role;
  if (is_python_spec(path)) {
    PythonObject o = load_python(path, role, task_file);
    if (!o.launch) throw LibraryError(role + " " + path + " has no launch function");
    k.launch = o.launch;
    k.workspace_size = o.workspace_size;
    k.writes_outputs = o.writes_outputs != 0;
    k.image = o.image;
    k.build = o.build;
    return k;
  }
  k.lib = SharedLibrary(path);
  k.launch = reinterpret_cast<arena_launch_fn>(k.lib.symbol("arena_launch"));
  if (!k.launch) throw LibraryError(role + " library " + path + " does not export arena_launch");
  k.workspace_size = reinterpret_cast<arena_workspace_size_fn>(k.lib.symbol("arena_workspace_size"));
  return k;
}

ReferenceLibrary ReferenceLibrary::load(const std::string& path, const std::string& task_file) {
  ReferenceLibrary r;
  if (is_python_spec(path)) {
    PythonObject o = load_python(path, "reference", task_file);
    if (!o.reference) throw LibraryError("reference " + path + " has no oracle function");
    r.run = o.reference;
    r.in_interpreter = true;
    return r;
  }
  r.lib = SharedLibrary(path);
  r.run = reinterpret_cast<arena_reference_fn>(r.lib.symbol("arena_reference"));
  if (!r.run) throw LibraryError("reference library " + path + " does not export arena_reference");
  return r;
}

}  // namespace arena
