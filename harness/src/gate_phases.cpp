#include "gate_phases.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace arena {

void GatePhases::add(const std::string& name, double seconds) {
  std::lock_guard<std::mutex> lock(m_);
  seconds_[name] += seconds;
}

double GatePhases::get(const std::string& name) const {
  std::lock_guard<std::mutex> lock(m_);
  auto it = seconds_.find(name);
  return it == seconds_.end() ? 0 : it->second;
}

std::map<std::string, double> GatePhases::all() const {
  std::lock_guard<std::mutex> lock(m_);
  return seconds_;
}

std::string GatePhases::line(const std::vector<std::string>& order) const {
  const auto s = all();
  std::string out = "phases:";
  std::set<std::string> done;
  auto put = [&](const std::string& name, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %.3f s", v);
    out += (done.empty() ? " " : ", ") + name + buf;
    done.insert(name);
  };
  for (const auto& n : order)
    if (auto it = s.find(n); it != s.end()) put(n, it->second);
  for (const auto& [n, v] : s)
    if (!done.count(n)) put(n, v);
  return out;
}

double seconds_since_process_start() {
  // Field 22 of /proc/self/stat: the start time in clock ticks after boot. The command name
  // (field 2) may hold spaces, so fields are counted after its closing parenthesis.
  std::ifstream is("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 1));
  std::string f;
  for (int i = 3; i <= 22 && (fields >> f); ++i) {
  }
  if (!fields) return -1;
  const long ticks = ::sysconf(_SC_CLK_TCK);
  timespec now{};
  if (ticks <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return -1;
  const double started = std::stod(f) / static_cast<double>(ticks);
  return static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9 - started;
}

}  // namespace arena
