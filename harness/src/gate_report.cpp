#include "gate_report.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace arena {

namespace {
std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}
}  // namespace

void print_measurement(const std::string& name, double value) {
  if (!std::isfinite(value)) return;  // CDash cannot chart NaN/inf; the JSON keeps them as null
  std::printf("<CTestMeasurement type=\"numeric/double\" name=\"%s\">%.6g</CTestMeasurement>\n", name.c_str(), value);
}

void print_text_measurement(const std::string& name, const std::string& value) {
  std::printf("<CTestMeasurement type=\"text/string\" name=\"%s\">%s</CTestMeasurement>\n", name.c_str(),
              xml_escape(value).c_str());
}

void write_json_atomic(const std::string& path, const nlohmann::json& j) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::string partial = path + ".partial";
  {
    std::ofstream os(partial);
    os << j.dump(2) << "\n";
    if (!os) throw std::runtime_error("cannot write " + partial);
  }
  fs::rename(partial, path);
}

DeviceFacts device_facts(const arena_device_info& info, int id) {
  DeviceFacts d;
  d.id = id;
  d.name = info.name;
  d.arch = info.arch;
  d.vendor = info.vendor_amd ? "amd" : "nvidia";
  d.sm_count = info.sm_count;
  d.warp_size = info.warp_size;
  d.clock_khz = info.clock_khz;
  d.mem_clock_khz = info.mem_clock_khz;
  d.mem_bus_bits = info.mem_bus_bits;
  d.l2_bytes = info.l2_bytes;
  d.total_mem = static_cast<int64_t>(info.total_mem);
  d.runtime_version = info.runtime_version;
  d.driver_version = info.driver_version;
  d.peak_bytes_per_s = info.peak_bytes_per_s;
  d.peak_fp32_flops = info.peak_fp32_flops;
  return d;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

void skip_gate(const std::string& why, const std::string& result_path, nlohmann::json result) {
  std::printf("SKIPPED: %s\n", why.c_str());
  result[key::status] = Status::Skipped;
  result["skip_reason"] = why;
  if (!result_path.empty()) write_json_atomic(result_path, result);
  std::fflush(stdout);
  std::exit(kSkipExitCode);
}

}  // namespace arena
