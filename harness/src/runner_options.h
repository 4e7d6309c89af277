// Command-line options shared by the runners; anything not recognised is passed on to
// GoogleTest or Google Benchmark.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace arena {

class RunnerOptions {
 public:
  // `known` lists the option names (without "--") this runner accepts, each taking a value.
  RunnerOptions(int argc, char** argv, const std::vector<std::string>& known);
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& dflt = "") const;
  double number(const std::string& name, double dflt) const;  // throws on a malformed number
  std::string require(const std::string& name) const;         // throws naming the option
  // argv for the library underneath: program name plus unrecognised arguments.
  std::vector<char*>& passthrough() { return rest_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<char*> rest_;
};

}  // namespace arena
