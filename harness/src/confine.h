// Confinement a process applies to itself before it runs code it does not trust (a
// candidate's host code in a recorder, a compiler on a candidate's source): Landlock limits
// what it may read, write and execute; seccomp denies the system calls that reach other
// processes, the network or the kernel's administration. Each is applied where the kernel
// and the build offer it, and the report says which were.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

struct ConfinementPlan {
  std::vector<std::string> read;     // files or folders readable besides the system's folders
  std::vector<std::string> write;    // folders writable (and readable)
  std::vector<std::string> protect;  // never readable, even where a system folder holds them
  bool children = false;             // may start programs (Triton runs the C compiler)
};

struct ConfinementReport {
  std::string landlock;  // "enforced (ABI n)" or why not
  std::string seccomp;   // "enforced" or why not
  nlohmann::json to_json() const { return {{"landlock", landlock}, {"seccomp", seccomp}}; }
};

// Paths this process needs to read once confined, known only to it (a Python worker's module
// folders); every later confine_self() grants them too.
void add_confinement_read_path(const std::string& path);

// Applies the plan to the calling process (and everything it starts afterwards); never
// loosens. Sets no_new_privs.
ConfinementReport confine_self(const ConfinementPlan& plan);

// The system folders a confined process may read (its libraries, the GPU's device nodes, the
// toolkits), minus any folder that holds a protected path.
std::vector<std::string> readable_system_folders(const std::vector<std::string>& protect);

}  // namespace arena
