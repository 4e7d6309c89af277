#include "worker.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "confine.h"
#include "cache_sweep.h"
#include "device.h"
#include "gpu_trace.h"
#include "kept_capture.h"
#include "kernel_library.h"
#include "launch_replay.h"
#include "tensors.h"
#include "wire.h"
#include "worker_protocol.h"

namespace arena {

using json = nlohmann::json;

namespace {

struct Mapped {
  void* base = nullptr;
  uint64_t bytes = 0;
};

// A binding resolved to this process's addresses.
struct Bound {
  BindingSpec spec;
  std::vector<uint64_t> addresses;  // tensors, then the workspace
  std::vector<void*> pointers;
  arena_args args{};
  std::string recipe;  // replay: the recipe it runs
};

json fail(const std::string& why) { return {{"ok", false}, {"error", why}}; }

class Worker {
 public:
  explicit Worker(int fd) : fd_(fd) {}
  int serve();

 private:
  WireMessage handle(const WireMessage& m);
  json setup(const json& h);
  json map(const WireMessage& m);
  json unmap(const json& h);
  json workspace_size(const json& h);
  WireMessage record(const json& h);
  json recipe(const WireMessage& m);
  json bind(const json& h);
  json launch(const json& h);
  json round(const json& h);

  Bound resolve(const BindingSpec& spec) const;
  uint64_t address(const TensorRef& t) const;
  // Enqueues one launch of the kernel on `b`; throws ReplayError for a recipe that cannot run.
  int enqueue(Bound& b);
  // enqueue() inside the tracer's tag `tag`, its return code in `rc`. A recipe that cannot run
  // is answered in `out` ("refused", after the stream is waited for) and gives false.
  bool traced_enqueue(Bound& b, uint64_t tag, double timeout_s, json& out, int& rc);
  // Waits for the stream; on a hang or a fault fills `out` and marks the worker for exit.
  bool finished(double timeout_s, json& out);

  int fd_;
  std::string mode_;
  std::unique_ptr<Stream> stream_;
  KernelLibrary kernel_;
  std::unique_ptr<ReplayCode> code_;
  std::vector<std::string> image_kernels_;
  std::map<uint64_t, Mapped> mapped_;
  std::map<std::string, Recipe> recipes_;
  std::map<int, Bound> bound_;
  std::vector<std::unique_ptr<Event>> events_;
  uint64_t next_tag_ = 1;
  bool exit_ = false;
};

int Worker::serve() {
  GpuTrace& trace = GpuTrace::get();  // before any GPU context exists
  DeviceChoice dev = select_device();
  json hello = {{"hello", true}, {"pid", static_cast<int>(::getpid())}};
  std::string why_not;
  hello["replay"] = replay_supported(&why_not) ? "available" : why_not;
  hello["trace"] = trace.available() ? "cupti" : trace.why();
  if (!dev.available) {
    hello["device_error"] = dev.why;
  } else {
    hello["device"] = {{"name", dev.info.name}, {"arch", dev.info.arch}};
    stream_ = std::make_unique<Stream>();
  }
  write_message(fd_, WireMessage{hello, {}});
  for (;;) {
    WireMessage m;
    try {
      m = read_message(fd_, -1);
    } catch (const WireError&) {
      return 0;  // the judge went away
    }
    if (m.head.value("op", "") == "exit") return 0;
    WireMessage answer;
    try {
      if (!stream_) throw std::runtime_error("no GPU: " + dev.why);
      answer = handle(m);
    } catch (const std::exception& e) {
      answer = WireMessage{fail(e.what()), {}};
    }
    if (!answer.head.contains("ok")) answer.head["ok"] = true;
    write_message(fd_, answer);
    if (exit_) {
      std::fflush(nullptr);
      ::_exit(3);  // the GPU context is unusable after a hang or a fault
    }
  }
}

WireMessage Worker::handle(const WireMessage& m) {
  const std::string op = m.head.value("op", "");
  if (op == "setup") return {setup(m.head), {}};
  if (mode_.empty()) throw std::runtime_error("the worker must be set up first");
  if (op == "map") return {map(m), {}};
  if (op == "unmap") return {unmap(m.head), {}};
  if (op == "workspace_size") return {workspace_size(m.head), {}};
  if (op == "record") return record(m.head);
  if (op == "recipe") return {recipe(m), {}};
  if (op == "bind") return {bind(m.head), {}};
  if (op == "launch") return {launch(m.head), {}};
  if (op == "round") return {round(m.head), {}};
  throw std::runtime_error("unknown request '" + op + "'");
}

json Worker::setup(const json& h) {
  if (!mode_.empty()) throw std::runtime_error("the worker is already set up");
  mode_ = h.at("mode").get<std::string>();
  const std::string kernel = h.at("kernel").get<std::string>();
  const std::string role = h.value("role", "kernel");
  json out = {{"ok", true}};
  if (mode_ == "record" || mode_ == "direct") {
    if (h.contains("confine") && !h["confine"].is_null()) {
      const json& c = h["confine"];
      ConfinementPlan plan;
      plan.read = c.value("read", std::vector<std::string>{});
      plan.write = c.value("write", std::vector<std::string>{});
      plan.protect = c.value("protect", std::vector<std::string>{});
      plan.children = c.value("children", false);
      out["confinement"] = confine_self(plan).to_json();
    }
    kernel_ = KernelLibrary::load(kernel, role, h.value("task_file", ""));
    out["workspace_fn"] = kernel_.workspace_size != nullptr;
  } else if (mode_ == "replay") {
    code_ = std::make_unique<ReplayCode>(kernel);
    image_kernels_ = h.value("image_kernels", std::vector<std::string>{});
    out["kernels"] = code_->library_kernels();
  } else {
    throw std::runtime_error("unknown worker mode '" + mode_ + "'");
  }
  return out;
}

json Worker::map(const WireMessage& m) {
  const json& list = m.head.at("buffers");
  if (list.size() != m.blobs.size()) throw std::runtime_error("map: one IPC handle per buffer expected");
  for (size_t i = 0; i < list.size(); ++i) {
    const uint64_t id = list[i].at("id").get<uint64_t>();
    if (m.blobs[i].size() != ARENA_IPC_HANDLE_BYTES) throw std::runtime_error("map: malformed IPC handle");
    if (mapped_.count(id)) continue;
    Mapped x;
    x.bytes = list[i].at("bytes").get<uint64_t>();
    check(arena_dev_ipc_open(m.blobs[i].data(), &x.base), "mapping buffer " + std::to_string(id));
    mapped_[id] = x;
  }
  return {{"ok", true}};
}

json Worker::unmap(const json& h) {
  for (uint64_t id : h.at("ids").get<std::vector<uint64_t>>()) {
    auto it = mapped_.find(id);
    if (it == mapped_.end()) continue;
    arena_dev_ipc_close(it->second.base);
    mapped_.erase(it);
  }
  return {{"ok", true}};
}

json Worker::workspace_size(const json& h) {
  if (!kernel_.workspace_size) return {{"ok", true}, {"bytes", 0}};
  std::vector<int64_t> ints = h.at("ints").get<std::vector<int64_t>>();
  std::vector<double> floats = h.at("floats").get<std::vector<double>>();
  arena_args q{};
  q.ints = ints.data();
  q.num_ints = static_cast<int>(ints.size());
  q.floats = floats.data();
  q.num_floats = static_cast<int>(floats.size());
  return {{"ok", true}, {"bytes", kernel_.workspace_size(&q)}};
}

uint64_t Worker::address(const TensorRef& t) const {
  auto it = mapped_.find(t.buffer);
  if (it == mapped_.end()) throw std::runtime_error("buffer " + std::to_string(t.buffer) + " is not mapped");
  if (t.offset + t.bytes > it->second.bytes)
    throw std::runtime_error("a tensor runs past the end of buffer " + std::to_string(t.buffer));
  return reinterpret_cast<uint64_t>(it->second.base) + t.offset;
}

Bound Worker::resolve(const BindingSpec& spec) const {
  Bound b;
  b.spec = spec;
  for (const auto& t : spec.tensors) b.addresses.push_back(address(t));
  if (spec.has_workspace) b.addresses.push_back(address(spec.workspace));
  for (size_t i = 0; i < spec.tensors.size(); ++i) b.pointers.push_back(reinterpret_cast<void*>(b.addresses[i]));
  b.args.tensors = b.pointers.data();
  b.args.num_tensors = static_cast<int>(b.pointers.size());
  b.args.ints = b.spec.ints.data();
  b.args.num_ints = static_cast<int>(b.spec.ints.size());
  b.args.floats = b.spec.floats.data();
  b.args.num_floats = static_cast<int>(b.spec.floats.size());
  if (spec.has_workspace) {
    b.args.workspace = reinterpret_cast<void*>(b.addresses.back());
    b.args.workspace_bytes = spec.workspace.bytes;
  }
  b.args.stream = stream_->get();
  return b;
}

bool Worker::finished(double timeout_s, json& out) {
  try {
    if (stream_->wait(timeout_s)) return true;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", timeout_s);
    out["outcome"] = "timeout";
    out["message"] = std::string("did not finish within ") + buf + " s (an infinite loop or a deadlock?)";
  } catch (const DeviceError& e) {
    out["outcome"] = "fault";
    out["message"] = std::string("crashed the device: ") + e.what();
  }
  exit_ = true;
  return false;
}

WireMessage Worker::record(const json& h) {
  if (mode_ != "record") throw std::runtime_error("record: this worker does not record");
  Bound b = resolve(binding_from_json(h.at("binding")));
  const double timeout_s = h.value("timeout_s", 100.0);
  json out = {{"ok", true}, {"outcome", "done"}, {"problems", json::array()}};
  // Warm-up launches run for real: one-time setup, JIT compilation, autotuning (the first
  // gets three times the kernel timeout for it).
  for (int i = 0; i < h.value("warmups", 2); ++i) {
    const int rc = kernel_.launch(&b.args);
    if (!finished(i == 0 ? 3 * timeout_s : timeout_s, out)) return {out, {}};
    if (rc != 0) {
      out["status"] = rc;
      out["problems"].push_back(kernel_.role + " arena_launch returned " + std::to_string(rc));
      return {out, {}};
    }
  }
  std::vector<LentRange> lent;
  auto range = [&](const TensorRef& t, uint64_t addr) {
    const Mapped& m = mapped_.at(t.buffer);
    return LentRange{addr, t.bytes, reinterpret_cast<uint64_t>(m.base), m.bytes};
  };
  for (size_t i = 0; i < b.spec.tensors.size(); ++i) lent.push_back(range(b.spec.tensors[i], b.addresses[i]));
  if (b.spec.has_workspace) lent.push_back(range(b.spec.workspace, b.addresses.back()));
  ImageLookup images;
  if (kernel_.image)
    images = [this](void* f, std::vector<uint8_t>* image, std::string* build) {
      const void* data = nullptr;
      size_t size = 0;
      if (kernel_.image(f, &data, &size) != 0 || !data) return false;
      image->assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
      build->clear();
      if (kernel_.build && kernel_.build(f, &data, &size) == 0 && data)
        build->assign(static_cast<const char*>(data), size);
      return true;
    };
  GpuTrace& trace = GpuTrace::get();
  trace.collect();  // drop what the warm-ups left
  const uint64_t tag = next_tag_++;
  trace.begin(tag);
  CaptureResult cr = capture_recipe([&] { return kernel_.launch(&b.args); }, stream_->get(), lent, images);
  trace.end();
  // Work that ran instead of being recorded: launched on another stream.
  check(arena_dev_device_sync(), "waiting for the device after recording");
  std::set<std::string> escaped;
  for (const auto& a : trace.collect())
    if (a.tag == tag) escaped.insert(a.name);
  for (const auto& name : escaped)
    cr.problems.push_back("it ran " + name + " on another stream while launching (all work must be enqueued on the "
                          "stream it is given; work elsewhere is not part of the launch)");
  if (cr.launch_status != 0)
    cr.problems.push_back(kernel_.role + " arena_launch returned " + std::to_string(cr.launch_status) + " while recorded");
  out["status"] = cr.launch_status;
  for (const auto& p : cr.problems) out["problems"].push_back(p);
  out["recipe"] = recipe_to_json(cr.recipe);
  return {out, cr.recipe.images};
}

json Worker::recipe(const WireMessage& m) {
  if (mode_ != "replay") throw std::runtime_error("recipe: this worker does not replay");
  const json& h = m.head;
  Recipe r = recipe_from_json(h.at("recipe"), m.blobs, h.at("buffers").get<int>());
  code_->check(r, image_kernels_);
  recipes_[h.at("key").get<std::string>()] = std::move(r);
  return {{"ok", true}};
}

json Worker::bind(const json& h) {
  Bound b = resolve(binding_from_json(h.at("binding")));
  if (mode_ == "replay") {
    b.recipe = h.at("recipe").get<std::string>();
    if (!recipes_.count(b.recipe)) throw std::runtime_error("bind: no recipe '" + b.recipe + "'");
  }
  bound_[h.at("set").get<int>()] = std::move(b);
  return {{"ok", true}};
}

int Worker::enqueue(Bound& b) {
  if (mode_ == "replay") {
    code_->enqueue(recipes_.at(b.recipe), b.addresses, stream_->get());
    return 0;
  }
  return kernel_.launch(&b.args);
}

bool Worker::traced_enqueue(Bound& b, uint64_t tag, double timeout_s, json& out, int& rc) {
  GpuTrace& trace = GpuTrace::get();
  trace.begin(tag);
  try {
    rc = enqueue(b);
  } catch (const ReplayError& e) {
    trace.end();
    finished(timeout_s, out);
    out["outcome"] = "refused";
    out["message"] = e.what();
    return false;
  }
  trace.end();
  return true;
}

json Worker::launch(const json& h) {
  if (mode_ == "record") throw std::runtime_error("launch: a recorder does not launch");
  Bound& b = bound_.at(h.at("set").get<int>());
  json out = {{"ok", true}, {"outcome", "done"}};
  GpuTrace& trace = GpuTrace::get();
  const uint64_t tag = next_tag_++;
  int rc = 0;
  if (!traced_enqueue(b, tag, h.value("timeout_s", 10.0), out, rc)) return out;
  if (!finished(h.value("timeout_s", 10.0), out)) return out;
  if (rc != 0) {
    out["outcome"] = "returned_error";
    out["message"] = kernel_.role + " arena_launch returned " + std::to_string(rc);
  }
  json kernels = json::array();
  const uint32_t mine = trace.stream_id(stream_->get());
  std::set<uint32_t> other_streams;
  for (const auto& a : trace.collect())
    if (a.tag == tag) {
      kernels.push_back(a.name);
      if (mine && a.stream != mine) other_streams.insert(a.stream);
    }
  out["kernels"] = kernels;
  out["other_streams"] = other_streams.size();
  return out;
}

// The tracer's kernel records off for a stretch of a round, and on again at its end or on any
// way out of the round (every other op lists the kernels it ran).
class KernelRecordsOff {
 public:
  KernelRecordsOff(GpuTrace& t, bool wanted) : t_(t), active_(wanted && t.available() && t.pause_kernels(true)) {}
  ~KernelRecordsOff() { end(); }
  KernelRecordsOff(const KernelRecordsOff&) = delete;
  KernelRecordsOff& operator=(const KernelRecordsOff&) = delete;
  bool active() const { return active_; }
  void end() {
    if (on_ || !active_) return;
    t_.pause_kernels(false);
    on_ = true;
  }

 private:
  GpuTrace& t_;
  bool active_ = false, on_ = false;
};

json Worker::round(const json& h) {
  if (mode_ == "record") throw std::runtime_error("round: a recorder does not time");
  Bound& b = bound_.at(h.at("set").get<int>());
  const int samples = h.at("samples").get<int>();
  const uint64_t key = h.at("key").get<uint64_t>();
  const uint64_t ws_pattern = h.value("workspace_pattern", uint64_t{0xFEDCBA9876543210ull});
  const SweepPlan sweep_plan = SweepPlan::as_given(h.at("flush_bytes").get<size_t>(), sweep_mode_from(h.value("flush_mode", 0)));
  if (samples < 1 || samples > 1000) throw std::runtime_error("round: 1 to 1000 samples");
  // The cache sweep reads the judge's buffer, the same for every side, so every side's sample
  // starts from the same cache contents.
  TensorRef sweep;
  sweep.buffer = h.at("flush_buffer").get<uint64_t>();
  sweep.bytes = sweep_plan.bytes;
  void* flush = reinterpret_cast<void*>(address(sweep));
  while (events_.size() < 2 * static_cast<size_t>(samples)) events_.push_back(std::make_unique<Event>());
  // The kept sample: the judge copies it in its own context while this executor waits right
  // after it (kept_capture.h). Nothing of it is copied here, so no copy exists in this address
  // space, where the kernel's device code runs.
  const int keep = h.value("keep", -1);
  if (keep >= samples) throw std::runtime_error("round: the kept sample is past the round's samples");
  void* s = stream_->get();
  GpuTrace& trace = GpuTrace::get();
  trace.collect();
  // Replayed steps all go to this one stream, so events around a sample cover all its work:
  // the samples from `first_audit` on are the audit samples, with the tracer's kernel records
  // on; the ones before run with them off, since the records slow some kernels (event_clock.h).
  // Nothing is in flight when the records are turned off (the last op waited for its work).
  const int first_audit = h.value("first_audit", samples);
  KernelRecordsOff records_off(trace, mode_ == "replay" && first_audit > 0 && first_audit < samples);
  const bool quiet = records_off.active();
  std::vector<uint64_t> tags(samples);
  json out = {{"ok", true}, {"outcome", "done"}};
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < samples; ++i) {
    if (i == first_audit) records_off.end();
    for (size_t t = 0; t < b.spec.tensors.size(); ++t) {
      const TensorRef& x = b.spec.tensors[t];
      void* p = reinterpret_cast<void*>(b.addresses[t]);
      if (x.reads && x.dist_kind >= 0)
        check(arena_dev_generate(p, static_cast<int>(x.dtype), static_cast<size_t>(x.numel), x.dist_kind, x.a, x.b,
                                 sample_key(key, static_cast<uint32_t>(i), static_cast<uint32_t>(t)), s),
              "drawing fresh inputs");
      else if (x.writes && !x.reads && x.bytes >= 8)
        check(arena_dev_fill(p, poison_pattern(x.dtype, 0), x.bytes / 8 * 8, s), "poisoning an output");
    }
    if (b.spec.has_workspace && b.spec.workspace.bytes >= 8)
      check(arena_dev_fill(reinterpret_cast<void*>(b.addresses.back()), ws_pattern ^ (0x9E3779B97F4A7C15ull * i),
                           b.spec.workspace.bytes / 8 * 8, s),
            "poisoning the workspace");
    enqueue_sweep(flush, sweep_plan, s);
    events_[2 * i]->record(*stream_);
    tags[i] = next_tag_++;
    int rc = 0;
    if (!traced_enqueue(b, tags[i], h.value("timeout_s", 60.0), out, rc)) return out;
    events_[2 * i + 1]->record(*stream_);
    if (rc != 0) {
      finished(h.value("timeout_s", 60.0), out);
      out["outcome"] = "returned_error";
      out["message"] = kernel_.role + " arena_launch returned " + std::to_string(rc) + " while timed";
      return out;
    }
    // Each sample finishes before the next is queued: with the next sample's steps queued
    // behind it, the end event read 0.6-0.9 us later on an H100 (docs/DESIGN.md, "Performance").
    if (!finished(h.value("timeout_s", 60.0), out)) return out;
    if (i == keep) {
      // The launch has ended and nothing else is queued: the judge copies the sample now.
      write_message(fd_, WireMessage{KeptPause::message(i), {}});
      const WireMessage go_on = read_message(fd_, -1);
      if (go_on.head.value("op", "") != "resume")
        throw std::runtime_error("round: the judge did not resume after the kept sample");
    }
  }
  out["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::vector<GpuActivity> acts = trace.collect();
  json list = json::array();
  for (int i = 0; i < samples; ++i) {
    const double ev = elapsed_ms(*events_[2 * i], *events_[2 * i + 1]) * 1e3;
    if (quiet && i < first_audit) {
      list.push_back({{"event_us", ev}});  // timed by events alone
      continue;
    }
    const double span = trace.available() ? span_us(acts, tags[i]) : ev;
    list.push_back({{"gpu_us", span}, {"event_us", ev}});
  }
  out["samples"] = list;
  out["quiet_samples"] = quiet ? first_audit : 0;
  out["timing"] = trace.available() ? "gpu activity span" : "events";
  return out;
}

}  // namespace

int run_worker(int fd) {
  try {
    Worker w(fd);
    return w.serve();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "worker: %s\n", e.what());
    return 2;
  }
}

}  // namespace arena
