#include "side.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>

#include "gate_report.h"
#include "kept_capture.h"

extern char** environ;

namespace arena {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<Side*> g_sides;

void free_hook(uint64_t id) {
  for (Side* s : g_sides) s->forget_buffer(id);
}

// The folder holding this code (the runner's binary or libarena_tools.so).
std::string own_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&own_folder), &info) && info.dli_fname) {
    std::error_code ec;
    fs::path p = fs::canonical(info.dli_fname, ec);
    if (!ec) return p.parent_path().string();
  }
  return fs::current_path().string();
}

// The GPU a worker must use, as its own device 0: the judge's device `id` in the parent's
// visible-devices list, when there is one.
std::string visible_device(const char* var, int id) {
  const char* v = std::getenv(var);
  if (!v || !*v) return std::to_string(id);
  std::vector<std::string> items;
  std::stringstream ss(v);
  for (std::string item; std::getline(ss, item, ',');) items.push_back(item);
  return id >= 0 && id < static_cast<int>(items.size()) ? items[id] : std::to_string(id);
}

// Variables a confined worker keeps from the judge's environment (how to find libraries and
// Python); everything else, CTest's resource variables included, is left out, so the worker
// sees the same environment in every gate.
const char* const kKeptForConfined[] = {"PATH", "LANG", "LC_ALL", "LC_CTYPE", "LD_LIBRARY_PATH", "PYTHONPATH",
                                        "PYTHONHOME", "CUDA_HOME", "CUDA_PATH", "ROCM_PATH", "ARENA_PY_TRACEBACK"};

uint64_t fnv1a(uint64_t h, const std::string& bytes) {
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

// A kernel's content key: a file's bytes, or for a folder (a PyTorch reference's task folder)
// the names and bytes of its regular files. Reading a folder as a file throws, so the two are
// told apart first; what cannot be read adds nothing.
uint64_t file_hash(const std::string& path) {
  auto bytes_of = [](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  };
  uint64_t h = 1469598103934665603ull;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return fs::is_regular_file(path, ec) ? fnv1a(h, bytes_of(path)) : h;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(path, ec))
    if (e.is_regular_file(ec)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) h = fnv1a(fnv1a(h, f.filename().string()), bytes_of(f));
  return h;
}

std::string kernel_file_of(const std::string& spec) {
  if (spec.rfind("py:", 0) != 0) return spec;
  const size_t second = spec.find(':', 3), third = spec.find(':', second + 1);
  return third == std::string::npos ? "" : spec.substr(third + 1);
}

}  // namespace

void register_side(Side* s) {
  if (g_sides.empty()) set_buffer_free_hook(free_hook);
  g_sides.push_back(s);
}

void unregister_side(Side* s) { g_sides.erase(std::remove(g_sides.begin(), g_sides.end(), s), g_sides.end()); }

void complete_worker_setup(WorkerSetup& s, const TaskSpec& task) {
  const std::string here = own_folder();
  if (s.worker_exe.empty()) s.worker_exe = here + "/arena-worker";
  if (s.worker_lib.empty()) s.worker_lib = here + "/libarena_worker.so";
  if (s.task_file.empty()) s.task_file = task.file.string();
  if (s.scratch.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/arena-gate-XXXXXX";
    if (!::mkdtemp(templ.data())) throw std::runtime_error("cannot create a private folder under " + templ);
    s.scratch = templ;
  }
  if (s.public_task.empty()) {
    s.public_task = s.scratch + "/task.json";
    write_public_spec(task.file, s.public_task);
  }
}

Side::Side(std::string role, std::string spec, const WorkerSetup& setup, bool trusted)
    : role_(std::move(role)), spec_(std::move(spec)), setup_(setup), trusted_(trusted) {
  python_ = spec_.rfind("py:", 0) == 0;
  const bool torch = spec_.rfind("py:torch:", 0) == 0;
  replay_ = !torch && !setup_.amd;
  if (torch) writes_outputs_ = spec_.rfind("py:torch:eager_out:", 0) == 0;
  register_side(this);
}

Side::~Side() {
  unregister_side(this);
  recorder_.reset();
  executor_.reset();
}

Side::Worker Side::start(const std::string& mode, const std::string& name, bool confined) {
  const bool python_worker = mode != "replay" && python_;
  const std::string dir = setup_.scratch + "/" + name + "-" + std::to_string(++started_);
  fs::create_directories(dir);
  WorkerLaunch l;
  l.cwd = dir;
  if (python_worker)
    l.argv = {setup_.python, setup_.py_host, setup_.worker_lib, "worker", "--needs",
              spec_.rfind("py:triton:", 0) == 0 ? "torch,triton" : "torch"};
  else l.argv = {setup_.worker_exe, "--fd", "3"};
  if (python_worker && (setup_.python.empty() || setup_.py_host.empty()))
    throw WorkerError(WorkerError::Failed, role_ + ": a Python worker needs --python and --py-host");
  std::string triton_cache;
  if (confined) {
    for (const char* k : kKeptForConfined)
      if (const char* v = std::getenv(k)) l.env[k] = v;
    l.env["HOME"] = dir;
    l.env["TMPDIR"] = dir;
    l.env["XDG_CACHE_HOME"] = dir;
    // Triton's cache is this kernel's own (keyed by the module's content), shared with no other.
    const std::string file = kernel_file_of(spec_);
    char key[32];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(file_hash(file)));
    const char* tmp = std::getenv("TMPDIR");
    triton_cache = std::string(tmp && *tmp ? tmp : "/tmp") + "/arena-triton-cache-" + std::to_string(::getuid()) + "/" + key;
    fs::create_directories(triton_cache);
    l.env["TRITON_CACHE_DIR"] = triton_cache;
  } else {
    for (char** e = environ; *e; ++e) {
      std::string kv = *e;
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) continue;
      const std::string k = kv.substr(0, eq);
      // ARENA_HOST_THREADS differs by gate kind, which a kernel must not be able to tell apart.
      if (k.rfind("CTEST_", 0) == 0 || k == "ARENA_DEVICE" || k == "ARENA_HOST_THREADS") continue;
      l.env[k] = kv.substr(eq + 1);
    }
  }
  if (setup_.amd) l.env["HIP_VISIBLE_DEVICES"] = visible_device("HIP_VISIBLE_DEVICES", setup_.device);
  else l.env["CUDA_VISIBLE_DEVICES"] = visible_device("CUDA_VISIBLE_DEVICES", setup_.device);

  Worker w;
  w.process = std::make_unique<WorkerProcess>(l, role_ + " " + name, setup_.start_timeout_s);
  const json& hello = w.process->hello();
  if (hello.contains("device_error"))
    throw WorkerError(WorkerError::Failed, role_ + " " + name + " cannot use the GPU: " +
                                               hello["device_error"].get<std::string>());
  if (mode == "replay" && hello.value("replay", "") != "available")
    throw WorkerError(WorkerError::Failed, "replay unavailable: " + hello.value("replay", std::string("?")));
  json req = {{"op", "setup"}, {"mode", mode}, {"role", role_}};
  if (mode == "replay") {
    req["kernel"] = python_ ? "" : spec_;  // a Triton module's device code comes with its recipes
    req["image_kernels"] = image_kernels_;
  } else {
    req["kernel"] = spec_;
    req["task_file"] = confined ? setup_.public_task : setup_.task_file;
  }
  if (confined) {
    json plan = {{"read", json::array({kernel_file_of(spec_), setup_.public_task})},
                 {"write", json::array({dir, triton_cache})},
                 {"protect", setup_.protect},
                 {"children", python_worker}};
    if (python_worker) plan["read"].push_back(fs::path(setup_.py_host).parent_path().string());
    req["confine"] = plan;
  }
  w.setup_answer = w.process->call(req, setup_.start_timeout_s).head;
  if (w.setup_answer.contains("confinement")) confinement_ = w.setup_answer["confinement"];
  return w;
}

Side::Worker& Side::recorder() {
  if (!recorder_ || !recorder_->process->running()) {
    if (recorder_) restarts_.push_back("recorder replaced");
    recorder_ = std::make_unique<Worker>(start("record", "recorder", !trusted_));
  }
  return *recorder_;
}

Side::Worker& Side::executor() {
  if (executor_ && executor_->process->running()) return *executor_;
  if (executor_) restarts_.push_back("executor replaced");
  executor_.reset();
  if (replay_) {
    try {
      executor_ = std::make_unique<Worker>(start("replay", "executor", false));
    } catch (const WorkerError& e) {
      if (std::string(e.what()).rfind("replay unavailable", 0) != 0) throw;
      replay_ = false;  // an old driver: run the kernel directly instead
      restarts_.push_back(std::string("replay not available (") + e.what() + "): run directly");
    }
  }
  if (!executor_) executor_ = std::make_unique<Worker>(start("direct", "executor", !trusted_));
  // A new executor starts empty: the recipes are given again (perf bindings are not: a perf
  // gate whose executor had to be replaced has failed).
  if (replay_)
    for (const auto& [key, r] : recipes_) install(*executor_, key);
  return *executor_;
}

void Side::lend(Worker& w, const std::vector<const DeviceBuffer*>& buffers) {
  WireMessage m;
  m.head = {{"op", "map"}, {"buffers", json::array()}};
  for (const DeviceBuffer* b : buffers) {
    if (!b || !b->get() || w.mapped.count(b->id())) continue;
    m.head["buffers"].push_back({{"id", b->id()}, {"bytes", b->bytes()}});
    auto h = b->ipc_handle();
    m.blobs.emplace_back(h.begin(), h.end());
  }
  if (m.blobs.empty()) return;
  w.process->call(m, 60);
  for (const auto& b : m.head["buffers"]) w.mapped.insert(b["id"].get<uint64_t>());
}

void Side::forget_buffer(uint64_t id) {
  for (Worker* w : {recorder_.get(), executor_.get()}) {
    if (!w || !w->mapped.count(id)) continue;
    w->mapped.erase(id);
    if (!w->process->running()) continue;
    try {
      w->process->call(json{{"op", "unmap"}, {"ids", {id}}}, 30);
    } catch (const WorkerError&) {
    }
  }
}

void Side::install(Worker& w, const std::string& key) {
  const auto& [recipe, images] = recipes_.at(key);
  WireMessage m;
  m.head = {{"op", "recipe"}, {"key", key}, {"recipe", recipe}, {"buffers", recipe.value("buffers", 0)}};
  m.blobs = images;
  w.process->call(m, 120);
}

json Side::describe() const {
  json d = {{"role", role_}, {"kernel", spec_}};
  if (replay_) {
    d["runs"] = "host code recorded by its own worker" + std::string(trusted_ ? "" : " (confined)") +
                "; device code replayed and timed by another";
  } else {
    d["runs"] = std::string("in a worker of its own") + (trusted_ ? "" : " (confined)");
  }
  if (!confinement_.is_null()) d["confinement"] = confinement_;
  if (executor_ && executor_->process)
    d["timing"] = quiet_ ? "device events, their overhead calibrated on audit samples (CUPTI)"
                  : executor_->process->hello().value("trace", "") == "cupti" ? "GPU activity span (CUPTI)"
                                                                                : "device events";
  if (!restarts_.empty()) d["restarts"] = restarts_;
  return d;
}

void Side::start_workers() {
  if (!replay_) {
    executor();
    return;
  }
  auto rec = std::async(std::launch::async, [this] { recorder(); });
  try {
    executor();
  } catch (...) {
    rec.wait();
    throw;
  }
  rec.get();
}

size_t Side::workspace_size(const Config& c) {
  auto it = workspace_.find(c.label);
  if (it != workspace_.end()) return it->second;
  Worker& w = replay_ ? recorder() : executor();
  json a = w.process->call(json{{"op", "workspace_size"}, {"ints", c.ints}, {"floats", c.floats}}, 60).head;
  const size_t bytes = a.value("bytes", size_t{0});
  if (bytes > (size_t{64} << 30))
    throw std::runtime_error(role_ + " asks for " + std::to_string(bytes) + " workspace bytes on " + c.label +
                             " (over 64 GiB)");
  workspace_[c.label] = bytes;
  return bytes;
}

LaunchOutcome Side::outcome_of(const WorkerError& e, const std::string& where) {
  LaunchOutcome o;
  o.message = std::string(e.what()) + " (on " + where + ")";
  o.kind = e.kind == WorkerError::TimedOut ? LaunchOutcome::TimedOut
           : e.kind == WorkerError::Died   ? LaunchOutcome::DeviceFault
                                           : LaunchOutcome::ReturnedError;
  return o;
}

LaunchOutcome Side::outcome_of(const json& a, const std::string& where) {
  LaunchOutcome o;
  const std::string outcome = a.value("outcome", "done");
  const std::string msg = a.value("message", "");
  if (outcome == "done") return o;
  if (outcome == "timeout") {
    o.kind = LaunchOutcome::TimedOut;
    o.message = role_ + " " + msg + " on " + where;
  } else if (outcome == "fault") {
    o.kind = LaunchOutcome::DeviceFault;
    o.message = role_ + " " + msg + " on " + where;
  } else {
    o.kind = LaunchOutcome::ReturnedError;
    o.message = (msg.rfind(role_, 0) == 0 ? msg : role_ + ": " + msg) + " on " + where;
  }
  return o;
}

LaunchOutcome Side::prepare(const Config& c, const DeviceTensors& scratch, double timeout_s) {
  if (!replay_ || recipes_.count(c.label)) return {};
  auto refused = refused_.find(c.label);
  if (refused != refused_.end()) return {LaunchOutcome::ReturnedError, refused->second};
  const std::string where = c.label + " (" + c.describe() + ")";
  try {
    Worker& w = recorder();
    lend(w, scratch.allocations());
    json req = {{"op", "record"}, {"binding", binding_to_json(scratch.binding())}, {"warmups", 2},
                {"timeout_s", timeout_s}};
    WireMessage a = w.process->call(req, timeout_s * 3 + 120);
    LaunchOutcome o = outcome_of(a.head, where + ", recording its launch");
    if (!o.ok()) return o;
    std::vector<std::string> problems = a.head.value("problems", std::vector<std::string>{});
    if (!problems.empty()) {
      std::string why = role_ + " cannot be judged on " + where + ": ";
      for (size_t i = 0; i < problems.size(); ++i) why += (i ? "; " : "") + problems[i];
      why += w.process->output_tail();  // what it printed says why (a Python exception, say)
      refused_[c.label] = why;
      return {LaunchOutcome::ReturnedError, why};
    }
    json recipe = a.head.at("recipe");
    std::vector<std::vector<uint8_t>> images = std::move(a.blobs);
    // A Triton module's images: the executor gets only those the trusted compile built.
    if (python_ && !images.empty()) {
      if (!trusted_images_)
        trusted_images_ = std::make_unique<TrustedImages>(
            TrustedBuilder{setup_.python, (fs::path(setup_.py_host).parent_path() / "arena_triton_build.py").string(),
                           fs::absolute(kernel_file_of(spec_)).string(), setup_.task_file,
                           setup_.scratch + "/trusted-build-" + role_});
      const std::string why = trusted_images_->check(recipe, images);
      if (!why.empty()) {
        refused_[c.label] = role_ + " cannot be judged on " + where + ": " + why;
        return {LaunchOutcome::ReturnedError, refused_[c.label]};
      }
    }
    recipe.erase("builds");
    recipe["buffers"] = scratch.binding().tensors.size() + (scratch.workspace_bytes() ? 1 : 0);
    recipes_[c.label] = {std::move(recipe), std::move(images)};
    install(executor(), c.label);
    return {};
  } catch (const WorkerError& e) {
    if (e.kind == WorkerError::Failed) {
      const std::string why = role_ + " cannot be judged on " + where + ": " + e.what();
      refused_[c.label] = why;
      recipes_.erase(c.label);
      return {LaunchOutcome::ReturnedError, why};
    }
    return outcome_of(e, where + ", recording its launch");
  }
}

LaunchOutcome Side::launch(const Config& c, const DeviceTensors& t, double timeout_s, const std::string& where) {
  if (replay_ && !recipes_.count(c.label)) {
    auto refused = refused_.find(c.label);
    return {LaunchOutcome::ReturnedError,
            refused != refused_.end() ? refused->second : role_ + ": no recorded launch for " + c.label};
  }
  try {
    Worker& w = executor();
    lend(w, t.allocations());
    json bind = {{"op", "bind"}, {"set", -1}, {"binding", binding_to_json(t.binding())}, {"recipe", c.label}};
    w.process->call(bind, 60);
    json a = w.process->call(json{{"op", "launch"}, {"set", -1}, {"timeout_s", timeout_s}}, timeout_s + 60).head;
    LaunchOutcome o = outcome_of(a, where);
    if (o.kind == LaunchOutcome::ReturnedError) o.message += w.process->output_tail();
    return o;
  } catch (const WorkerError& e) {
    return outcome_of(e, where);
  }
}

void Side::bind(int set, const Config& c, const DeviceTensors& t) {
  Worker& w = executor();
  lend(w, t.allocations());
  BindingSpec b = t.binding();
  bindings_[set] = {c.label, b};
  w.process->call(json{{"op", "bind"}, {"set", set}, {"binding", binding_to_json(b)}, {"recipe", c.label}}, 60);
}

RoundResult Side::round(int set, int samples, uint64_t key, const DeviceBuffer& flush, const SweepPlan& sweep,
                        uint64_t workspace_pattern, int keep, const std::function<void(int sample)>& on_kept, double timeout_s) {
  RoundResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string where = "a timed round of " + bindings_.at(set).first;
  try {
    Worker& w = executor();
    lend(w, {&flush});
    const int audit = quiet_ ? kAuditSamples : 0;
    json req = {{"op", "round"},         {"set", set},
                {"samples", samples + audit}, {"key", key}, {"flush_buffer", flush.id()},
                {"flush_bytes", sweep.bytes}, {"flush_mode", sweep.device_mode()}, {"workspace_pattern", workspace_pattern},
                {"timeout_s", timeout_s}};
    if (quiet_) req["first_audit"] = samples;
    if (keep >= 0) req["keep"] = keep;
    KeptPause pause(keep);
    json a = w.process
                 ->call(WireMessage{req, {}}, timeout_s + 60,
                        [&](const json& p) {
                          on_kept(pause.accept(p));
                          return KeptPause::resume();
                        })
                 .head;
    r.outcome = outcome_of(a, where);
    try {
      pause.finish(r.outcome.ok());
    } catch (const std::runtime_error& e) {
      throw WorkerError(WorkerError::Failed, role_ + ": " + e.what() + " (on " + where + ")");
    }
    const json list = a.value("samples", json::array());
    if (r.outcome.ok() && quiet_) {
      if (a.value("quiet_samples", 0) != samples || static_cast<int>(list.size()) != samples + audit)
        throw WorkerError(WorkerError::Failed, role_ + "'s executor did not time " + bindings_.at(set).first +
                                                   " with the tracer's kernel records off, as the other sides do");
      EventOverhead& overhead = overhead_[set];
      for (int i = samples; i < samples + audit; ++i)
        overhead.add(list[i].value("event_us", -1.0), list[i].value("gpu_us", -1.0));
      const std::optional<double> floor_us = overhead.value();
      if (!floor_us)
        throw WorkerError(WorkerError::Failed, role_ + ": no audit sample of " + bindings_.at(set).first +
                                                   " recorded its kernels, so the events' overhead is unknown");
      for (int i = 0; i < samples; ++i) {
        const double ev = list[i].value("event_us", -1.0);
        r.samples.push_back({ev - *floor_us, ev});
      }
    } else {
      for (const auto& s : list) r.samples.push_back({s.value("gpu_us", -1.0), s.value("event_us", -1.0)});
    }
  } catch (const WorkerError& e) {
    r.outcome = outcome_of(e, where);
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

bool Side::can_time_quietly() const {
  return replay_ && executor_ && executor_->process && executor_->process->hello().value("trace", "") == "cupti";
}

void Side::ask_recorder_to_exit() {
  if (recorder_) recorder_->process->ask_to_exit();
}

void Side::ask_workers_to_exit() {
  ask_recorder_to_exit();
  if (executor_) executor_->process->ask_to_exit();
}

void Side::stop_recorder() {
  if (recorder_) recorder_->process->stop();
  recorder_.reset();
}

}  // namespace arena
