// Values: construction, Python's truth, str(), repr(), == and < (see value.h). A float prints as
// Python's repr does: the shortest digits that read back the same, in fixed notation from 1e-4 up
// to 1e16 and in exponent notation outside, always with a '.' or an exponent.
#include "chat/value.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "chat/pystr.h"

namespace ts::chat {

void fail(std::string message, int line) { throw TemplateError{std::move(message), line, false}; }
void fail_unsupported(std::string what, int line) {
  throw TemplateError{"unsupported: " + std::move(what), line, true};
}

const Value* DictData::find(std::string_view key) const {
  for (const auto& kv : items)
    if (kv.first == key) return &kv.second;
  return nullptr;
}
Value* DictData::find(std::string_view key) {
  for (auto& kv : items)
    if (kv.first == key) return &kv.second;
  return nullptr;
}
int nest_depth(const Value& v) {
  if (v.kind == Value::Kind::List) return v.list->depth;
  if (v.kind == Value::Kind::Dict) return v.dict->depth;
  return 0;
}

namespace {

void check_nesting(int depth) {
  if (depth > kMaxNesting) {
    fail("values nest deeper than " + std::to_string(kMaxNesting) + " lists or dicts");
  }
}

}  // namespace

void check_no_namespace(const Value& v, int line) {
  if (v.kind == Value::Kind::Namespace)
    fail_unsupported("a namespace stored inside a namespace", line);
  if (v.kind == Value::Kind::List) {
    for (const Value& x : v.list->items) check_no_namespace(x, line);
  }
  if (v.kind == Value::Kind::Dict) {
    for (const auto& kv : v.dict->items) check_no_namespace(kv.second, line);
  }
}

void DictData::set(const std::string& key, Value v) {
  depth = std::max(depth, 1 + nest_depth(v));
  check_nesting(depth);
  if (Value* old = find(key)) {
    *old = std::move(v);
  } else {
    items.emplace_back(key, std::move(v));
  }
}

Value Value::undefined(std::string name) {
  Value v;
  v.s = std::move(name);
  return v;
}
Value Value::none() {
  Value v;
  v.kind = Kind::None;
  return v;
}
Value Value::boolean(bool x) {
  Value v;
  v.kind = Kind::Bool;
  v.b = x;
  return v;
}
Value Value::integer(int64_t x) {
  Value v;
  v.kind = Kind::Int;
  v.i = x;
  return v;
}
Value Value::number(double x) {
  Value v;
  v.kind = Kind::Float;
  v.f = x;
  return v;
}
Value Value::string(std::string x) {
  Value v;
  v.kind = Kind::String;
  v.s = std::move(x);
  return v;
}
Value Value::new_list(std::vector<Value> items, bool tuple) {
  Value v;
  v.kind = Kind::List;
  v.list = std::make_shared<ListData>();
  int depth = 1;
  for (const Value& x : items) depth = std::max(depth, 1 + nest_depth(x));
  check_nesting(depth);
  v.list->items = std::move(items);
  v.list->tuple = tuple;
  v.list->depth = depth;
  return v;
}
Value Value::new_view(std::vector<Value> items, std::string view) {
  Value v = new_list(std::move(items));
  v.list->view = std::move(view);
  return v;
}
Value Value::new_dict() {
  Value v;
  v.kind = Kind::Dict;
  v.dict = std::make_shared<DictData>();
  return v;
}
Value Value::new_namespace() {
  Value v = new_dict();
  v.kind = Kind::Namespace;
  return v;
}
Value Value::function(std::string name, std::function<Value(Interp&, CallArgs&)> fn) {
  Value v;
  v.kind = Kind::Func;
  v.func = std::make_shared<FuncData>(FuncData{std::move(name), std::move(fn)});
  return v;
}

bool truthy(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Undefined:
    case Value::Kind::None:
      return false;
    case Value::Kind::Bool:
      return v.b;
    case Value::Kind::Int:
      return v.i != 0;
    case Value::Kind::Float:
      return v.f != 0;
    case Value::Kind::String:
      return !v.s.empty();
    case Value::Kind::List:
      return v.list->view == "generator" || !v.list->items.empty();
    case Value::Kind::Dict:
      return !v.dict->items.empty();
    default:
      return true;
  }
}

namespace {

// The shortest scientific form that reads back as d. Emscripten's libc++ has no floating-point
// to_chars: there, the fewest printf digits that round-trip (the same digits but in rare ties).
std::string shortest_scientific(double d) {
  char buf[64];
#if defined(__EMSCRIPTEN__)
  for (int digits = 0; digits < 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits, d);
    if (std::strtod(buf, nullptr) == d) return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17e", d);
  return buf;
#else
  const auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  return std::string(buf, res.ptr);
#endif
}

}  // namespace

std::string py_float_repr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string sci = shortest_scientific(d);  // "-d.ddde+XX"
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exp10 = std::atoi(sci.c_str() + e + 1);
  const int decpt = exp10 + 1;  // digits d1 d2 ... mean 0.d1d2... * 10^decpt
  const int nd = static_cast<int>(digits.size());
  std::string out;
  if (decpt <= -4 || decpt > 16) {
    out = digits.substr(0, 1);
    if (nd > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    out += eb;
  } else if (decpt <= 0) {
    out = "0." + std::string(-decpt, '0') + digits;
  } else if (decpt >= nd) {
    out = digits + std::string(decpt - nd, '0') + ".0";
  } else {
    out = digits.substr(0, decpt) + "." + digits.substr(decpt);
  }
  return sign + out;
}

namespace {

std::string seq_repr(const ListData& l) {
  if (l.view == "generator" || l.view == "range") fail_unsupported("printing a " + l.view);
  if (!l.view.empty()) {
    ListData plain;
    plain.items = l.items;
    return l.view + "(" + seq_repr(plain) + ")";
  }
  std::string out = l.tuple ? "(" : "[";
  for (size_t k = 0; k < l.items.size(); ++k) {
    if (k) out += ", ";
    out += py_repr(l.items[k]);
  }
  if (l.tuple && l.items.size() == 1) out += ",";
  out += l.tuple ? ")" : "]";
  return out;
}

std::string dict_repr(const DictData& d) {
  std::string out = "{";
  for (size_t k = 0; k < d.items.size(); ++k) {
    if (k) out += ", ";
    out += py_repr_string(d.items[k].first) + ": " + py_repr(d.items[k].second);
  }
  return out + "}";
}

}  // namespace

std::string py_str(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Undefined:
      return "";
    case Value::Kind::String:
      return v.s;
    default:
      return py_repr(v);
  }
}

std::string py_repr(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Undefined:
      return "Undefined";
    case Value::Kind::None:
      return "None";
    case Value::Kind::Bool:
      return v.b ? "True" : "False";
    case Value::Kind::Int:
      return std::to_string(v.i);
    case Value::Kind::Float:
      return py_float_repr(v.f);
    case Value::Kind::String:
      return py_repr_string(v.s);
    case Value::Kind::List:
      return seq_repr(*v.list);
    case Value::Kind::Dict:
      return dict_repr(*v.dict);
    case Value::Kind::Namespace:
      fail_unsupported("printing a namespace");
    case Value::Kind::Func:
      fail_unsupported("printing a function ('" + v.func->name + "')");
  }
  return "";
}

bool py_equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int_like() && b.is_int_like()) return a.as_int() == b.as_int();
    return a.as_double() == b.as_double();
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::Kind::Undefined:
    case Value::Kind::None:
      return true;
    case Value::Kind::String:
      return a.s == b.s;
    case Value::Kind::List: {
      const auto &x = *a.list, &y = *b.list;
      if (x.tuple != y.tuple || x.view != y.view || x.items.size() != y.items.size()) return false;
      if (x.view == "generator") return &x == &y;
      if (!x.view.empty() && x.view != "range") {
        fail_unsupported("comparing dict views");
      }
      for (size_t k = 0; k < x.items.size(); ++k)
        if (!py_equal(x.items[k], y.items[k])) return false;
      return true;
    }
    case Value::Kind::Dict: {
      if (a.dict->items.size() != b.dict->items.size()) return false;
      for (const auto& kv : a.dict->items) {
        const Value* o = b.dict->find(kv.first);
        if (!o || !py_equal(kv.second, *o)) return false;
      }
      return true;
    }
    case Value::Kind::Namespace:
      return a.dict == b.dict;
    case Value::Kind::Func:
      return a.func == b.func;
    default:
      return false;
  }
}

const char* type_name(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Undefined:
      return "Undefined";
    case Value::Kind::None:
      return "NoneType";
    case Value::Kind::Bool:
      return "bool";
    case Value::Kind::Int:
      return "int";
    case Value::Kind::Float:
      return "float";
    case Value::Kind::String:
      return "str";
    case Value::Kind::List:
      if (!v.list->view.empty()) return v.list->view.c_str();
      return v.list->tuple ? "tuple" : "list";
    case Value::Kind::Dict:
      return "dict";
    case Value::Kind::Namespace:
      return "Namespace";
    case Value::Kind::Func:
      return "function";
  }
  return "?";
}

bool py_less(const Value& a, const Value& b, int line) {
  if (a.is_number() && b.is_number()) {
    if (a.is_int_like() && b.is_int_like()) return a.as_int() < b.as_int();
    return a.as_double() < b.as_double();
  }
  if (a.is_string() && b.is_string()) return a.s < b.s;  // UTF-8 byte order = code point order
  if (a.is_plain_list() && b.is_plain_list() && a.list->tuple == b.list->tuple) {
    const auto &x = a.list->items, &y = b.list->items;
    for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
      if (!py_equal(x[k], y[k])) return py_less(x[k], y[k], line);
    }
    return x.size() < y.size();
  }
  if (a.is_undefined() || b.is_undefined()) {
    fail("'" + (a.is_undefined() ? a.s : b.s) + "' is undefined", line);
  }
  fail(std::string("cannot order ") + type_name(a) + " and " + type_name(b), line);
}

}  // namespace ts::chat
