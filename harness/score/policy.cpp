#include "policy.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "format.h"

using json = nlohmann::json;

namespace arena::score {

std::set<std::string> parse_fail_on(const std::string& text) {
  static const std::set<std::string> known = {"SLOWER", "INCORRECT", "UNJUDGED", "NOT_FASTER"};
  std::set<std::string> out;
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    if (!known.count(word))
      throw std::invalid_argument("--fail-on: unknown condition '" + word + "' (SLOWER, INCORRECT, UNJUDGED, NOT_FASTER)");
    out.insert(word);
    word.clear();
  };
  for (char c : text) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) flush();
    else word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  flush();
  if (out.empty()) throw std::invalid_argument("--fail-on wants SLOWER, INCORRECT, UNJUDGED or NOT_FASTER");
  return out;
}

std::vector<std::string> policy_violations(const json& scores, const std::set<std::string>& fail_on) {
  std::vector<std::string> out;
  for (const auto& t : scores["tasks"]) {
    const std::string id = t.value("id", "");
    const std::string verdict = t["verdict"].is_string() ? t["verdict"].get<std::string>() : "";
    const bool judged = t.value("judged", true), correct = t.value("correct", false);
    if (fail_on.count("SLOWER") && verdict == "SLOWER")
      out.push_back("SLOWER: " + id + " (speedup " + fmt_speedup(t) + ")");
    if (fail_on.count("INCORRECT") && judged && !correct) {
      std::string why = t["errors"].empty() ? "not correct" : t["errors"][0].get<std::string>();
      out.push_back("INCORRECT: " + id + " (" + why + ")");
    }
    if (fail_on.count("UNJUDGED") && !judged) out.push_back("UNJUDGED: " + id + " (" + t.value("unjudged_reason", "") + ")");
    if (fail_on.count("NOT_FASTER") && correct && verdict != "FASTER")
      out.push_back("NOT_FASTER: " + id + " (" + (verdict.empty() ? std::string("no verdict") : verdict) + ", speedup " +
                    fmt_speedup(t) + ")");
  }
  return out;
}

}  // namespace arena::score
