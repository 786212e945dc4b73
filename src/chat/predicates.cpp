// Jinja2's tests (`x is defined`, `x is string`, `x is divisibleby 3`, ...) with Python's type
// rules: bool counts as a number and an integer for `number` but not for `integer`; strings,
// lists, dicts and undefined are iterable; a namespace is not a mapping.
#include <utf8proc.h>

#include <algorithm>
#include <cmath>

#include "chat/builtins.h"
#include "chat/interp.h"
#include "chat/pystr.h"

namespace ts::chat {

namespace {

const char* const kTests[] = {
    "defined", "undefined",   "none",        "boolean",  "false",    "true",     "integer", "float",
    "number",  "string",      "mapping",     "iterable", "sequence", "callable", "sameas",  "eq",
    "equalto", "==",          "ne",          "!=",       "lt",       "lessthan", "<",       "le",
    "<=",      "gt",          "greaterthan", ">",        "ge",       ">=",       "in",      "odd",
    "even",    "divisibleby", "lower",       "upper"};

const Value& one_arg(const CallArgs& a, const std::string& name) {
  if (a.pos.size() != 1 || !a.kw.empty()) fail("test '" + name + "' takes one argument", a.line);
  return a.pos[0];
}

int64_t int_subject(const Value& v, const std::string& name, int line) {
  if (!v.is_int_like()) {
    if (v.kind == Value::Kind::Float && std::floor(v.f) == v.f) {
      fail_unsupported("test '" + name + "' on a float", line);
    }
    fail(std::string("test '") + name + "' needs an integer, not " + type_name(v), line);
  }
  return v.as_int();
}

// str.islower / str.isupper: some cased character, and none of the other case.
bool case_test(const std::string& s, bool lower, int line) {
  bool cased = false;
  (void)line;
  for (uint32_t cp : to_code_points(s)) {
    const auto c = static_cast<utf8proc_int32_t>(cp);
    const bool is_lower = utf8proc_islower(c), is_upper = utf8proc_isupper(c);
    if (lower ? is_upper : is_lower) return false;
    cased = cased || (lower ? is_lower : is_upper);
  }
  return cased;
}

}  // namespace

Support test_support(std::string_view name) {
  for (const char* n : kTests)
    if (name == n) return Support::Yes;
  if (name == "escaped" || name == "filter" || name == "test") return Support::JinjaOnly;
  return Support::No;
}

bool apply_test(Interp& in, const std::string& n, const Value& v, CallArgs& a) {
  using K = Value::Kind;
  const int line = a.line;
  if (test_support(n) == Support::No) fail("no test named '" + n + "'", line);
  static const char* const kOneArg[] = {
      "sameas", "eq", "equalto", "==",          "ne", "!=", "lt", "lessthan", "<",
      "le",     "<=", "gt",      "greaterthan", ">",  "ge", ">=", "in",       "divisibleby"};
  const bool takes_arg = std::find(std::begin(kOneArg), std::end(kOneArg), n) != std::end(kOneArg);
  if (!takes_arg && (!a.pos.empty() || !a.kw.empty())) {
    fail("test '" + n + "' takes no argument", line);
  }
  if (n == "defined") return !v.is_undefined();
  if (n == "undefined") return v.is_undefined();
  if (n == "none") return v.is_none();
  if (n == "boolean") return v.kind == K::Bool;
  if (n == "false") return v.kind == K::Bool && !v.b;
  if (n == "true") return v.kind == K::Bool && v.b;
  if (n == "integer") return v.kind == K::Int;
  if (n == "float") return v.kind == K::Float;
  if (n == "number") return v.is_number();
  if (n == "string") return v.is_string();
  if (n == "mapping") return v.kind == K::Dict;
  if (n == "iterable") {
    return v.is_undefined() || v.is_string() || v.kind == K::List || v.kind == K::Dict;
  }
  if (n == "sequence") {
    return v.is_undefined() || v.is_string() || v.kind == K::Dict ||
           (v.kind == K::List && (v.list->view.empty() || v.list->view == "range"));
  }
  if (n == "callable") return v.kind == K::Func;
  if (n == "sameas") {
    const Value& o = one_arg(a, n);
    if (v.kind == K::List || v.kind == K::Dict || v.kind == K::Namespace) {
      return v.kind == o.kind && (v.kind == K::List ? v.list == o.list : v.dict == o.dict);
    }
    if (v.kind == K::None || v.kind == K::Bool || v.is_undefined()) {
      if (v.is_undefined()) fail_unsupported("'sameas' on an undefined value", line);
      return v.kind == o.kind && (v.kind == K::None || v.b == o.b);
    }
    fail_unsupported("'sameas' on numbers and strings (Python object identity)", line);
  }
  if (n == "eq" || n == "equalto" || n == "==") return py_equal(v, one_arg(a, n));
  if (n == "ne" || n == "!=") return !py_equal(v, one_arg(a, n));
  if (n == "lt" || n == "lessthan" || n == "<") return py_less(v, one_arg(a, n), line);
  if (n == "gt" || n == "greaterthan" || n == ">") return py_less(one_arg(a, n), v, line);
  if (n == "le" || n == "<=") return !py_less(one_arg(a, n), v, line);
  if (n == "ge" || n == ">=") return !py_less(v, one_arg(a, n), line);
  if (n == "in") return contains(one_arg(a, n), v, line);
  if (n == "odd" || n == "even") {
    const int64_t x = int_subject(v, n, line);
    return ((x % 2) != 0) == (n == "odd");
  }
  if (n == "divisibleby") {
    const Value& d = one_arg(a, n);
    const int64_t x = int_subject(v, n, line);
    if (!d.is_int_like()) fail_unsupported("'divisibleby' with a non-integer", line);
    if (d.as_int() == 0) fail("integer division or modulo by zero", line);
    return x % d.as_int() == 0;
  }
  if (n == "lower" || n == "upper") {
    return case_test(py_str(v), n == "lower", line);
  }
  (void)in;
  fail_unsupported("test '" + n + "'", line);
}

}  // namespace ts::chat
