// A launch recipe: the GPU work that one call of a kernel's arena_launch enqueued, recorded by
// stream capture in the process that ran the kernel's host code (the recorder), in a form a
// process that never runs that code (the executor) can replay on other buffers: kernel
// launches by name with their parameter bytes, memsets and device-to-device copies, every
// pointer into a lent buffer stored as (buffer, offset) so it can be relocated. Nothing else
// of the recorder reaches the judge (docs/DESIGN.md, "Process model").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace arena {

// 8 bytes at `offset` in a parameter blob hold data(buffer) + delta. Buffers are the launch's
// tensors in task.json order, then the workspace (index = number of tensors).
struct Relocation {
  uint32_t offset = 0;
  int32_t buffer = 0;
  int64_t delta = 0;
};

struct KernelStep {
  std::string name;        // the kernel's (mangled) name in its device code
  int image = -1;          // index into Recipe::images; -1: the kernel library's own device code
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t shared_bytes = 0;
  uint32_t cluster[3] = {0, 0, 0};  // 0: no cluster dimension attribute
  bool cooperative = false;
  int max_dynamic_shared = 0;  // function attribute the host code set (0: default)
  int carveout = -1;           // preferred shared-memory carveout, -1: default
  std::vector<uint8_t> params;  // the parameter buffer, params laid out at their offsets
  std::vector<uint32_t> param_offsets, param_sizes;
  std::vector<Relocation> relocations;
};

struct MemsetStep {
  int32_t buffer = 0;
  int64_t delta = 0;
  uint32_t value = 0, element_size = 1;  // element_size 1, 2 or 4
  uint64_t width = 0, height = 1, pitch = 0;
};

struct CopyStep {  // device to device, both ends in lent buffers
  int32_t src_buffer = 0, dst_buffer = 0;
  int64_t src_delta = 0, dst_delta = 0;
  uint64_t bytes = 0;
};

struct RecipeStep {
  enum Kind { Kernel, Memset, Copy } kind = Kernel;
  KernelStep kernel;
  MemsetStep memset;
  CopyStep copy;
};

struct Recipe {
  std::vector<RecipeStep> steps;
  std::vector<std::vector<uint8_t>> images;  // device code images (cubins) the recorder supplied
  // For each image, how the recorder says Triton built it (JSON text, "" when it did not say):
  // the judge compiles each again from the checked source and replaces the image with its own
  // (trusted_images.h); the executor never sees these.
  std::vector<std::string> builds;
  std::vector<std::string> kernel_names() const;
};

// JSON without the images (they travel as binary blobs beside it), with the builds as
// "builds" (strings) when there are any. Parameter bytes are hex.
nlohmann::json recipe_to_json(const Recipe& r);
// Throws std::invalid_argument naming the field when the JSON is not a well-formed recipe
// (a step with relocations outside its parameter buffer, an image index out of range, ...).
Recipe recipe_from_json(const nlohmann::json& j, std::vector<std::vector<uint8_t>> images, int num_buffers);

// The parameter buffer of a kernel step with every relocation applied for `buffers` (device
// addresses of the lent tensors, then the workspace).
std::vector<uint8_t> relocated_params(const KernelStep& k, const std::vector<uint64_t>& buffers);

std::string to_hex(const uint8_t* p, size_t n);
std::vector<uint8_t> from_hex(const std::string& s);  // throws std::invalid_argument

}  // namespace arena
