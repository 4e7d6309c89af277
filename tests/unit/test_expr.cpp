#include <gtest/gtest.h>

#include <cmath>

#include "expr.h"

using arena::Expr;
using arena::ExprError;

TEST(Expr, ArithmeticFollowsCPrecedence) {
  arena::Bindings b{{"M", 7}, {"N", 3}};
  EXPECT_EQ(Expr::parse("M * N + 2").eval(b), 23);
  EXPECT_EQ(Expr::parse("2 + M * N").eval(b), 23);
  EXPECT_EQ(Expr::parse("(2 + M) * N").eval(b), 27);
  EXPECT_EQ(Expr::parse("M / N").eval(b), 2);
  EXPECT_EQ(Expr::parse("M % N").eval(b), 1);
  EXPECT_EQ(Expr::parse("-M + 10").eval(b), 3);
  EXPECT_EQ(Expr::parse("1 << 26").eval(b), 67108864);
  EXPECT_EQ(Expr::parse("M - N - 1").eval(b), 3);  // left associative
}

TEST(Expr, FunctionsAndComparisons) {
  arena::Bindings b{{"N", 1000}};
  EXPECT_EQ(Expr::parse("ceil_div(N, 256)").eval(b), 4);
  EXPECT_EQ(Expr::parse("min(N, 64) + max(N, 64)").eval(b), 1064);
  EXPECT_EQ(Expr::parse("N <= 1000 && N > 999").eval(b), 1);
  EXPECT_EQ(Expr::parse("N == 1 || !(N != 1000)").eval(b), 1);
  EXPECT_EQ(Expr::parse("N < 10").eval(b), 0);
}

TEST(Expr, DoubleEvaluationAvoidsOverflow) {
  arena::Bindings b{{"M", 1 << 22}, {"N", 1 << 22}, {"K", 1 << 22}};
  Expr e = Expr::parse("2 * M * N * K");
  EXPECT_THROW(e.eval(b), ExprError);
  EXPECT_DOUBLE_EQ(e.eval_double(b), std::ldexp(1.0, 67));
  EXPECT_DOUBLE_EQ(Expr::parse("ceil_div(M, 3)").eval_double(b), 1398102.0);
  EXPECT_DOUBLE_EQ(Expr::parse("M / 3").eval_double(b), 1398101.0);  // integer division kept
}

TEST(Expr, NamesAreReported) {
  auto names = Expr::parse("M * ceil_div(N, K) + M").names();
  EXPECT_EQ(names, (std::vector<std::string>{"K", "M", "N"}));
}

TEST(Expr, ErrorsSayWhatAndWhere) {
  auto message = [](const std::string& text, const arena::Bindings& b = {}) -> std::string {
    try {
      Expr::parse(text).eval(b);
    } catch (const ExprError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message("M *").find("expected a number"), std::string::npos);
  EXPECT_NE(message("(M + 1").find("expected ')'"), std::string::npos);
  EXPECT_NE(message("M $ 2").find("column 3"), std::string::npos);
  EXPECT_NE(message("1.5 * M").find("only integer"), std::string::npos);
  EXPECT_NE(message("sqrt(M)").find("unknown function 'sqrt'"), std::string::npos);
  EXPECT_NE(message("min(M)").find("takes 2 arguments"), std::string::npos);
  EXPECT_NE(message("M / 0", {{"M", 1}}).find("division by zero"), std::string::npos);
  EXPECT_NE(message("Q + 1").find("unknown name 'Q'"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  EXPECT_NE(message("99999999999999999999").find("too large"), std::string::npos);
}
