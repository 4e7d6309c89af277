#include "failure_lines.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace arena::score {

std::string one_line(const std::string& text, size_t width) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > width) {
    size_t cut = out.rfind(' ', width);
    if (cut == std::string::npos || cut == 0) cut = width;
    out = out.substr(0, cut) + " [... " + std::to_string(out.size() - cut) + " more characters]";
  }
  return out;
}

namespace {
// The output's lines, with a CMake message's body (the indented lines CMake wraps it into after
// "CMake Error at ...:") joined back into one line, so that it is read whole.
std::vector<std::string> logical_lines(const std::string& output) {
  static const std::regex cmake_header("^CMake (Error|Warning|Deprecation Warning).*:$");
  std::vector<std::string> lines;
  std::istringstream in(output);
  std::string line;
  bool in_message = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (in_message && line.rfind("  ", 0) == 0 && !lines.empty()) {
      lines.back() += " " + line;
      continue;
    }
    in_message = std::regex_search(line, cmake_header);
    lines.push_back(line);
    if (in_message) lines.push_back("");  // the body, filled by the indented lines that follow
  }
  return lines;
}
}  // namespace

std::vector<std::string> failure_lines(const std::string& output, size_t max, size_t width) {
  static const std::regex looks_failed(
      "error|FAILED|Failure|failed|mismatch|wrong|violat|exceed|out of bounds|abort|terminate|not credible",
      std::regex::icase);
  static const std::regex boilerplate(
      "^(CMake Error at |Call Stack|\\s*$|SKIPPED:|CTEST_FULL_OUTPUT)|\\(the reason is the first line of this");
  std::vector<std::string> all, hits;
  for (const std::string& line : logical_lines(output)) {
    std::string l = one_line(line, width);
    if (l.empty()) continue;
    all.push_back(l);
    if (hits.size() < max && std::regex_search(l, looks_failed) && !std::regex_search(l, boilerplate) &&
        std::find(hits.begin(), hits.end(), l) == hits.end())
      hits.push_back(l);
  }
  if (!hits.empty()) return hits;
  std::vector<std::string> tail;
  for (size_t i = all.size() > max ? all.size() - max : 0; i < all.size(); ++i)
    if (!std::regex_search(all[i], boilerplate)) tail.push_back(all[i]);
  return tail;
}

}  // namespace arena::score
