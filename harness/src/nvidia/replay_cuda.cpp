// ReplayCode on the CUDA driver: the library's device code from its .nv_fatbin section,
// recorder-sent images as modules of their own, steps enqueued with cuLaunchKernelEx.
#include <cuda.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

#include "elf_section.h"
#include "launch_replay.h"

namespace arena {

namespace {

std::string cu_error(CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return name ? name : "CUDA error";
}

// The fat binaries in a .nv_fatbin section: each has a 16-byte header (magic, version,
// header size, payload size); several may follow each other, padded.
std::vector<std::vector<uint8_t>> split_fatbins(const std::vector<uint8_t>& section) {
  constexpr uint32_t kMagic = 0xBA55ED50u;
  std::vector<std::vector<uint8_t>> out;
  size_t pos = 0;
  while (pos + 16 <= section.size()) {
    uint32_t magic = 0;
    std::memcpy(&magic, section.data() + pos, 4);
    if (magic != kMagic) {
      pos += 8;  // padding between fat binaries
      continue;
    }
    uint16_t header = 0;
    uint64_t size = 0;
    std::memcpy(&header, section.data() + pos + 6, 2);
    std::memcpy(&size, section.data() + pos + 8, 8);
    const size_t total = header + size;
    if (pos + total > section.size()) break;
    out.emplace_back(section.begin() + static_cast<std::ptrdiff_t>(pos),
                     section.begin() + static_cast<std::ptrdiff_t>(pos + total));
    pos += (total + 7) / 8 * 8;
  }
  return out;
}

std::vector<std::string> module_kernels(CUmodule m) {
  unsigned int n = 0;
  std::vector<std::string> names;
  if (cuModuleGetFunctionCount(&n, m) != CUDA_SUCCESS || n == 0) return names;
  std::vector<CUfunction> fs(n);
  if (cuModuleEnumerateFunctions(fs.data(), n, m) != CUDA_SUCCESS) return names;
  for (CUfunction f : fs) {
    const char* name = nullptr;
    if (cuFuncGetName(&name, f) == CUDA_SUCCESS && name) names.push_back(name);
  }
  return names;
}

}  // namespace

struct ReplayCode::Impl {
  std::string library;
  std::vector<CUmodule> library_modules;
  std::map<std::string, CUmodule> image_modules;  // image bytes -> module
  std::map<std::pair<CUmodule, std::string>, CUfunction> functions;

  CUfunction in_module(CUmodule m, const std::string& name) {
    auto key = std::make_pair(m, name);
    auto it = functions.find(key);
    if (it != functions.end()) return it->second;
    CUfunction f = nullptr;
    if (cuModuleGetFunction(&f, m, name.c_str()) != CUDA_SUCCESS) f = nullptr;
    functions[key] = f;
    return f;
  }

  CUmodule image_module(const std::vector<uint8_t>& image) {
    std::string key(image.begin(), image.end());
    auto it = image_modules.find(key);
    if (it != image_modules.end()) return it->second;
    CUmodule m = nullptr;
    CUresult r = cuModuleLoadData(&m, image.data());
    if (r != CUDA_SUCCESS) throw ReplayError("a device code image the recorder sent does not load: " + cu_error(r));
    image_modules[key] = m;
    return m;
  }

  std::vector<std::string> library_kernels() const {
    std::vector<std::string> all;
    for (CUmodule m : library_modules)
      for (auto& n : module_kernels(m)) all.push_back(n);
    std::sort(all.begin(), all.end());
    return all;
  }

  CUfunction resolve(const Recipe& r, const KernelStep& k) {
    if (k.image >= 0) {
      CUfunction f = in_module(image_module(r.images.at(k.image)), k.name);
      if (!f) throw ReplayError("kernel " + k.name + " is not in the device code image sent with it");
      return f;
    }
    for (CUmodule m : library_modules)
      if (CUfunction f = in_module(m, k.name)) return f;
    std::string have;
    for (const auto& n : library_kernels()) have += (have.empty() ? "" : ", ") + n;
    throw ReplayError("the launch ran kernel " + k.name + ", which is not one of " +
                      (library.empty() ? std::string("the kernel's own") : library + "'s own") +
                      " kernels (a library or framework kernel?); its device code defines: " +
                      (have.empty() ? "nothing" : have));
  }
};

ReplayCode::ReplayCode(const std::string& library) : impl_(std::make_unique<Impl>()) {
  impl_->library = library;
  if (library.empty()) return;
  const auto section = read_elf_section(library, ".nv_fatbin");
  const auto fatbins = split_fatbins(section);
  if (fatbins.empty()) throw ReplayError(library + " holds no NVIDIA device code (no .nv_fatbin section)");
  for (const auto& fb : fatbins) {
    CUmodule m = nullptr;
    CUresult r = cuModuleLoadData(&m, fb.data());
    if (r != CUDA_SUCCESS) throw ReplayError(library + ": its device code does not load here: " + cu_error(r));
    impl_->library_modules.push_back(m);
  }
}

ReplayCode::~ReplayCode() {
  for (CUmodule m : impl_->library_modules) cuModuleUnload(m);
  for (auto& [k, m] : impl_->image_modules) cuModuleUnload(m);
}

std::vector<std::string> ReplayCode::library_kernels() const { return impl_->library_kernels(); }

void ReplayCode::check(const Recipe& r, const std::vector<std::string>& allowed_image_kernels) const {
  for (const auto& s : r.steps) {
    if (s.kind != RecipeStep::Kernel) continue;
    const KernelStep& k = s.kernel;
    if (k.image >= 0 && !allowed_image_kernels.empty() &&
        std::find(allowed_image_kernels.begin(), allowed_image_kernels.end(), k.name) == allowed_image_kernels.end()) {
      std::string have;
      for (const auto& n : allowed_image_kernels) have += (have.empty() ? "" : ", ") + n;
      throw ReplayError("the launch ran kernel " + k.name + ", which is not one of the module's own kernels (" + have +
                        "): library and framework kernels are not allowed");
    }
    impl_->resolve(r, k);
  }
}

void ReplayCode::enqueue(const Recipe& r, const std::vector<uint64_t>& buffers, void* stream) {
  CUstream s = static_cast<CUstream>(stream);
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const RecipeStep& step = r.steps[i];
    const std::string where = "step " + std::to_string(i + 1) + " of " + std::to_string(r.steps.size());
    CUresult rc = CUDA_SUCCESS;
    if (step.kind == RecipeStep::Kernel) {
      const KernelStep& k = step.kernel;
      CUfunction f = impl_->resolve(r, k);
      if (k.max_dynamic_shared > 0 || k.shared_bytes > 48 * 1024) {
        int want = std::max<int>(k.max_dynamic_shared, static_cast<int>(k.shared_bytes));
        cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, want);
      }
      if (k.carveout >= 0) cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, k.carveout);
      std::vector<uint8_t> blob = relocated_params(k, buffers);
      std::vector<void*> params(k.param_offsets.size());
      for (size_t j = 0; j < params.size(); ++j) params[j] = blob.data() + k.param_offsets[j];
      CUlaunchAttribute attrs[2];
      unsigned n_attrs = 0;
      if (k.cluster[0] > 0) {
        attrs[n_attrs].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n_attrs].value.clusterDim.x = k.cluster[0];
        attrs[n_attrs].value.clusterDim.y = std::max(1u, k.cluster[1]);
        attrs[n_attrs].value.clusterDim.z = std::max(1u, k.cluster[2]);
        ++n_attrs;
      }
      if (k.cooperative) {
        attrs[n_attrs].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attrs[n_attrs].value.cooperative = 1;
        ++n_attrs;
      }
      CUlaunchConfig cfg{};
      cfg.gridDimX = k.grid[0], cfg.gridDimY = k.grid[1], cfg.gridDimZ = k.grid[2];
      cfg.blockDimX = k.block[0], cfg.blockDimY = k.block[1], cfg.blockDimZ = k.block[2];
      cfg.sharedMemBytes = k.shared_bytes;
      cfg.hStream = s;
      cfg.attrs = n_attrs ? attrs : nullptr;
      cfg.numAttrs = n_attrs;
      rc = cuLaunchKernelEx(&cfg, f, params.empty() ? nullptr : params.data(), nullptr);
      if (rc != CUDA_SUCCESS) throw ReplayError(where + ": launching " + k.name + " failed: " + cu_error(rc));
    } else if (step.kind == RecipeStep::Memset) {
      const MemsetStep& m = step.memset;
      const CUdeviceptr dst = buffers.at(m.buffer) + static_cast<uint64_t>(m.delta);
      if (m.height <= 1) {
        if (m.element_size == 1) rc = cuMemsetD8Async(dst, static_cast<unsigned char>(m.value), m.width, s);
        else if (m.element_size == 2) rc = cuMemsetD16Async(dst, static_cast<unsigned short>(m.value), m.width, s);
        else rc = cuMemsetD32Async(dst, m.value, m.width, s);
      } else {
        if (m.element_size == 1) rc = cuMemsetD2D8Async(dst, m.pitch, static_cast<unsigned char>(m.value), m.width, m.height, s);
        else if (m.element_size == 2) rc = cuMemsetD2D16Async(dst, m.pitch, static_cast<unsigned short>(m.value), m.width, m.height, s);
        else rc = cuMemsetD2D32Async(dst, m.pitch, m.value, m.width, m.height, s);
      }
      if (rc != CUDA_SUCCESS) throw ReplayError(where + ": a memset failed: " + cu_error(rc));
    } else {
      const CopyStep& c = step.copy;
      rc = cuMemcpyDtoDAsync(buffers.at(c.dst_buffer) + static_cast<uint64_t>(c.dst_delta),
                             buffers.at(c.src_buffer) + static_cast<uint64_t>(c.src_delta), c.bytes, s);
      if (rc != CUDA_SUCCESS) throw ReplayError(where + ": a device-to-device copy failed: " + cu_error(rc));
    }
  }
}

}  // namespace arena
