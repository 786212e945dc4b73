// Python's operators on template values (+ - * / // % **, unary -, `in`), iteration, argument
// helpers, and the global functions: range, namespace, dict, raise_exception. Integers are 64-bit
// here (Python's are unbounded): a result that would overflow is refused, never wrapped.
#include <cmath>

#include "chat/builtins.h"
#include "chat/filter_helpers.h"
#include "chat/interp.h"
#include "chat/pystr.h"

namespace ts::chat {

const Value* arg(const CallArgs& args, size_t pos, const char* name) {
  for (const auto& kv : args.kw)
    if (kv.first == name) return &kv.second;
  return pos < args.pos.size() ? &args.pos[pos] : nullptr;
}

void check_args(const CallArgs& args, size_t max_pos, std::initializer_list<const char*> names,
                const std::string& what) {
  if (args.pos.size() > max_pos + names.size()) {
    fail(what + " takes at most " + std::to_string(max_pos + names.size()) + " arguments",
         args.line);
  }
  for (const auto& kv : args.kw) {
    bool known = false;
    for (const char* n : names) known = known || kv.first == n;
    if (!known) fail(what + " has no argument '" + kv.first + "'", args.line);
  }
}

std::vector<Value> iterate(const Value& v, int line) {
  switch (v.kind) {
    case Value::Kind::Undefined:
      return {};
    case Value::Kind::List:
      if (v.list->view == "generator") {
        if (v.list->consumed) {
          fail_unsupported("using a filter's one-pass result (map, select, ...) twice", line);
        }
        v.list->consumed = true;
      }
      return v.list->items;
    case Value::Kind::Dict: {
      std::vector<Value> keys;
      for (const auto& kv : v.dict->items) keys.push_back(Value::string(kv.first));
      return keys;
    }
    case Value::Kind::String: {
      std::vector<Value> chars;
      const std::vector<uint32_t> cps = to_code_points(v.s);
      for (size_t k = 0; k < cps.size(); ++k)
        chars.push_back(Value::string(from_code_points(cps, k, k + 1)));
      return chars;
    }
    default:
      fail(std::string("'") + type_name(v) + "' object is not iterable", line);
  }
}

namespace {

[[noreturn]] void bad_operands(const std::string& op, const Value& a, const Value& b, int line) {
  if (a.is_undefined() || b.is_undefined()) {
    fail("'" + (a.is_undefined() ? a.s : b.s) + "' is undefined (used with " + op + ")", line);
  }
  fail(
      "unsupported operand types for " + op + ": '" + type_name(a) + "' and '" + type_name(b) + "'",
      line);
}

// x op y for + - *, refused when it overflows 64 bits.
int64_t checked_op(char op, int64_t x, int64_t y, int line) {
  int64_t r = 0;
  const bool overflow = op == '+'   ? __builtin_add_overflow(x, y, &r)
                        : op == '-' ? __builtin_sub_overflow(x, y, &r)
                                    : __builtin_mul_overflow(x, y, &r);
  if (overflow) fail_unsupported("integers beyond 64 bits", line);
  return r;
}

Value float_arith(const std::string& op, double x, double y, int line);

Value int_arith(const std::string& op, int64_t x, int64_t y, int line) {
  if (op == "+" || op == "-" || op == "*") return Value::integer(checked_op(op[0], x, y, line));
  if (op == "/") {
    if (y == 0) fail("division by zero", line);
    return Value::number(static_cast<double>(x) / static_cast<double>(y));
  }
  if (op == "//" || op == "%") {
    if (y == 0) fail("integer division or modulo by zero", line);
    if (x == INT64_MIN && y == -1) fail_unsupported("integers beyond 64 bits", line);
    int64_t q = x / y, m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) {
      --q;
      m += y;
    }
    return Value::integer(op == "//" ? q : m);
  }
  // **
  if (y < 0) return float_arith("**", static_cast<double>(x), static_cast<double>(y), line);
  int64_t acc = 1, base = x;
  for (int64_t e = y; e > 0; e >>= 1) {
    if (e & 1) acc = checked_op('*', acc, base, line);
    if (e > 1) base = checked_op('*', base, base, line);
  }
  return Value::integer(acc);
}

Value float_arith(const std::string& op, double x, double y, int line) {
  if (op == "+") return Value::number(x + y);
  if (op == "-") return Value::number(x - y);
  if (op == "*") return Value::number(x * y);
  if (op == "/") {
    if (y == 0) fail("float division by zero", line);
    return Value::number(x / y);
  }
  if (op == "//" || op == "%") {  // CPython's float divmod, step by step
    if (y == 0) fail("float division or modulo by zero", line);
    double mod = std::fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0) {
      if ((y < 0) != (mod < 0)) {
        mod += y;
        div -= 1.0;
      }
    } else {
      mod = std::copysign(0.0, y);
    }
    double floordiv;
    if (div != 0) {
      floordiv = std::floor(div);
      if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
      floordiv = std::copysign(0.0, x / y);
    }
    return Value::number(op == "%" ? mod : floordiv);
  }
  if (x == 0 && y < 0) fail("0.0 cannot be raised to a negative power", line);
  const double r = std::pow(x, y);
  if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) fail_unsupported("complex powers", line);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y))
    fail("numerical result out of range", line);
  return Value::number(r);
}

// `seq * n` for strings and lists.
Value repeat(Interp& in, const Value& seq, int64_t n, int line) {
  if (n <= 0) return seq.is_string() ? Value::string("") : Value::new_list({}, seq.list->tuple);
  const size_t unit = seq.is_string() ? seq.s.size() : seq.list->items.size() * 16;
  if (unit > 0 && static_cast<uint64_t>(n) > in.limits().max_output_bytes / unit) {
    in.check_size(in.limits().max_output_bytes + 1, line);
  }
  if (seq.is_string()) {
    std::string out;
    for (int64_t k = 0; k < n; ++k) out += seq.s;
    return Value::string(std::move(out));
  }
  std::vector<Value> items;
  for (int64_t k = 0; k < n; ++k)
    items.insert(items.end(), seq.list->items.begin(), seq.list->items.end());
  return Value::new_list(std::move(items), seq.list->tuple);
}

}  // namespace

Value arith(Interp& in, const std::string& op, const Value& a, const Value& b, int line) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int_like() && b.is_int_like()) return int_arith(op, a.as_int(), b.as_int(), line);
    return float_arith(op, a.as_double(), b.as_double(), line);
  }
  if (op == "+" && a.is_string() && b.is_string()) {
    in.check_size(a.s.size() + b.s.size(), line);
    if (a.markup || b.markup) {  // Markup + str escapes the plain side
      Value r =
          Value::string((a.markup ? a.s : html_escape(a.s)) + (b.markup ? b.s : html_escape(b.s)));
      r.markup = true;
      return r;
    }
    return Value::string(a.s + b.s);
  }
  if (op == "+" && a.is_plain_list() && b.is_plain_list() && a.list->tuple == b.list->tuple) {
    std::vector<Value> items = a.list->items;
    items.insert(items.end(), b.list->items.begin(), b.list->items.end());
    in.check_size(items.size() * 16, line);
    return Value::new_list(std::move(items), a.list->tuple);
  }
  if (op == "*" && (a.markup || b.markup))
    fail_unsupported("'*' on a |safe or |escape string", line);
  if (op == "*") {
    if ((a.is_string() || a.is_plain_list()) && b.is_int_like())
      return repeat(in, a, b.as_int(), line);
    if ((b.is_string() || b.is_plain_list()) && a.is_int_like())
      return repeat(in, b, a.as_int(), line);
  }
  if (op == "%" && a.is_string()) fail_unsupported("printf-style '%' formatting of strings", line);
  bad_operands(op, a, b, line);
}

Value negate(const Value& v, int line) {
  if (v.kind == Value::Kind::Float) return Value::number(-v.f);
  if (v.is_int_like()) {
    if (v.as_int() == INT64_MIN) fail_unsupported("integers beyond 64 bits", line);
    return Value::integer(-v.as_int());
  }
  if (v.is_undefined()) fail("'" + v.s + "' is undefined (negated)", line);
  fail(std::string("bad operand type for unary -: '") + type_name(v) + "'", line);
}

bool contains(const Value& container, const Value& item, int line) {
  switch (container.kind) {
    case Value::Kind::String:
      if (!item.is_string()) {
        fail(std::string("'in <string>' needs a string on the left, not ") + type_name(item), line);
      }
      return container.s.find(item.s) != std::string::npos;
    case Value::Kind::Dict:
      return item.is_string() && container.dict->find(item.s) != nullptr;
    case Value::Kind::List:
    case Value::Kind::Undefined: {
      for (const Value& v : iterate(container, line))
        if (py_equal(v, item)) return true;
      return false;
    }
    default:
      fail(std::string("argument of type '") + type_name(container) + "' is not iterable", line);
  }
}

namespace {

Value fn_range(Interp& in, CallArgs& a) {
  check_args(a, 3, {}, "range()");
  if (a.pos.empty()) fail("range() takes 1 to 3 integers", a.line);
  for (const Value& v : a.pos)
    if (!v.is_int_like()) fail("range() takes integers", a.line);
  int64_t start = 0, stop, step = 1;
  if (a.pos.size() == 1) {
    stop = a.pos[0].as_int();
  } else {
    start = a.pos[0].as_int();
    stop = a.pos[1].as_int();
    if (a.pos.size() == 3) step = a.pos[2].as_int();
  }
  if (step == 0) fail("range() step must not be zero", a.line);
  std::vector<Value> items;
  for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step) {
    in.step(a.line);
    items.push_back(Value::integer(k));
  }
  return Value::new_view(std::move(items), "range");
}

Value fn_namespace(Interp&, CallArgs& a) {
  Value ns = Value::new_namespace();
  for (const Value& p : a.pos) {  // namespace(dict) copies the dict's items first
    if (!p.is_dict()) fail("namespace() takes a dict and keyword arguments", a.line);
    for (const auto& kv : p.dict->items) {
      check_no_namespace(kv.second, a.line);
      ns.dict->set(kv.first, kv.second);
    }
  }
  for (const auto& kv : a.kw) {
    check_no_namespace(kv.second, a.line);
    ns.dict->set(kv.first, kv.second);
  }
  return ns;
}

Value fn_dict(Interp&, CallArgs& a) {
  if (!a.pos.empty()) fail_unsupported("dict() with positional arguments", a.line);
  Value d = Value::new_dict();
  for (const auto& kv : a.kw) d.dict->set(kv.first, kv.second);
  return d;
}

Value fn_raise(Interp&, CallArgs& a) {
  const std::string msg = a.pos.empty() ? std::string("raise_exception()") : py_str(a.pos[0]);
  fail("the template raised: " + msg, a.line);
}

}  // namespace

void add_builtin_globals(Scope& scope) {
  scope.set("range", Value::function("range", fn_range));
  scope.set("namespace", Value::function("namespace", fn_namespace));
  scope.set("dict", Value::function("dict", fn_dict));
  scope.set("raise_exception", Value::function("raise_exception", fn_raise));
  for (const char* n : {"cycler", "joiner", "lipsum"}) {
    const std::string name = n;
    scope.set(name, Value::function(name, [name](Interp&, CallArgs& a) -> Value {
                fail_unsupported("the global function '" + name + "'", a.line);
              }));
  }
}

}  // namespace ts::chat
