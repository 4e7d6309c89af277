// Arithmetic expressions over named integer params, as used in task.json for tensor shapes,
// cost models and fuzz constraints: "M * N", "ceil_div(N, 32) * 4", "M * N <= 1 << 26".
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace arena {

struct ExprError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Bindings = std::map<std::string, int64_t>;

class Expr {
 public:
  // Parses `text`; throws ExprError naming the position and what was expected.
  static Expr parse(const std::string& text);
  // Integer evaluation (shapes, constraints); throws ExprError on an unknown name,
  // division by zero or overflow.
  int64_t eval(const Bindings& b) const;
  // Floating evaluation (cost models, where products of large sizes exceed int64).
  double eval_double(const Bindings& b) const;
  // Every param name the expression mentions.
  std::vector<std::string> names() const;
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace arena
