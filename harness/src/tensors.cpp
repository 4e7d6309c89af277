#include "tensors.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "device_download.h"
#include "device_memory_error.h"

namespace arena {

HostData draw_inputs(const TaskSpec& t, const Config& c, const StreamKey& key_base, const TrialPlan& plan) {
  HostData h;
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    const int64_t n = t.numel(ts, c);
    h.numel.push_back(n);
    if (!ts.reads()) {
      h.bytes.emplace_back();
      h.values.emplace_back();
      continue;
    }
    StreamKey key = key_base;
    key.tensor = static_cast<uint32_t>(i);
    HostValues v(n);  // written (and first touched) by the draw's threads
    generate_values(ts.dist->at(c.bindings), plan, key, v.data(), n);
    HostBytes bytes(n * dtype_size(ts.dtype));
    parallel_from_double(ts.dtype, v.data(), bytes.data(), n);
    parallel_to_double(ts.dtype, bytes.data(), v.data(), n);  // round through the dtype
    h.bytes.push_back(std::move(bytes));
    h.values.push_back(std::move(v));
  }
  return h;
}

HostTensors run_reference(const TaskSpec& t, const Config& c, HostData in,
                          const ReferenceLibrary& ref) {
  HostTensors all(t.tensors.size());
  std::vector<double*> ptrs;
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    if (t.tensors[i].reads()) all[i] = std::move(in.values[i]);
    else all[i] = nan_filled(in.numel[i]);  // what the oracle leaves unwritten is NaN
    ptrs.push_back(all[i].data());
  }
  arena_ref_args a{ptrs.data(), in.numel.data(), static_cast<int>(ptrs.size()),
                   c.ints.data(), static_cast<int>(c.ints.size()),
                   c.floats.data(), static_cast<int>(c.floats.size())};
  int rc = ref.run(&a);
  if (rc == kOracleOutOfDeviceMemory)  // the harness's own allocation (a PyTorch oracle on the GPU)
    throw DeviceError("running the oracle on " + c.label + ": out of memory");
  if (rc != 0) throw std::runtime_error("the reference oracle returned " + std::to_string(rc) + " on " + c.label);
  return all;
}

uint64_t poison_pattern(DType d, int variant) {
  auto rep16 = [](uint64_t v) { return v | v << 16 | v << 32 | v << 48; };
  auto rep32 = [](uint64_t v) { return v | v << 32; };
  const bool b = variant % 2;
  switch (d) {
    case DType::F32: return rep32(b ? 0xFFC0DEADull : 0x7FA5A5A5ull);
    case DType::F64: return b ? 0xFFF4BADC0FFEE002ull : 0x7FF4DEADBEEF0001ull;
    case DType::F16: return rep16(b ? 0xFE77ull : 0x7E5Aull);
    case DType::BF16: return rep16(b ? 0xFFC3ull : 0x7FDAull);
    default: return b ? 0xA5A5A5A5A5A5A5A5ull : 0x5A5A5A5A5A5A5A5Aull;
  }
}

size_t query_workspace(const KernelLibrary& k, const Config& c) {
  if (!k.workspace_size) return 0;
  arena_args query{};
  query.ints = c.ints.data();
  query.num_ints = static_cast<int>(c.ints.size());
  query.floats = c.floats.data();
  query.num_floats = static_cast<int>(c.floats.size());
  size_t ws = k.workspace_size(&query);
  if (ws > (size_t{64} << 30))
    throw std::runtime_error(k.role + " asks for " + std::to_string(ws) + " workspace bytes (over 64 GiB)");
  return ws;
}

namespace {

// The device generator's distribution kinds (arena_dev_generate).
int device_distribution(Distribution::Kind k) {
  return k == Distribution::Normal ? 0 : k == Distribution::Uniform ? 1 : 2;
}

}  // namespace

DeviceTensors::DeviceTensors(const TaskSpec& t, const Config& c, const HostData& in, size_t workspace_bytes,
                             const Stream& s, int poison_variant)
    : task_(t), config_(c), storage_(std::make_shared<Storage>()), ints_(c.ints), floats_(c.floats), numel_(in.numel) {
  allocate(s);
  bind(workspace_bytes, s);
  reset(in, poison_variant, s);
}

DeviceTensors::DeviceTensors(const TaskSpec& t, const Config& c, uint64_t draw_key, size_t workspace_bytes,
                             const Stream& s)
    : task_(t), config_(c), storage_(std::make_shared<Storage>()), ints_(c.ints), floats_(c.floats) {
  for (const TensorSpec& ts : t.tensors) numel_.push_back(t.numel(ts, c));
  allocate(s);
  bind(workspace_bytes, s);
  for (size_t i = 0; i < t.tensors.size(); ++i) {
    const TensorSpec& ts = t.tensors[i];
    GuardedBuffer& b = storage_->buffers[i];
    b.fill(poison_pattern(ts.dtype, 0), s);
    if (!ts.reads()) continue;
    const Distribution d = ts.dist->at(c.bindings);
    check(arena_dev_generate(b.data(), static_cast<int>(ts.dtype), static_cast<size_t>(numel_[i]),
                             device_distribution(d.kind), d.a, d.b, sample_key(draw_key, 0, static_cast<uint32_t>(i)),
                             s.get()),
          "drawing inputs on the device");
    check(arena_dev_d2d(storage_->pristine[i].get(), b.data(), b.bytes(), s.get()), "keeping an input's first contents");
  }
  if (workspace_) workspace_->fill(0xFEDCBA9876543210ull, s);
  if (!s.wait(60)) throw DeviceError("drawing inputs on the device timed out");
}

void DeviceTensors::allocate(const Stream& s) {
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const size_t bytes = numel_[i] * dtype_size(task_.tensors[i].dtype);
    storage_->buffers.emplace_back(bytes, s);
    storage_->pristine.emplace_back(task_.tensors[i].reads()
                                        ? DeviceBuffer(std::max<size_t>(bytes, 1), DeviceBuffer::Sharing::JudgeOnly)
                                        : DeviceBuffer());
  }
}

void DeviceTensors::set_input_from_device(size_t i, const void* src, const Stream& s) {
  GuardedBuffer& b = storage_->buffers[i];
  check(arena_dev_d2d(b.data(), src, b.bytes(), s.get()), "setting an input");
  check(arena_dev_d2d(storage_->pristine[i].get(), src, b.bytes(), s.get()), "setting an input");
  if (!s.wait(60)) throw DeviceError("setting an input timed out");
}

DeviceTensors::DeviceTensors(const DeviceTensors& other, size_t workspace_bytes, const Stream& s)
    : task_(other.task_),
      config_(other.config_),
      storage_(other.storage_),
      ints_(other.ints_),
      floats_(other.floats_),
      numel_(other.numel_),
      poison_variant_(other.poison_variant_) {
  bind(workspace_bytes, s);
  if (workspace_) workspace_->fill(0xFEDCBA9876543210ull, s);
}

void DeviceTensors::bind(size_t workspace_bytes, const Stream& s) {
  for (const auto& b : storage_->buffers) pointers_.push_back(b.data());
  args_.tensors = pointers_.data();
  args_.num_tensors = static_cast<int>(pointers_.size());
  args_.ints = ints_.data();
  args_.num_ints = static_cast<int>(ints_.size());
  args_.floats = floats_.data();
  args_.num_floats = static_cast<int>(floats_.size());
  args_.stream = s.get();
  if (workspace_bytes > (size_t{64} << 30))
    throw std::runtime_error("the kernel asks for " + std::to_string(workspace_bytes) + " workspace bytes (over 64 GiB)");
  if (workspace_bytes == 0) return;
  // Whole 256-byte units: a worker poisons the workspace 8 bytes at a time without touching
  // its red zones.
  workspace_bytes = (workspace_bytes + GuardedBuffer::kAlign - 1) / GuardedBuffer::kAlign * GuardedBuffer::kAlign;
  workspace_ = std::make_unique<GuardedBuffer>(workspace_bytes, s);
  args_.workspace = workspace_->data();
  args_.workspace_bytes = workspace_bytes;
}

BindingSpec DeviceTensors::binding() const {
  BindingSpec b;
  auto ref = [](const GuardedBuffer& g) {
    TensorRef r;
    r.buffer = g.allocation().id();
    r.offset = GuardedBuffer::kRedZone;
    r.bytes = g.bytes();
    return r;
  };
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const TensorSpec& ts = task_.tensors[i];
    TensorRef r = ref(storage_->buffers[i]);
    r.numel = numel_[i];
    r.dtype = ts.dtype;
    r.reads = ts.reads();
    r.writes = ts.writes();
    if (ts.reads() && ts.dist) {
      const Distribution d = ts.dist->at(config_.bindings);
      r.dist_kind = device_distribution(d.kind);
      r.a = d.a;
      r.b = d.b;
    }
    b.tensors.push_back(r);
  }
  if (workspace_) {
    b.has_workspace = true;
    b.workspace = ref(*workspace_);
  }
  b.ints = ints_;
  b.floats = floats_;
  return b;
}

std::vector<const DeviceBuffer*> DeviceTensors::allocations() const {
  std::vector<const DeviceBuffer*> out;
  for (const auto& g : storage_->buffers) out.push_back(&g.allocation());
  if (workspace_) out.push_back(&workspace_->allocation());
  return out;
}

void DeviceTensors::reset(const HostData& in, int poison_variant, const Stream& s) {
  poison_variant_ = poison_variant;
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    GuardedBuffer& b = storage_->buffers[i];
    b.fill(poison_pattern(task_.tensors[i].dtype, poison_variant), s);
    if (task_.tensors[i].reads()) {
      if (!s.wait(60)) throw DeviceError("filling a buffer timed out");
      b.upload(in.bytes[i].data());
      check(arena_dev_h2d(storage_->pristine[i].get(), in.bytes[i].data(), b.bytes()), "copying to the device");
    }
  }
  // Scratch starts as garbage: a kernel must not rely on zeroed workspace.
  if (workspace_) workspace_->fill(poison_variant ? 0x0123456789ABCDEFull : 0xFEDCBA9876543210ull, s);
  if (!s.wait(60)) throw DeviceError("preparing buffers timed out");
}

void DeviceTensors::prepare_launch(const Stream& s) const {
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const TensorSpec& ts = task_.tensors[i];
    GuardedBuffer& b = storage_->buffers[i];
    if (ts.role == Role::Output) b.fill(poison_pattern(ts.dtype, poison_variant_), s);
    if (ts.role == Role::InOut)
      check(arena_dev_d2d(b.data(), storage_->pristine[i].get(), b.bytes(), s.get()), "restoring an inout tensor");
  }
}

std::vector<std::string> DeviceTensors::integrity_problems(const Stream& s, bool check_inputs) const {
  std::vector<std::string> problems;
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    const TensorSpec& ts = task_.tensors[i];
    const GuardedBuffer& b = storage_->buffers[i];
    std::string red = b.check_red_zones("tensor '" + ts.name + "'");
    if (!red.empty()) problems.push_back(red);
    if (ts.role == Role::Input && check_inputs) {
      size_t first = 0;
      check(arena_dev_compare(b.data(), storage_->pristine[i].get(), b.bytes(), s.get(), &first),
            "checking input '" + ts.name + "'");
      if (first < b.bytes())
        problems.push_back("input tensor '" + ts.name + "' was modified (first changed element " +
                           std::to_string(first / dtype_size(ts.dtype)) + ")");
    }
  }
  if (workspace_) {
    std::string red = workspace_->check_red_zones("workspace");
    if (!red.empty()) problems.push_back(red);
  }
  return problems;
}

HostValues DeviceTensors::output_values(size_t i) const {
  return download_values(task_.tensors[i].dtype, storage_->buffers[i].data(), numel_[i]);
}

}  // namespace arena
