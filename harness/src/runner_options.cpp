#include "runner_options.h"

#include <algorithm>
#include <stdexcept>

namespace arena {

RunnerOptions::RunnerOptions(int argc, char** argv, const std::vector<std::string>& known) {
  rest_.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string name = a.rfind("--", 0) == 0 ? a.substr(2) : "";
    std::string value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    if (name.empty() || std::find(known.begin(), known.end(), name) == known.end()) {
      rest_.push_back(argv[i]);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw std::invalid_argument("option --" + name + " needs a value");
      value = argv[++i];
    }
    values_[name] = value;
  }
  rest_.push_back(nullptr);
  rest_.pop_back();
}

std::string RunnerOptions::get(const std::string& name, const std::string& dflt) const {
  auto it = values_.find(name);
  return it == values_.end() ? dflt : it->second;
}

double RunnerOptions::number(const std::string& name, double dflt) const {
  if (!has(name)) return dflt;
  const std::string v = get(name);
  try {
    size_t used = 0;
    double d = std::stod(v, &used);
    if (used != v.size()) throw std::invalid_argument(v);
    return d;
  } catch (const std::exception&) {
    throw std::invalid_argument("option --" + name + ": '" + v + "' is not a number");
  }
}

std::string RunnerOptions::require(const std::string& name) const {
  if (!has(name)) throw std::invalid_argument("option --" + name + " is required");
  return get(name);
}

}  // namespace arena
