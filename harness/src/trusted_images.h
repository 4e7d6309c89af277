// The device code of Python kernels, from trusted code (docs/DESIGN.md, "Process model"). A
// Triton recorder runs the module's Python and sends, for every kernel a launch ran, the image
// Triton built and how it built it. The judge has each build compiled again from the checked
// source by harness/python/arena_triton_build.py, a process that runs none of the module's
// code, and keeps that image: a launch whose sent image differs is refused naming the kernel,
// and the executor is given only the trusted images.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

struct TrustedBuilder {
  std::string python;     // the gates' Python (with Triton)
  std::string script;     // harness/python/arena_triton_build.py
  std::string source;     // the checked module
  std::string task_file;  // its task.json (the package modules a module may use)
  std::string folder;     // private to the judge: builds, images, Triton's cache
  double timeout_s = 600;
};

class TrustedImages {
 public:
  explicit TrustedImages(TrustedBuilder b) : b_(std::move(b)) {}
  // Checks every image of a recorded launch (`recipe` as the recorder sent it) against the
  // trusted compile of its build and replaces it with the trusted image. Returns "" or why the
  // launch cannot be replayed, naming the kernel.
  std::string check(const nlohmann::json& recipe, std::vector<std::vector<uint8_t>>& images);
  // How many times the builder ran (each build is compiled once per gate).
  int runs() const { return runs_; }

 private:
  // Runs the builder on `builds` (key -> build); fills built_ and failed_. Returns "" or why it
  // could not run at all.
  std::string build(const std::vector<std::pair<std::string, nlohmann::json>>& builds);

  TrustedBuilder b_;
  std::map<std::string, std::vector<uint8_t>> built_;  // build (canonical JSON) -> trusted image
  std::map<std::string, std::string> failed_;          // build -> why the trusted compile failed
  std::map<std::string, std::string> sha256_;          // build -> its trusted image's SHA-256
  int runs_ = 0;
};

// Where two images first differ (the shorter one's length when one is a prefix of the other).
size_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b);

}  // namespace arena
