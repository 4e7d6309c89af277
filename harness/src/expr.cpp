#include "expr.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <set>

namespace arena {

struct Expr::Node {
  enum Kind { Number, Name, Unary, Binary, Call } kind;
  int64_t value = 0;
  std::string name;  // param name, operator or function name
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodePtr = std::shared_ptr<const Expr::Node>;

NodePtr make(Expr::Node::Kind k, std::string name, std::vector<NodePtr> args = {}, int64_t v = 0) {
  auto n = std::make_shared<Expr::Node>();
  n->kind = k;
  n->name = std::move(name);
  n->args = std::move(args);
  n->value = v;
  return n;
}

// Precedence climbing over C-like binary operators.
class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}

  NodePtr parse_all() {
    NodePtr n = binary(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return n;
  }

 private:
  const std::string& s_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw ExprError("expression \"" + s_ + "\": " + what + " at column " + std::to_string(pos_ + 1));
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool accept(const std::string& tok) {
    skip_space();
    if (s_.compare(pos_, tok.size(), tok) == 0) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }

  static int precedence(const std::string& op) {
    if (op == "||") return 1;
    if (op == "&&") return 2;
    if (op == "==" || op == "!=") return 3;
    if (op == "<" || op == "<=" || op == ">" || op == ">=") return 4;
    if (op == "<<" || op == ">>") return 5;
    if (op == "+" || op == "-") return 6;
    if (op == "*" || op == "/" || op == "%") return 7;
    return -1;
  }

  std::string peek_operator() {
    skip_space();
    static const char* ops[] = {"||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "<", ">",
                                "+",  "-",  "*",  "/",  "%"};
    for (const char* op : ops)
      if (s_.compare(pos_, std::char_traits<char>::length(op), op) == 0) return op;
    return "";
  }

  NodePtr binary(int min_prec) {
    NodePtr lhs = unary();
    for (;;) {
      std::string op = peek_operator();
      int prec = op.empty() ? -1 : precedence(op);
      if (prec < 0 || prec < min_prec) return lhs;
      pos_ += op.size();
      NodePtr rhs = binary(prec + 1);
      lhs = make(Expr::Node::Binary, op, {lhs, rhs});
    }
  }

  NodePtr unary() {
    if (accept("-")) return make(Expr::Node::Unary, "-", {unary()});
    if (accept("!")) return make(Expr::Node::Unary, "!", {unary()});
    if (accept("+")) return unary();
    return primary();
  }

  NodePtr primary() {
    skip_space();
    if (pos_ >= s_.size()) fail("expected a number, a name or '('");
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr n = binary(0);
      if (!accept(")")) fail("expected ')'");
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name_or_call();
    fail("expected a number, a name or '('");
  }

  NodePtr number() {
    size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
      fail("only integer literals are allowed");
    std::string digits = s_.substr(start, pos_ - start);
    errno = 0;
    unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
    if (errno != 0 || v > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max()))
      fail("integer literal too large");
    return make(Expr::Node::Number, "", {}, static_cast<int64_t>(v));
  }

  NodePtr name_or_call() {
    size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    std::string id = s_.substr(start, pos_ - start);
    if (!accept("(")) return make(Expr::Node::Name, id);
    static const std::set<std::string> functions = {"min", "max", "ceil_div"};
    if (!functions.count(id)) fail("unknown function '" + id + "' (known: min, max, ceil_div)");
    std::vector<NodePtr> args{binary(0)};
    while (accept(",")) args.push_back(binary(0));
    if (!accept(")")) fail("expected ')' after arguments of " + id);
    if (args.size() != 2) fail(id + " takes 2 arguments");
    return make(Expr::Node::Call, id, args);
  }
};

void overflow_check(bool overflow, const std::string& text) {
  if (overflow) throw ExprError("expression \"" + text + "\": integer overflow");
}

// The operators that mean the same in integer and real evaluation.
template <typename T>
T logical_or_comparison(const std::string& op, T x, T y) {
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  if (op == ">=") return x >= y;
  if (op == "==") return x == y;
  if (op == "!=") return x != y;
  if (op == "&&") return x && y;
  return x || y;
}

int64_t eval_int(const Expr::Node& n, const Bindings& b, const std::string& text) {
  switch (n.kind) {
    case Expr::Node::Number:
      return n.value;
    case Expr::Node::Name: {
      auto it = b.find(n.name);
      if (it == b.end()) throw ExprError("expression \"" + text + "\": unknown name '" + n.name + "'");
      return it->second;
    }
    case Expr::Node::Unary: {
      int64_t v = eval_int(*n.args[0], b, text);
      return n.name == "-" ? -v : !v;
    }
    case Expr::Node::Call: {
      int64_t x = eval_int(*n.args[0], b, text), y = eval_int(*n.args[1], b, text);
      if (n.name == "min") return std::min(x, y);
      if (n.name == "max") return std::max(x, y);
      if (y <= 0) throw ExprError("expression \"" + text + "\": ceil_div by a non-positive value");
      return x >= 0 ? (x + y - 1) / y : x / y;
    }
    case Expr::Node::Binary:
      break;
  }
  const std::string& op = n.name;
  int64_t x = eval_int(*n.args[0], b, text);
  if (op == "&&" && !x) return 0;  // short-circuit like C
  if (op == "||" && x) return 1;
  int64_t y = eval_int(*n.args[1], b, text), r = 0;
  if (op == "+") return overflow_check(__builtin_add_overflow(x, y, &r), text), r;
  if (op == "-") return overflow_check(__builtin_sub_overflow(x, y, &r), text), r;
  if (op == "*") return overflow_check(__builtin_mul_overflow(x, y, &r), text), r;
  if (op == "/" || op == "%") {
    if (y == 0) throw ExprError("expression \"" + text + "\": division by zero");
    return op == "/" ? x / y : x % y;
  }
  if (op == "<<") {
    if (y < 0 || y > 62) throw ExprError("expression \"" + text + "\": shift out of range");
    overflow_check(x > (std::numeric_limits<int64_t>::max() >> y), text);
    return x << y;
  }
  if (op == ">>") return x >> std::min<int64_t>(std::max<int64_t>(y, 0), 63);
  return logical_or_comparison(op, x, y);
}

double eval_real(const Expr::Node& n, const Bindings& b, const std::string& text) {
  switch (n.kind) {
    case Expr::Node::Number:
      return static_cast<double>(n.value);
    case Expr::Node::Name:
      return static_cast<double>(eval_int(n, b, text));
    case Expr::Node::Unary:
      return n.name == "-" ? -eval_real(*n.args[0], b, text) : !eval_real(*n.args[0], b, text);
    case Expr::Node::Call: {
      double x = eval_real(*n.args[0], b, text), y = eval_real(*n.args[1], b, text);
      if (n.name == "min") return std::min(x, y);
      if (n.name == "max") return std::max(x, y);
      if (y <= 0) throw ExprError("expression \"" + text + "\": ceil_div by a non-positive value");
      return std::ceil(x / y);
    }
    case Expr::Node::Binary:
      break;
  }
  const std::string& op = n.name;
  // Integer semantics where they differ from real arithmetic.
  if (op == "/" || op == "%" || op == "<<" || op == ">>")
    return static_cast<double>(eval_int(n, b, text));
  double x = eval_real(*n.args[0], b, text), y = eval_real(*n.args[1], b, text);
  if (op == "+") return x + y;
  if (op == "-") return x - y;
  if (op == "*") return x * y;
  return logical_or_comparison(op, x, y);
}

void collect_names(const Expr::Node& n, std::set<std::string>& out) {
  if (n.kind == Expr::Node::Name) out.insert(n.name);
  for (const auto& a : n.args) collect_names(*a, out);
}

}  // namespace

Expr Expr::parse(const std::string& text) {
  Expr e;
  e.text_ = text;
  if (text.find_first_not_of(" \t") == std::string::npos) throw ExprError("empty expression");
  e.root_ = Parser(text).parse_all();
  return e;
}

int64_t Expr::eval(const Bindings& b) const { return eval_int(*root_, b, text_); }

double Expr::eval_double(const Bindings& b) const { return eval_real(*root_, b, text_); }

std::vector<std::string> Expr::names() const {
  std::set<std::string> s;
  collect_names(*root_, s);
  return {s.begin(), s.end()};
}

}  // namespace arena
