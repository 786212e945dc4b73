// The parser's class, shared by its two halves: parser.cpp (statements: the blocks, set, for,
// macro) and parser_expr.cpp (expressions, one function per precedence level as in Jinja2's own
// grammar). Internal to chat/; parser.h is the entry point.
#pragma once
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "chat/parser.h"

namespace ts::chat {

class Parser {
 public:
  Parser(const std::vector<Token>& toks, const ParseLimits& lim) : t_(toks), lim_(lim) {}

  TemplateAst run();

 private:
  // ---- token helpers ----
  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool is_op(const char* op) const { return cur().type == Tok::Op && cur().text == op; }
  bool is_name(const char* n) const { return cur().type == Tok::Name && cur().text == n; }
  void next();
  void expect_op(const char* op);
  std::string expect_name();
  static std::string describe(const Token& tk);

  struct Depth {  // nesting guard
    explicit Depth(Parser& p) : p_(p) {
      if (++p_.depth_ > p_.lim_.max_depth) {
        fail("the template nests deeper than " + std::to_string(p_.lim_.max_depth) + " levels",
             p_.cur().line);
      }
    }
    ~Depth() { --p_.depth_; }
    Parser& p_;
  };

  static ExprPtr node(ExprKind k, int line);

  // ---- statements ----
  // Parses until a block tag whose name is in `ends` (returned in `end`, positioned after the
  // name) or the end of the template (only allowed when `ends` is empty).
  Body body(const std::set<std::string>& ends, std::string& end);

  void block_end();

  std::unique_ptr<Stmt> statement();

  // Jinja2 checks filter and test names when it compiles, except directly inside an `if` (its
  // condition and bodies) or an `x if c else y`: there an unknown name fails only when reached.
  struct Soft {
    Soft(Parser& p, bool on) : p_(p), saved_(p.soft_) { p_.soft_ = on; }
    ~Soft() { p_.soft_ = saved_; }
    Parser& p_;
    bool saved_;
  };

  std::unique_ptr<Stmt> if_stmt(std::unique_ptr<Stmt> s);

  std::vector<std::string> target_names();

  std::unique_ptr<Stmt> for_stmt(std::unique_ptr<Stmt> s);

  std::unique_ptr<Stmt> set_stmt(std::unique_ptr<Stmt> s);

  std::unique_ptr<Stmt> macro_stmt(std::unique_ptr<Stmt> s);

  // ---- expressions ----
  // `a, b` without brackets makes a tuple where Jinja2 allows it (for/set right-hand sides).
  ExprPtr tuple_or_expr(bool with_condexpr);

  ExprPtr expression(bool with_condexpr = true);

  ExprPtr binary(ExprPtr l, const std::string& op, ExprPtr r, int line);

  ExprPtr or_expr();

  ExprPtr and_expr();

  ExprPtr not_expr();

  ExprPtr compare();

  ExprPtr math1();

  ExprPtr concat();

  ExprPtr math2();

  ExprPtr power();

  ExprPtr unary(bool with_filter);

  ExprPtr literal(Value v, int line);

  ExprPtr primary();

  ExprPtr parenthesised();

  ExprPtr list_literal();

  ExprPtr dict_literal();

  ExprPtr postfix(ExprPtr e);

  ExprPtr filters_and_tests(ExprPtr e);

  ExprPtr subscript(ExprPtr obj);

  // Arguments in ( ... ): positional, then name=value. `*args` / `**kwargs` are refused.
  void call_args(Expr& e);

  ExprPtr call(ExprPtr callee);

  ExprPtr filter(ExprPtr subject);

  ExprPtr test(ExprPtr subject);

  // Known: fine. Jinja2's but not implemented: refused. Unknown: the node fails when evaluated,
  // and the template fails to compile unless the name stands in a soft context.
  void check_filter_name(const std::string& n, int line);
  void check_test_name(const std::string& n, int line);

  const std::vector<Token>& t_;
  ParseLimits lim_;
  size_t p_ = 0;
  int depth_ = 0;
  int loop_depth_ = 0;
  bool soft_ = false;
  std::vector<std::pair<std::string, int>> hard_unknowns_;  // (message, line)
};

}  // namespace ts::chat
