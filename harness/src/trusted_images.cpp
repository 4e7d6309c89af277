#include "trusted_images.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace arena {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The builder's environment: how to find Python and its packages, as a confined recorder gets
// it, and no Triton settings (they could change what the compile makes) beyond its own cache.
const char* const kKept[] = {"PATH", "LANG", "LC_ALL", "LC_CTYPE", "LD_LIBRARY_PATH", "PYTHONPATH",
                             "PYTHONHOME", "CUDA_HOME", "CUDA_PATH", "ARENA_PY_TRACEBACK"};

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string tail(const std::string& s, size_t n) { return s.size() <= n ? s : "..." + s.substr(s.size() - n); }

// Runs argv with `env`, stdout and stderr to `log`; returns its exit status, or -1 after
// killing it at the timeout. Throws std::runtime_error when it cannot start.
int run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& log,
                double timeout_s) {
  std::vector<char*> a, e;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  for (const auto& s : env) e.push_back(const_cast<char*>(s.c_str()));
  e.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, a[0], &actions, nullptr, a.data(), e.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

size_t first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return i;
  return n;
}

std::string TrustedImages::build(const std::vector<std::pair<std::string, json>>& builds) {
  const fs::path dir = fs::path(b_.folder) / ("run-" + std::to_string(++runs_));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + dir.string() + ": " + ec.message();
  json list = json::array();
  for (const auto& [key, build] : builds) list.push_back({{"build", build}});
  std::ofstream(dir / "builds.json") << list.dump(1);
  std::vector<std::string> env;
  for (const char* k : kKept)
    if (const char* v = std::getenv(k)) env.push_back(std::string(k) + "=" + v);
  env.push_back("TRITON_CACHE_DIR=" + (fs::path(b_.folder) / "triton-cache").string());
  env.push_back("TMPDIR=" + dir.string());
  env.push_back("HOME=" + b_.folder);
  std::vector<std::string> argv = {b_.python, b_.script, "--source", b_.source, "--builds",
                                   (dir / "builds.json").string(), "--out", dir.string()};
  if (!b_.task_file.empty()) {
    argv.push_back("--task");
    argv.push_back(b_.task_file);
  }
  const std::string log = (dir / "log.txt").string();
  int status = 0;
  try {
    status = run_program(argv, env, log, b_.timeout_s);
  } catch (const std::exception& e) {
    return e.what();
  }
  if (status != 0 || !fs::exists(dir / "result.json"))
    return "the trusted compile (" + b_.script + ") " +
           (status < 0 ? "ran past " + std::to_string(static_cast<int>(b_.timeout_s)) + " s"
                       : "exited with status " + std::to_string(status)) +
           ": " + tail(read_file(log), 1500);
  json results;
  try {
    results = json::parse(read_file(dir / "result.json"));
  } catch (const json::exception& e) {
    return "the trusted compile's result.json does not parse: " + std::string(e.what());
  }
  if (!results.is_array() || results.size() != builds.size())
    return "the trusted compile answered " + std::to_string(results.size()) + " builds for " +
           std::to_string(builds.size());
  for (size_t i = 0; i < builds.size(); ++i) {
    const json& r = results[i];
    const std::string& key = builds[i].first;
    if (r.contains("error")) {
      failed_[key] = r["error"].get<std::string>();
      continue;
    }
    const std::string bytes = read_file(dir / (std::to_string(i) + ".bin"));
    built_[key].assign(bytes.begin(), bytes.end());
    sha256_[key] = r.value("sha256", "");
  }
  return "";
}

std::string TrustedImages::check(const json& recipe, std::vector<std::vector<uint8_t>>& images) {
  if (images.empty()) return "";
  const json builds = recipe.value("builds", json::array());
  if (!builds.is_array() || builds.size() != images.size())
    return "the recorder sent " + std::to_string(images.size()) + " device code image(s) and " +
           std::to_string(builds.is_array() ? builds.size() : 0) +
           " description(s) of how Triton built them: every image must be built again from the checked source";
  // Each image's build, by its canonical JSON; which kernel each image serves.
  std::vector<std::string> keys(images.size());
  std::vector<std::string> names(images.size());
  std::vector<json> parsed(images.size());
  for (size_t i = 0; i < images.size(); ++i) {
    try {
      parsed[i] = builds[i].is_string() ? json::parse(builds[i].get<std::string>()) : json();
    } catch (const json::exception&) {
    }
    if (!parsed[i].is_object() || !parsed[i].contains("kernel") || !parsed[i]["kernel"].is_string())
      return "device code image " + std::to_string(i) + ": the recorder did not say how Triton built it";
    names[i] = parsed[i]["kernel"].get<std::string>();
    if (parsed[i].contains("error"))
      return "kernel " + names[i] + ": its build cannot be described for the trusted compile: " +
             parsed[i]["error"].dump();
    json key = parsed[i];
    key.erase("other_options");  // what the recorder's compile used beyond the launch's options
    keys[i] = key.dump();
  }
  if (recipe.contains("steps") && recipe["steps"].is_array())
    for (const auto& s : recipe["steps"]) {
      const int image = s.value("image", -1);
      if (s.value("kind", "") != "kernel" || image < 0 || image >= static_cast<int>(images.size())) continue;
      const std::string ran = s.value("name", "");
      if (ran != names[image])
        return "the launch ran kernel " + ran + " from a device code image built, the recorder says, for kernel " +
               names[image];
    }
  std::vector<std::pair<std::string, json>> missing;
  for (size_t i = 0; i < images.size(); ++i)
    if (!built_.count(keys[i]) && !failed_.count(keys[i])) {
      bool listed = false;
      for (const auto& m : missing) listed = listed || m.first == keys[i];
      if (!listed) missing.emplace_back(keys[i], json::parse(keys[i]));
    }
  if (!missing.empty()) {
    const std::string why = build(missing);
    if (!why.empty()) return why;
  }
  for (size_t i = 0; i < images.size(); ++i) {
    auto failed = failed_.find(keys[i]);
    if (failed != failed_.end())
      return "kernel " + names[i] + ": the trusted compile of " + names[i] + " from " +
             parsed[i].value("file", b_.source) + " failed: " + failed->second;
    const std::vector<uint8_t>& trusted = built_.at(keys[i]);
    if (images[i] != trusted) {
      std::string why = "kernel " + names[i] + ": the device code the recorder sent (" +
                        std::to_string(images[i].size()) + " bytes) is not what the trusted compile of " + names[i] +
                        " from " + parsed[i].value("file", b_.source) + " built (" + std::to_string(trusted.size()) +
                        " bytes, sha256 " + sha256_[keys[i]] + "; first difference at byte " +
                        std::to_string(first_difference(images[i], trusted)) +
                        "): device code that Triton did not build from the checked source";
      if (parsed[i].contains("other_options") && !parsed[i]["other_options"].empty())
        why += " (its compile also used " + parsed[i]["other_options"].dump() + ")";
      return why;
    }
    images[i] = trusted;
  }
  return "";
}

}  // namespace arena
