// score_json_check: asserts values in a JSON file (scores.json, compare.json) for the
// end-to-end tests in check_case.sh.
//
//   score_json_check <file.json> <check>...
//     PATH=VALUE   number (equal within half a unit of the last digit written), true, false,
//                  null, or a string
//     PATH~REGEX   the string value matches (std::regex search)
//     PATH#N       the array or object has N elements
//   PATH: keys separated by ':'; a segment "[N]" indexes an array; "[ID]" on an array of
//   objects picks the element whose "id" or "test" is ID.
//   e.g.  overall:fast_p:1.0=0.8   tasks:[hip2hip/f_slower]:aka_score=200   conflicts#1
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

const json* find(const json& root, const std::string& path, std::string* why) {
  const json* cur = &root;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    // a [...] segment may hold ':' -- find the closing bracket first
    if (start < path.size() && path[start] == '[') {
      size_t close = path.find(']', start);
      end = close == std::string::npos ? std::string::npos : path.find(':', close);
    }
    std::string seg = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (seg.size() >= 2 && seg.front() == '[' && seg.back() == ']') {
      std::string key = seg.substr(1, seg.size() - 2);
      if (!cur->is_array()) return *why = "not an array at " + seg, nullptr;
      const json* hit = nullptr;
      char* num_end = nullptr;
      long idx = std::strtol(key.c_str(), &num_end, 10);
      if (!key.empty() && *num_end == 0) {
        if (idx >= 0 && static_cast<size_t>(idx) < cur->size()) hit = &(*cur)[idx];
      } else {
        for (const auto& e : *cur)
          if (e.is_object() && (e.value("id", "") == key || e.value("test", "") == key)) hit = &e;
      }
      if (!hit) return *why = "no element " + seg, nullptr;
      cur = hit;
    } else {
      if (!cur->is_object() || !cur->contains(seg)) return *why = "no key '" + seg + "'", nullptr;
      cur = &(*cur)[seg];
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return cur;
}

bool check_value(const json& got, const std::string& want, std::string* why) {
  if (want == "null") return got.is_null() || (*why = "not null", false);
  if (want == "true" || want == "false")
    return (got.is_boolean() && got.get<bool>() == (want == "true")) || (*why = "not " + want, false);
  char* end = nullptr;
  double w = std::strtod(want.c_str(), &end);
  if (!want.empty() && *end == 0) {
    if (!got.is_number()) return *why = "not a number", false;
    size_t dot = want.find('.');
    int decimals = dot == std::string::npos ? 0 : static_cast<int>(want.size() - dot - 1);
    double tol = 0.5 * std::pow(10.0, -decimals) + 1e-12;
    return std::fabs(got.get<double>() - w) <= tol || (*why = "differs", false);
  }
  return (got.is_string() && got.get<std::string>() == want) || (*why = "differs", false);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: score_json_check <file.json> <PATH=VALUE | PATH~REGEX | PATH#N>...\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  json root = json::parse(in, nullptr, false);
  if (root.is_discarded()) {
    std::fprintf(stderr, "score_json_check: %s is not readable JSON\n", argv[1]);
    return 1;
  }
  int failed = 0;
  for (int i = 2; i < argc; ++i) {
    std::string c = argv[i];
    size_t op = std::string::npos;  // the first = ~ # outside [...]
    for (size_t k = 0, depth = 0; k < c.size() && op == std::string::npos; ++k) {
      if (c[k] == '[') depth++;
      else if (c[k] == ']' && depth) depth--;
      else if (depth == 0 && (c[k] == '=' || c[k] == '~' || c[k] == '#')) op = k;
    }
    if (op == std::string::npos) {
      std::fprintf(stderr, "bad check '%s'\n", c.c_str());
      return 2;
    }
    std::string path = c.substr(0, op), want = c.substr(op + 1), why;
    const json* got = find(root, path, &why);
    bool ok = got != nullptr;
    if (ok && c[op] == '=') ok = check_value(*got, want, &why);
    if (ok && c[op] == '~')
      ok = (got->is_string() && std::regex_search(got->get<std::string>(), std::regex(want))) ||
           (why = "does not match", false);
    if (ok && c[op] == '#')
      ok = ((got->is_array() || got->is_object()) && got->size() == std::stoul(want)) ||
           (why = "has " + std::to_string(got->size()) + " elements", false);
    std::printf("%s %s%s\n", ok ? "ok    " : "FAILED", c.c_str(),
                ok ? "" : ("  (" + why + (got ? "; got " + got->dump() : "") + ")").c_str());
    failed += !ok;
  }
  return failed ? 1 : 0;
}
