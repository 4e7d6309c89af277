// capture_recipe on the CUDA driver: stream capture, then the captured graph's nodes in
// dependency order, each turned into a recipe step with its pointers relocated.
#include <cuda.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "launch_replay.h"

namespace arena {

namespace {

std::string cu_error(CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA error") + " (" + (text ? text : "?") + ")";
}

struct Relocator {
  const std::vector<LentRange>& lent;
  // Buffer index and offset from its data for an address, or -1 when it is in no lent buffer.
  int find(uint64_t v, int64_t* delta) const {
    for (size_t i = 0; i < lent.size(); ++i)
      if (v >= lent[i].data && v <= lent[i].data + lent[i].bytes) {
        *delta = static_cast<int64_t>(v - lent[i].data);
        return static_cast<int>(i);
      }
    for (size_t i = 0; i < lent.size(); ++i)
      if (v >= lent[i].alloc_base && v <= lent[i].alloc_base + lent[i].alloc_bytes) {
        *delta = static_cast<int64_t>(v) - static_cast<int64_t>(lent[i].data);
        return static_cast<int>(i);
      }
    return -1;
  }
};

bool is_device_address(uint64_t v) {
  if (v < 4096) return false;
  CUmemorytype type{};
  return cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, static_cast<CUdeviceptr>(v)) == CUDA_SUCCESS;
}

std::string kernel_name(CUfunction f) {
  const char* name = nullptr;
  if (cuFuncGetName(&name, f) == CUDA_SUCCESS && name) return name;
  return "<unnamed kernel>";
}

// Kernel node -> step. Problems are appended with the kernel's name.
void kernel_step(CUgraphNode node, const Relocator& reloc, const ImageLookup& images, Recipe& recipe,
                 std::map<CUfunction, int>& image_of, std::vector<std::string>& problems) {
  CUDA_KERNEL_NODE_PARAMS p{};
  CUresult r = cuGraphKernelNodeGetParams(node, &p);
  if (r != CUDA_SUCCESS) {
    problems.push_back("a captured kernel launch could not be read: " + cu_error(r));
    return;
  }
  CUfunction f = p.func;
  if (!f && p.kern && cuKernelGetFunction(&f, p.kern) != CUDA_SUCCESS) f = nullptr;
  if (!f) {
    problems.push_back("a captured kernel launch names no function");
    return;
  }
  KernelStep k;
  k.name = kernel_name(f);
  k.grid[0] = p.gridDimX, k.grid[1] = p.gridDimY, k.grid[2] = p.gridDimZ;
  k.block[0] = p.blockDimX, k.block[1] = p.blockDimY, k.block[2] = p.blockDimZ;
  k.shared_bytes = p.sharedMemBytes;
  // Parameters: offsets and sizes from the function itself.
  size_t end = 0;
  for (size_t i = 0;; ++i) {
    size_t off = 0, size = 0;
    if (cuFuncGetParamInfo(f, i, &off, &size) != CUDA_SUCCESS) break;
    k.param_offsets.push_back(static_cast<uint32_t>(off));
    k.param_sizes.push_back(static_cast<uint32_t>(size));
    end = std::max(end, off + size);
  }
  k.params.assign(end, 0);
  if (p.kernelParams) {
    for (size_t i = 0; i < k.param_offsets.size(); ++i)
      std::memcpy(k.params.data() + k.param_offsets[i], p.kernelParams[i], k.param_sizes[i]);
  } else if (p.extra) {
    void* buf = nullptr;
    size_t buf_size = 0;
    for (void** e = p.extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
      if (*e == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = e[1];
      if (*e == CU_LAUNCH_PARAM_BUFFER_SIZE) buf_size = *static_cast<size_t*>(e[1]);
    }
    if (buf) std::memcpy(k.params.data(), buf, std::min(buf_size, end));
  }
  // Pointers: every 8-byte word of a parameter of 8 bytes or more.
  for (size_t i = 0; i < k.param_offsets.size(); ++i) {
    if (k.param_sizes[i] < 8) continue;
    for (uint32_t off = (k.param_offsets[i] + 7) / 8 * 8; off + 8 <= k.param_offsets[i] + k.param_sizes[i];
         off += 8) {
      uint64_t v = 0;
      std::memcpy(&v, k.params.data() + off, 8);
      int64_t delta = 0;
      const int b = reloc.find(v, &delta);
      if (b >= 0) {
        k.relocations.push_back({off, b, delta});
      } else if (is_device_address(v)) {
        problems.push_back("kernel " + k.name + ": parameter " + std::to_string(i) +
                           " points to device memory the harness did not lend (memory of its own: an allocation "
                           "or a variable); only the tensors and the workspace may be used");
      }
    }
  }
  // Launch attributes and the function attributes host code may have set.
  CUkernelNodeAttrValue v{};
  if (cuGraphKernelNodeGetAttribute(node, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &v) == CUDA_SUCCESS) {
    k.cluster[0] = v.clusterDim.x, k.cluster[1] = v.clusterDim.y, k.cluster[2] = v.clusterDim.z;
  }
  if (cuGraphKernelNodeGetAttribute(node, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v) == CUDA_SUCCESS)
    k.cooperative = v.cooperative != 0;
  int value = 0;
  if (cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS)
    k.max_dynamic_shared = value;
  if (cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f) == CUDA_SUCCESS)
    k.carveout = value;
  // Device code the library's own file may not hold (JIT-compiled kernels).
  auto known = image_of.find(f);
  if (known != image_of.end()) {
    k.image = known->second;
  } else if (images) {
    std::vector<uint8_t> image;
    std::string build;
    if (images(f, &image, &build)) {
      recipe.images.push_back(std::move(image));
      recipe.builds.push_back(std::move(build));
      k.image = static_cast<int>(recipe.images.size()) - 1;
    }
    image_of[f] = k.image;
  }
  RecipeStep s;
  s.kind = RecipeStep::Kernel;
  s.kernel = std::move(k);
  recipe.steps.push_back(std::move(s));
}

void memset_step(CUgraphNode node, const Relocator& reloc, Recipe& recipe, std::vector<std::string>& problems) {
  CUDA_MEMSET_NODE_PARAMS p{};
  if (cuGraphMemsetNodeGetParams(node, &p) != CUDA_SUCCESS) {
    problems.push_back("a captured memset could not be read");
    return;
  }
  MemsetStep m;
  m.buffer = reloc.find(p.dst, &m.delta);
  if (m.buffer < 0) {
    problems.push_back("a memset writes device memory the harness did not lend");
    return;
  }
  m.value = p.value;
  m.element_size = p.elementSize;
  m.width = p.width;
  m.height = p.height;
  m.pitch = p.pitch;
  RecipeStep s;
  s.kind = RecipeStep::Memset;
  s.memset = m;
  recipe.steps.push_back(s);
}

void copy_step(CUgraphNode node, const Relocator& reloc, Recipe& recipe, std::vector<std::string>& problems) {
  CUDA_MEMCPY3D p{};
  if (cuGraphMemcpyNodeGetParams(node, &p) != CUDA_SUCCESS) {
    problems.push_back("a captured copy could not be read");
    return;
  }
  auto device_side = [](CUmemorytype t) { return t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED; };
  if (!device_side(p.srcMemoryType) || !device_side(p.dstMemoryType)) {
    problems.push_back("a copy between host and device memory was enqueued (only device-to-device copies "
                       "within the lent buffers are allowed)");
    return;
  }
  if (p.Height > 1 || p.Depth > 1) {
    problems.push_back("a 2D or 3D copy was enqueued (only plain device-to-device copies are supported)");
    return;
  }
  CopyStep c;
  c.src_buffer = reloc.find(p.srcDevice + p.srcXInBytes, &c.src_delta);
  c.dst_buffer = reloc.find(p.dstDevice + p.dstXInBytes, &c.dst_delta);
  c.bytes = p.WidthInBytes;
  if (c.src_buffer < 0 || c.dst_buffer < 0) {
    problems.push_back("a copy reads or writes device memory the harness did not lend");
    return;
  }
  RecipeStep s;
  s.kind = RecipeStep::Copy;
  s.copy = c;
  recipe.steps.push_back(s);
}

const char* node_kind(CUgraphNodeType t) {
  switch (t) {
    case CU_GRAPH_NODE_TYPE_HOST: return "a host callback";
    case CU_GRAPH_NODE_TYPE_GRAPH: return "a nested graph launch";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return "an event wait";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return "an event record";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: return "an external semaphore operation";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "a stream-ordered allocation";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "a stream-ordered free";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return "a stream memory operation";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "a conditional graph node";
    default: return "an unknown graph node";
  }
}

// The graph's nodes, each after every node it depends on.
std::vector<CUgraphNode> ordered_nodes(CUgraph g) {
  size_t n = 0, e = 0;
  cuGraphGetNodes(g, nullptr, &n);
  std::vector<CUgraphNode> nodes(n);
  if (n) cuGraphGetNodes(g, nodes.data(), &n);
  cuGraphGetEdges(g, nullptr, nullptr, nullptr, &e);
  std::vector<CUgraphNode> from(e), to(e);
  if (e) cuGraphGetEdges(g, from.data(), to.data(), nullptr, &e);
  std::map<CUgraphNode, int> indegree;
  for (auto x : nodes) indegree[x] = 0;
  for (size_t i = 0; i < e; ++i) indegree[to[i]]++;
  std::vector<CUgraphNode> order, ready;
  for (auto x : nodes)
    if (indegree[x] == 0) ready.push_back(x);
  while (!ready.empty()) {
    CUgraphNode x = ready.front();
    ready.erase(ready.begin());
    order.push_back(x);
    for (size_t i = 0; i < e; ++i)
      if (from[i] == x && --indegree[to[i]] == 0) ready.push_back(to[i]);
  }
  return order;
}

}  // namespace

bool replay_supported(std::string* why) {
  int version = 0;
  if (cuDriverGetVersion(&version) != CUDA_SUCCESS || version < 12040) {
    if (why) *why = "the CUDA driver is older than 12.4 (no kernel parameter introspection)";
    return false;
  }
  return true;
}

CaptureResult capture_recipe(const std::function<int()>& launch, void* stream, const std::vector<LentRange>& lent,
                             const ImageLookup& images) {
  CaptureResult out;
  CUstream s = static_cast<CUstream>(stream);
  CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
  if (r != CUDA_SUCCESS) {
    out.problems.push_back("the harness could not start recording the launch: " + cu_error(r));
    return out;
  }
  out.launch_status = launch();
  CUgraph graph = nullptr;
  r = cuStreamEndCapture(s, &graph);
  if (r != CUDA_SUCCESS) {
    std::string why = cu_error(r);
    if (r == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)
      why = "it used the legacy default stream (stream 0) while launching: all work must go on the stream it is given";
    else if (r == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED || r == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
      why = "it made a call that is not allowed while launching (a synchronization, a blocking copy, an "
            "allocation or a query of the stream): " + why;
    else if (r == CUDA_ERROR_STREAM_CAPTURE_UNJOINED)
      why = "it forked work onto another stream and did not join it back: " + why;
    out.problems.push_back("the launch cannot be recorded: " + why);
    if (graph) cuGraphDestroy(graph);
    return out;
  }
  Relocator reloc{lent};
  std::map<CUfunction, int> image_of;
  for (CUgraphNode node : ordered_nodes(graph)) {
    CUgraphNodeType type{};
    cuGraphNodeGetType(node, &type);
    if (type == CU_GRAPH_NODE_TYPE_KERNEL)
      kernel_step(node, reloc, images, out.recipe, image_of, out.problems);
    else if (type == CU_GRAPH_NODE_TYPE_MEMSET)
      memset_step(node, reloc, out.recipe, out.problems);
    else if (type == CU_GRAPH_NODE_TYPE_MEMCPY)
      copy_step(node, reloc, out.recipe, out.problems);
    else if (type != CU_GRAPH_NODE_TYPE_EMPTY)
      out.problems.push_back(std::string("the launch enqueued ") + node_kind(type) + ", which the kernel ABI does not allow");
  }
  cuGraphDestroy(graph);
  return out;
}

}  // namespace arena
