// Recording a kernel library's launch as a recipe (recipe.h), and replaying recipes from
// device code alone. The recorder runs the library's host code under stream capture; the
// executor loads only device code (the library's own, read from its file, or images the
// recorder sent) and enqueues the recorded steps on buffers of its own choosing. NVIDIA only
// (the CUDA driver's graph and module APIs); elsewhere replay_supported() says why not.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "recipe.h"

namespace arena {

bool replay_supported(std::string* why);

// A lent buffer as this process maps it: the tensor (or workspace) data and the whole
// allocation around it (red zones included).
struct LentRange {
  uint64_t data = 0, bytes = 0;
  uint64_t alloc_base = 0, alloc_bytes = 0;
};

// Device code for a function the library's own device code may not hold (Triton's JIT
// compiles its kernels at run time): fills `image`, and `build` with how it was compiled
// (JSON, checked by the judge's trusted compile), and returns true when known.
using ImageLookup = std::function<bool(void* function, std::vector<uint8_t>* image, std::string* build)>;

struct CaptureResult {
  Recipe recipe;
  int launch_status = 0;               // what the launch returned
  std::vector<std::string> problems;   // each names something the launch did that a recipe cannot hold
};

// Calls `launch` (which enqueues on `stream`) under stream capture and turns what it enqueued
// into a recipe. Pointers in kernel parameters, memsets and copies must point into `lent`.
CaptureResult capture_recipe(const std::function<int()>& launch, void* stream, const std::vector<LentRange>& lent,
                             const ImageLookup& images);

struct ReplayError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Device code an executor replays recipes with.
class ReplayCode {
 public:
  // `library`: a kernel library whose own device code recipes may name (empty: none).
  explicit ReplayCode(const std::string& library);
  ~ReplayCode();
  ReplayCode(const ReplayCode&) = delete;
  ReplayCode& operator=(const ReplayCode&) = delete;
  // Kernels the library's device code defines (for messages).
  std::vector<std::string> library_kernels() const;
  // Checks that every step can run here: each kernel is found in the library's device code or
  // in an image of the recipe, and `allowed_image_kernels` (if not empty) lists every kernel
  // an image provides. Throws ReplayError naming the first kernel that is not.
  void check(const Recipe& r, const std::vector<std::string>& allowed_image_kernels) const;
  // Enqueues every step of `r` on `stream` with pointers relocated to `buffers` (tensors,
  // then the workspace). Throws ReplayError naming the step that could not be enqueued.
  void enqueue(const Recipe& r, const std::vector<uint64_t>& buffers, void* stream);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena
