// The tree-walking interpreter: scopes, limits, expression evaluation (eval.cpp) and statement
// execution (exec.cpp). Scoping follows Jinja2: `if` opens no scope, each iteration of a `for`
// starts a fresh scope inside the enclosing one (so a `set` in a loop stays in that iteration;
// namespace() carries values out), a macro runs in a scope inside the one it was defined in.
// Every loop iteration, expression and output byte counts against the limits, so a hostile
// template stops with a message instead of running away.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "chat/ast.h"
#include "chat/value.h"

namespace ts::chat {

struct RenderLimits {
  int64_t max_steps = 20'000'000;       // expressions evaluated + loop iterations
  size_t max_output_bytes = 16u << 20;  // the rendered text, and any one string or list built
  int max_call_depth = 64;              // nested macro calls
};

struct Scope {
  std::vector<std::pair<std::string, Value>> vars;
  std::shared_ptr<Scope> parent;
  const Value* find(const std::string& name) const;
  void set(const std::string& name, Value v);
};

class Interp {
 public:
  Interp(const RenderLimits& limits, std::shared_ptr<Scope> globals);

  // Renders `body` into `out` (appending).
  void render(const Body& body, std::string& out);

  Value eval(const Expr& e);
  Value lookup(const std::string& name) const;
  // Counts one step; fails once the step budget is spent.
  void step(int line);
  // Fails when `bytes` exceeds the size limit for one value or the output.
  void check_size(size_t bytes, int line) const;
  const RenderLimits& limits() const { return limits_; }

  // Calls a callable value (a builtin, a bound method or a macro).
  Value call(const Value& fn, CallArgs& args, int line);

 private:
  enum class Flow { Normal, Break, Continue };
  Flow exec_body(const Body& body);
  Flow exec(const Stmt& s);
  Flow exec_for(const Stmt& s);
  void exec_set(const Stmt& s);
  void define_macro(const Stmt& s);
  void emit(const std::string& text, int line);

  Value eval_attr(const Expr& e);
  Value eval_item(const Expr& e);
  Value eval_slice(const Expr& e);
  Value eval_call(const Expr& e);
  Value eval_filter(const Expr& e);
  Value eval_test(const Expr& e);
  Value eval_binary(const Expr& e);
  Value eval_compare(const Expr& e);
  Value eval_unary(const Expr& e);
  Value eval_literal_container(const Expr& e);
  void eval_args(const Expr& e, size_t first, CallArgs& out);

  RenderLimits limits_;
  std::shared_ptr<Scope> scope_;
  std::string* out_ = nullptr;
  int64_t steps_ = 0;
  int call_depth_ = 0;
};

// Items of an iterable value (list, tuple, dict keys, string characters, views); undefined
// iterates as nothing. Fails for numbers, none and the like, and for a generator used twice.
std::vector<Value> iterate(const Value& v, int line);

}  // namespace ts::chat
