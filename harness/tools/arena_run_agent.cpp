// arena-run-agent: runs one agent command in its own process group with a deadline, keeps
// its output, and leaves nothing behind: on timeout, and after the agent exits, every
// process still in its group is terminated (SIGTERM, then SIGKILL). With --candidate it
// then takes only that file of the workdir (into --take-to) and lists every other change
// the agent made (added, modified, deleted files; the self-check's .check/ aside). With
// --check-log it keeps the log of every check.sh / profile.sh call (check_log.h).
//
//   arena-run-agent --timeout-s N --log-dir DIR --workdir DIR --result FILE
//                   [--env NAME=VALUE ...] [--candidate FILE --take-to DIR]
//                   [--record agent|model|task=VALUE ...] [--sandboxed] [--check-log FIFO]
//                   -- command args...
//
// The result (written atomically) is an AgentResult of the result schema
// (harness/common/result_schema.h): the run (agent_status, seconds, exit code or signal,
// timed_out, killed_leftover_processes), the recorded agent, model and task, sandboxed, and
// with --candidate: candidate_taken, candidate_changed and ignored_changes.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "check_log.h"
#include "gate_report.h"
#include "result_schema.h"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "arena-run-agent: %s\nusage: arena-run-agent --timeout-s N --log-dir DIR --workdir DIR "
                       "--result FILE [--env NAME=VALUE ...] [--candidate FILE --take-to DIR] [--record agent|model|task=VALUE ...] "
                       "[--sandboxed] [--check-log FIFO] -- command args...\n", why);
  std::exit(2);
}

bool group_alive(pid_t pgid) { return kill(-pgid, 0) == 0 || errno == EPERM; }

// SIGTERM to the whole group, a grace period, then SIGKILL; returns true if anything was left.
bool terminate_group(pid_t pgid, double grace_s) {
  if (!group_alive(pgid)) return false;
  kill(-pgid, SIGTERM);
  auto t0 = Clock::now();
  while (group_alive(pgid) && std::chrono::duration<double>(Clock::now() - t0).count() < grace_s) {
    while (waitpid(-pgid, nullptr, WNOHANG) > 0) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (group_alive(pgid)) kill(-pgid, SIGKILL);
  return true;
}

// Every file under `dir` (relative path -> contents), the self-check's own .check/ outputs aside.
std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    std::string rel = fs::relative(it->path(), dir, ec).generic_string();
    if (rel.rfind(".check/", 0) == 0) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    files[rel] = bytes.str();
  }
  return files;
}

// "added X", "modified X", "deleted X" for every difference between two snapshots.
std::vector<std::string> changes(const std::map<std::string, std::string>& before,
                                 const std::map<std::string, std::string>& after) {
  std::vector<std::string> out;
  for (const auto& [name, bytes] : after) {
    auto was = before.find(name);
    if (was == before.end()) out.push_back("added " + name);
    else if (was->second != bytes) out.push_back("modified " + name);
  }
  for (const auto& [name, bytes] : before)
    if (!after.count(name)) out.push_back("deleted " + name);
  return out;
}

// The command line: the options, and where the agent's command starts in argv.
struct Options {
  double timeout_s = -1;
  std::string log_dir, workdir, result_path, candidate, take_to, check_fifo;
  std::vector<std::string> env, records;
  bool sandboxed = false;
  int cmd_at = -1;
};

// --record takes agent=, model= or task=.
void check_record(const std::string& r) {
  const std::string key = r.substr(0, r.find('='));
  if (r.find('=') == std::string::npos) usage(("--record " + r + ": not KEY=VALUE").c_str());
  if (key != "agent" && key != "model" && key != "task") usage(("--record " + key + ": records agent, model or task").c_str());
}

Options parse_options(int argc, char** argv) {
  Options o;
  // Options that take a value: where it goes (--env and --record may be given again).
  const std::map<std::string, std::string*> single = {{"--log-dir", &o.log_dir},     {"--workdir", &o.workdir},
                                                      {"--result", &o.result_path},  {"--candidate", &o.candidate},
                                                      {"--take-to", &o.take_to},   {"--check-log", &o.check_fifo}};
  const std::map<std::string, std::vector<std::string>*> repeated = {{"--env", &o.env}, {"--record", &o.records}};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value for " + a).c_str());
      return argv[++i];
    };
    if (a == "--") {
      o.cmd_at = i + 1;
      break;
    } else if (a == "--timeout-s") {
      o.timeout_s = std::atof(value().c_str());
    } else if (a == "--sandboxed") {
      o.sandboxed = true;
    } else if (single.count(a)) {
      *single.at(a) = value();
    } else if (repeated.count(a)) {
      repeated.at(a)->push_back(value());
      if (a == "--record") check_record(o.records.back());
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  if (o.cmd_at < 0 || o.cmd_at >= argc) usage("no command after --");
  if (o.timeout_s <= 0 || o.log_dir.empty() || o.workdir.empty() || o.result_path.empty())
    usage("missing a required option");
  if (o.candidate.empty() != o.take_to.empty()) usage("--candidate and --take-to go together");
  return o;
}

// Forks the agent's command into a process group of its own, in the workdir, with its output
// in the log folder and no terminal; returns its pid (= its group).
pid_t start_agent(const Options& o, char** argv) {
  pid_t pid = fork();
  if (pid < 0) usage("fork failed");
  if (pid == 0) {
    setpgid(0, 0);  // a group of its own: every descendant can be found and ended
    int out = open((o.log_dir + "/stdout.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open((o.log_dir + "/stderr.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int in = open("/dev/null", O_RDONLY);  // agents must not wait for a terminal
    if (out < 0 || err < 0 || in < 0 || chdir(o.workdir.c_str()) != 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    for (const auto& e : o.env) putenv(strdup(e.c_str()));
    execvp(argv[o.cmd_at], argv + o.cmd_at);
    std::fprintf(stderr, "arena-run-agent: cannot run %s: %s\n", argv[o.cmd_at], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also here, so the group exists before we might signal it
  return pid;
}

// How the agent's process ended.
struct AgentEnd {
  int status = 0;
  bool timed_out = false;
  bool leftovers = false;  // processes of its group were still running and were killed
};

// Waits for the agent (reading its self-check log meanwhile) until it exits or the deadline
// passes, then ends its whole group.
AgentEnd wait_for_agent(pid_t pid, double timeout_s, Clock::time_point t0, arena::CheckLog& checks) {
  AgentEnd end;
  for (;;) {
    pid_t w = waitpid(pid, &end.status, WNOHANG);
    checks.poll();
    if (w == pid) break;
    if (std::chrono::duration<double>(Clock::now() - t0).count() > timeout_s) {
      end.timed_out = true;
      terminate_group(pid, 5.0);
      waitpid(pid, &end.status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  // Whatever the agent started and left running (servers, watchers, sleeping children) ends too.
  end.leftovers = terminate_group(pid, 2.0);
  return end;
}

// The run's outcome and the recorded agent, model and task, into the result; says how it ended.
void record_end(const Options& o, const AgentEnd& end, arena::AgentResult& r) {
  const int status = end.status;
  r.timed_out = end.timed_out;
  r.killed_leftover_processes = end.leftovers;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.agent_status = end.timed_out ? "timed_out" : (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "finished" : "failed");
  r.sandboxed = o.sandboxed;
  for (const auto& kv : o.records) {
    const std::string key = kv.substr(0, kv.find('=')), v = kv.substr(kv.find('=') + 1);
    (key == "agent" ? r.agent : key == "model" ? r.model : r.header.task) = v;
  }
  std::printf("agent %s after %.1f s%s%s\n", r.agent_status.c_str(), r.seconds,
              WIFEXITED(status) ? (" (exit " + std::to_string(WEXITSTATUS(status)) + ")").c_str() : "",
              end.leftovers ? "; leftover processes were killed" : "");
}

// Only the declared candidate file is taken; every other change is listed and ignored.
void take_candidate(const Options& o, const std::map<std::string, std::string>& before, arena::AgentResult& r) {
  namespace fs = std::filesystem;
  std::vector<std::string> ignored;
  bool changed = false;
  for (const auto& c : changes(before, snapshot(o.workdir))) {
    if (c == "modified " + o.candidate) changed = true;
    else ignored.push_back(c);
  }
  std::error_code ec;
  fs::create_directories(o.take_to);
  // A link is not taken: it could point the unconfined driver at files the agent may not read.
  const bool taken = fs::is_regular_file(fs::symlink_status(fs::path(o.workdir) / o.candidate, ec)) &&
                     fs::copy_file(fs::path(o.workdir) / o.candidate, fs::path(o.take_to) / o.candidate,
                                   fs::copy_options::overwrite_existing, ec);
  r.candidate_taken = taken;
  r.candidate_changed = changed;
  r.ignored_changes = ignored;
  std::printf("candidate changed: %s\n", changed ? "true" : "false");
  for (const auto& c : ignored) std::printf("  ignored change (only %s is taken): %s\n", o.candidate.c_str(), c.c_str());
  if (!taken) std::printf("  the agent left no %s: the compile gate will fail\n", o.candidate.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  std::filesystem::create_directories(o.log_dir);
  const auto before = o.candidate.empty() ? std::map<std::string, std::string>{} : snapshot(o.workdir);
  arena::CheckLog checks(o.check_fifo, o.workdir, o.candidate, o.log_dir);

  arena::AgentResult r;
  r.header.gate = "agent";
  r.header.started = arena::utc_now();
  r.command.assign(argv + o.cmd_at, argv + argc);
  r.timeout_s = o.timeout_s;
  auto t0 = Clock::now();
  const pid_t pid = start_agent(o, argv);
  const AgentEnd end = wait_for_agent(pid, o.timeout_s, t0, checks);
  checks.finish();
  if (!o.check_fifo.empty())
    std::printf("self-checks recorded: %d (%s/checks.jsonl)\n", checks.calls(), o.log_dir.c_str());

  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  record_end(o, end, r);
  if (!o.candidate.empty()) take_candidate(o, before, r);
  // The step itself worked whatever the agent did: the gates judge what it left.
  r.header.status = arena::Status::Passed;
  r.header.finished = arena::utc_now();
  arena::write_json_atomic(o.result_path, r);
  return 0;
}
