#include "check_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gate_report.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace arena {

namespace {

constexpr size_t kMaxLine = 4096;              // a longer line is cut: the script's lines are short
constexpr size_t kMaxSnapshot = 4 << 20;       // candidate copies above this are not kept
constexpr int kMaxCalls = 10000;               // a flood of lines stops being recorded

std::string read_file(const fs::path& p, size_t limit) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(p, ec)) || fs::file_size(p, ec) > limit) return "";
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fnv1a(const std::string& bytes) {
  unsigned long long h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}

// A self-check result file the runner reads itself (its fields as the result schema names them).
json result_file(const fs::path& p) {
  const std::string text = read_file(p, 64 << 20);
  if (text.empty()) return nullptr;
  json j = json::parse(text, nullptr, false);
  return j.is_object() ? j : json(nullptr);
}

}  // namespace

CheckLog::CheckLog(std::string fifo, std::string workdir, std::string candidate, std::string log_dir)
    : fifo_(std::move(fifo)), workdir_(std::move(workdir)), candidate_(std::move(candidate)),
      log_dir_(std::move(log_dir)), t0_(std::chrono::steady_clock::now()) {
  if (fifo_.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(fifo_).parent_path(), ec);
  fs::remove(fifo_, ec);
  if (mkfifo(fifo_.c_str(), 0666) != 0) {
    std::fprintf(stderr, "arena-run-agent: cannot create the check log pipe %s: %s\n", fifo_.c_str(), std::strerror(errno));
    return;
  }
  // Read-only and non-blocking: open succeeds without a writer, and read returns 0 until one writes.
  fd_ = open(fifo_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // the agent does not inherit it
  std::ofstream(fs::path(log_dir_) / "checks.jsonl", std::ios::trunc);
}

CheckLog::~CheckLog() {
  if (fd_ >= 0) close(fd_);
}

void CheckLog::poll() {
  if (fd_ < 0) return;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        record(pending_);
        pending_.clear();
      } else if (pending_.size() < kMaxLine) {
        pending_ += buf[i];
      }
    }
  }
}

void CheckLog::finish() {
  if (fd_ < 0) return;
  poll();
  if (!pending_.empty()) record(pending_);
  pending_.clear();
  struct stat st {};
  if (lstat(fifo_.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode)) {
    std::ofstream out(fs::path(log_dir_) / "checks.jsonl", std::ios::app);
    out << json{{"note", "the agent removed or replaced the check log pipe: later checks were not recorded"},
                {"received", utc_now()}}.dump()
        << "\n";
  } else {
    std::error_code ec;
    fs::remove(fifo_, ec);
  }
  close(fd_);
  fd_ = -1;
}

void CheckLog::record(const std::string& line) {
  if (line.empty() || calls_ >= kMaxCalls) return;
  ++calls_;
  json e = {{"n", calls_},
            {"received", utc_now()},
            {"elapsed_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count()}};
  // The script's word: which script, its exit status and the stage it reached.
  json said = json::parse(line, nullptr, false);
  if (said.is_object() && said.value("script", json()).is_string() && said.value("exit", json()).is_number_integer() &&
      said.value("stage", json()).is_string()) {
    e["script"] = said["script"];
    e["exit"] = said["exit"];
    e["stage"] = said["stage"];
    const std::string stage = said["stage"].get<std::string>();
    e["compiled"] = stage != "compile";
  } else {
    e["problem"] = "not a line of check.sh or profile.sh";
    e["raw"] = line.substr(0, 200);
  }
  // What the call left: the script copies the candidate and its result files into its own
  // folder under .check/calls/ before it writes the line, so they are read as of that call,
  // then removed. Without such a folder, the workspace's files as they are now.
  fs::path from(workdir_), results = fs::path(workdir_) / ".check";
  std::string candidate_name = candidate_;
  const std::string call = said.is_object() ? said.value("call", "") : "";
  const bool call_ok = call.rfind(".check/calls/", 0) == 0 && call.find("..") == std::string::npos &&
                       call.find('/', 13) == std::string::npos && call.size() > 13;
  if (call_ok && fs::is_directory(fs::symlink_status(fs::path(workdir_) / call))) {
    from = results = fs::path(workdir_) / call;
    candidate_name = fs::path(candidate_).filename().string();
  }
  if (!candidate_.empty()) {
    const std::string bytes = read_file(from / candidate_name, kMaxSnapshot);
    const std::string hash = fnv1a(bytes);
    e["candidate_hash"] = hash;
    e["candidate_bytes"] = bytes.size();
    if (hash != last_hash_ && !bytes.empty()) {
      char name[32];
      std::snprintf(name, sizeof name, "%03d-", calls_);
      const fs::path copy = fs::path("checks") / (name + fs::path(candidate_).filename().string());
      std::error_code ec;
      fs::create_directories(fs::path(log_dir_) / "checks", ec);
      std::ofstream(fs::path(log_dir_) / copy, std::ios::binary) << bytes;
      last_hash_ = hash;
      last_copy_ = copy.generic_string();
    }
    if (!last_copy_.empty()) e["candidate_copy"] = last_copy_;
  }
  if (e.value("script", "") == "check") {
    const json correct = result_file(results / "correct.json");
    if (correct.is_object()) {
      e["correct"] = correct.value("status", "") == "passed";
      if (correct.contains("passed_configs")) e["configs_passed"] = correct["passed_configs"];
      if (correct.contains("total_configs")) e["configs_total"] = correct["total_configs"];
    }
    const json perf = result_file(results / "perf.json");
    if (perf.is_object())
      for (const char* k : {"speedup", "ci95_low", "ci95_high", "verdict"})
        if (perf.contains(k) && (perf[k].is_number() || perf[k].is_string())) e[k] = perf[k];
  }
  std::ofstream out(fs::path(log_dir_) / "checks.jsonl", std::ios::app);
  out << e.dump() << "\n";
  if (results != fs::path(workdir_) / ".check") {
    std::error_code ec;
    fs::remove_all(results, ec);
  }
}

}  // namespace arena
