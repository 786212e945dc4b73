// Expression evaluation: one case per node kind (ast.h). Python's rules throughout: `and`/`or`
// give one of their operands, comparisons chain, undefined values print as nothing but fail when
// used in arithmetic, as an object or as a function.
#include <utility>

#include "chat/builtins.h"
#include "chat/interp.h"

namespace ts::chat {

const Value* Scope::find(const std::string& name) const {
  for (const Scope* s = this; s; s = s->parent.get()) {
    for (const auto& kv : s->vars)
      if (kv.first == name) return &kv.second;
  }
  return nullptr;
}

void Scope::set(const std::string& name, Value v) {
  for (auto& kv : vars) {
    if (kv.first == name) {
      kv.second = std::move(v);
      return;
    }
  }
  vars.emplace_back(name, std::move(v));
}

Interp::Interp(const RenderLimits& limits, std::shared_ptr<Scope> globals)
    : limits_(limits), scope_(std::move(globals)) {}

void Interp::step(int line) {
  if (++steps_ > limits_.max_steps) {
    fail("the template runs too long (more than " + std::to_string(limits_.max_steps) + " steps)",
         line);
  }
}

void Interp::check_size(size_t bytes, int line) const {
  if (bytes > limits_.max_output_bytes) {
    fail("the template builds more than " + std::to_string(limits_.max_output_bytes) + " bytes",
         line);
  }
}

Value Interp::lookup(const std::string& name) const {
  const Value* v = scope_->find(name);
  return v ? *v : Value::undefined(name);
}

Value Interp::eval(const Expr& e) {
  step(e.line);
  switch (e.kind) {
    case ExprKind::Literal:
      return e.literal;
    case ExprKind::Name:
      return lookup(e.name);
    case ExprKind::List:
    case ExprKind::Tuple:
    case ExprKind::Dict:
      return eval_literal_container(e);
    case ExprKind::Attr:
      return eval_attr(e);
    case ExprKind::Item:
      return eval_item(e);
    case ExprKind::Slice:
      return eval_slice(e);
    case ExprKind::Call:
      return eval_call(e);
    case ExprKind::Filter:
      return eval_filter(e);
    case ExprKind::Test:
      return eval_test(e);
    case ExprKind::Unary:
      return eval_unary(e);
    case ExprKind::Binary:
      return eval_binary(e);
    case ExprKind::Compare:
      return eval_compare(e);
    case ExprKind::Concat: {
      std::string s;
      for (const auto& a : e.args) {
        s += py_str(eval(*a));
        check_size(s.size(), e.line);
      }
      return Value::string(std::move(s));
    }
    case ExprKind::Cond:
      if (truthy(eval(*e.args[1]))) return eval(*e.args[0]);
      return e.args[2] ? eval(*e.args[2]) : Value::undefined("(if without else)");
  }
  return Value::undefined();
}

Value Interp::eval_literal_container(const Expr& e) {
  if (e.kind == ExprKind::Dict) {
    Value d = Value::new_dict();
    for (size_t k = 0; k + 1 < e.args.size(); k += 2) {
      Value key = eval(*e.args[k]);
      if (!key.is_string()) fail_unsupported("dict keys that are not strings", e.line);
      d.dict->set(key.s, eval(*e.args[k + 1]));
    }
    return d;
  }
  std::vector<Value> items;
  for (const auto& a : e.args) items.push_back(eval(*a));
  return Value::new_list(std::move(items), e.kind == ExprKind::Tuple);
}

Value Interp::eval_attr(const Expr& e) { return get_attr(eval(*e.args[0]), e.name, e.line); }

Value Interp::eval_item(const Expr& e) {
  const Value obj = eval(*e.args[0]);
  return get_item(*this, obj, eval(*e.args[1]), e.line);
}

Value Interp::eval_slice(const Expr& e) {
  const Value obj = eval(*e.args[0]);
  Value parts[3];
  const Value* p[3] = {nullptr, nullptr, nullptr};
  for (int k = 0; k < 3; ++k) {
    if (e.args[k + 1]) {
      parts[k] = eval(*e.args[k + 1]);
      p[k] = &parts[k];
    }
  }
  return get_slice(obj, p[0], p[1], p[2], e.line);
}

void Interp::eval_args(const Expr& e, size_t first, CallArgs& out) {
  out.line = e.line;
  for (size_t k = first; k < e.args.size(); ++k) out.pos.push_back(eval(*e.args[k]));
  for (const auto& kv : e.kwargs) out.kw.emplace_back(kv.first, eval(*kv.second));
}

Value Interp::eval_call(const Expr& e) {
  const Value fn = eval(*e.args[0]);
  CallArgs args;
  eval_args(e, 1, args);
  return call(fn, args, e.line);
}

Value Interp::call(const Value& fn, CallArgs& args, int line) {
  if (fn.is_undefined()) fail("'" + fn.s + "' is undefined (called as a function)", line);
  if (fn.kind != Value::Kind::Func)
    fail(std::string("'") + type_name(fn) + "' is not callable", line);
  if (++call_depth_ > limits_.max_call_depth) {
    fail("calls nest deeper than " + std::to_string(limits_.max_call_depth) + " levels", line);
  }
  args.line = line;
  Value r = fn.func->call(*this, args);
  --call_depth_;
  return r;
}

Value Interp::eval_filter(const Expr& e) {
  Value subject = eval(*e.args[0]);
  CallArgs args;
  eval_args(e, 1, args);
  return apply_filter(*this, e.name, std::move(subject), args);
}

Value Interp::eval_test(const Expr& e) {
  const Value subject = eval(*e.args[0]);
  CallArgs args;
  eval_args(e, 1, args);
  const bool r = apply_test(*this, e.name, subject, args);
  return Value::boolean(e.negated ? !r : r);
}

Value Interp::eval_unary(const Expr& e) {
  const Value v = eval(*e.args[0]);
  if (e.name == "not") return Value::boolean(!truthy(v));
  if (e.name == "-") return negate(v, e.line);
  if (!v.is_number())
    fail(std::string("bad operand type for unary +: '") + type_name(v) + "'", e.line);
  return v.kind == Value::Kind::Bool ? Value::integer(v.as_int()) : v;
}

Value Interp::eval_binary(const Expr& e) {
  if (e.name == "and" || e.name == "or") {
    Value l = eval(*e.args[0]);
    const bool t = truthy(l);
    if ((e.name == "and") ? !t : t) return l;
    return eval(*e.args[1]);
  }
  const Value l = eval(*e.args[0]);
  const Value r = eval(*e.args[1]);
  return arith(*this, e.name, l, r, e.line);
}

Value Interp::eval_compare(const Expr& e) {
  Value left = eval(*e.args[0]);
  for (size_t k = 0; k < e.ops.size(); ++k) {
    Value right = eval(*e.args[k + 1]);
    const std::string& op = e.ops[k];
    bool r;
    if (op == "==")
      r = py_equal(left, right);
    else if (op == "!=")
      r = !py_equal(left, right);
    else if (op == "<")
      r = py_less(left, right, e.line);
    else if (op == ">")
      r = py_less(right, left, e.line);
    else if (op == "<=")
      r = !py_less(right, left, e.line);
    else if (op == ">=")
      r = !py_less(left, right, e.line);
    else if (op == "in")
      r = contains(right, left, e.line);
    else
      r = !contains(right, left, e.line);  // not in
    if (!r) return Value::boolean(false);
    left = std::move(right);
  }
  return Value::boolean(true);
}

}  // namespace ts::chat
