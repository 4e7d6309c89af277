// The spec loader's reading primitives (task_spec_read.h).
#include "task_spec_read.h"

#include <fstream>
#include <sstream>

namespace arena::spec_read {

json parse_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw SpecError(file.string() + ": cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // Turn the byte offset into line:column, which is what an editor shows.
    size_t line = 1, col = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') line++, col = 1;
      else col++;
    }
    throw SpecError(file.string() + ":" + std::to_string(line) + ":" + std::to_string(col) +
                    ": invalid JSON: " + e.what());
  }
}

Expr parse_expr(const Reader& r, const std::string& field, const json& v,
                const std::set<std::string>& int_params) {
  if (!v.is_string() && !v.is_number_integer()) r.fail_at(field, "must be an expression string or an integer");
  std::string text = v.is_string() ? v.get<std::string>() : std::to_string(v.get<int64_t>());
  try {
    Expr e = Expr::parse(text);
    for (const auto& n : e.names())
      if (!int_params.count(n)) r.fail_at(field, "unknown int param '" + n + "' in \"" + text + "\"");
    return e;
  } catch (const ExprError& e) {
    r.fail_at(field, e.what());
  }
}

std::vector<std::string> string_list(const Reader& r, const std::string& key, bool allow_numbers) {
  std::vector<std::string> out;
  const json& arr = r.array(key);
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string field = r.at(key) + "[" + std::to_string(i) + "]";
    if (arr[i].is_string()) out.push_back(arr[i].get<std::string>());
    else if (allow_numbers && arr[i].is_number()) out.push_back(arr[i].dump());
    else r.fail_at(field, allow_numbers ? "must be a string (an expression of the params) or a number" : "must be a string");
  }
  return out;
}

std::string nonempty(const Reader& r, const std::string& key) {
  std::string v = r.str(key);
  if (v.empty()) r.fail_at(r.at(key), "must not be empty");
  return v;
}

}  // namespace arena::spec_read
