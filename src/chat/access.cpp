// `obj.name`, `obj[key]`, `obj[a:b:c]` and the methods they reach, as Jinja2 resolves them in
// Hugging Face's sandbox: a Python attribute first (so `d.items` is the method), then the key;
// methods that would modify a list or dict are hidden (undefined); a missing key or index is
// undefined, not an error. String methods: strip, split, startswith, replace and friends.
#include <algorithm>
#include <cctype>

#include "chat/builtins.h"
#include "chat/interp.h"
#include "chat/pystr.h"

namespace ts::chat {

namespace {

std::optional<std::string> opt_str(const Value* v, const char* what, int line) {
  if (!v || v->is_none()) return std::nullopt;
  if (!v->is_string()) fail(std::string(what) + " must be a string", line);
  return v->s;
}

int64_t int_arg(const Value* v, int64_t dflt, const char* what, int line) {
  if (!v || v->is_none()) return dflt;
  if (!v->is_int_like()) fail(std::string(what) + " must be an integer", line);
  return v->as_int();
}

// startswith/endswith: a string or a tuple of strings.
bool affix_match(const std::string& s, const Value& affix, bool prefix, int line) {
  const auto one = [&](const Value& a) {
    if (!a.is_string()) fail("startswith/endswith take a string or a tuple of strings", line);
    if (a.s.size() > s.size()) return false;
    return prefix ? s.compare(0, a.s.size(), a.s) == 0
                  : s.compare(s.size() - a.s.size(), a.s.size(), a.s) == 0;
  };
  if (affix.is_list() && affix.list->tuple) {
    for (const Value& a : affix.list->items)
      if (one(a)) return true;
    return false;
  }
  return one(affix);
}

Value string_list(const std::vector<std::string>& parts) {
  std::vector<Value> items;
  items.reserve(parts.size());
  for (const std::string& p : parts) items.push_back(Value::string(p));
  return Value::new_list(std::move(items));
}

// Index of `sub` in `s` in code points (-1 if absent), searching from the left or the right.
int64_t find_cp(const std::string& s, const std::string& sub, bool from_right) {
  const size_t b = from_right ? s.rfind(sub) : s.find(sub);
  if (b == std::string::npos) return -1;
  return static_cast<int64_t>(code_point_count(std::string_view(s).substr(0, b)));
}

// str.format with plain fields: {} {0} {name}, optionally !r or !s; {{ and }} for braces. Format
// specs (":>10"), attribute or index fields are refused.
std::string py_format(const std::string& f, const CallArgs& a) {
  std::string out;
  int auto_index = 0;
  bool used_auto = false, used_manual = false;
  for (size_t k = 0; k < f.size(); ++k) {
    const char c = f[k];
    if (c == '}') {
      if (k + 1 < f.size() && f[k + 1] == '}') {
        out += '}';
        ++k;
        continue;
      }
      fail("str.format(): single '}' in the format string", a.line);
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (k + 1 < f.size() && f[k + 1] == '{') {
      out += '{';
      ++k;
      continue;
    }
    const size_t close = f.find('}', k);
    if (close == std::string::npos) fail("str.format(): '{' without '}'", a.line);
    std::string field = f.substr(k + 1, close - k - 1);
    k = close;
    char conv = 0;
    if (const size_t bang = field.find('!'); bang != std::string::npos) {
      if (bang + 2 != field.size() || (field[bang + 1] != 'r' && field[bang + 1] != 's')) {
        fail_unsupported("str.format() conversion in '{" + field + "}'", a.line);
      }
      conv = field[bang + 1];
      field.resize(bang);
    }
    if (field.find_first_of(":.[{") != std::string::npos) {
      fail_unsupported("str.format() field '{" + field + "}'", a.line);
    }
    const Value* v = nullptr;
    if (field.empty() || std::isdigit(static_cast<unsigned char>(field[0]))) {
      const bool automatic = field.empty();
      (automatic ? used_auto : used_manual) = true;
      if (used_auto && used_manual) {
        fail("str.format(): cannot mix automatic and manual field numbering", a.line);
      }
      if (!automatic && field.size() > 6)
        fail_unsupported("str.format() field '{" + field + "}'", a.line);
      const size_t idx = automatic ? static_cast<size_t>(auto_index++) : std::stoul(field);
      if (idx >= a.pos.size())
        fail("str.format(): replacement index " + std::to_string(idx) + " out of range", a.line);
      v = &a.pos[idx];
    } else {
      for (const auto& kv : a.kw)
        if (kv.first == field) v = &kv.second;
      if (!v) fail("str.format(): no argument named '" + field + "'", a.line);
    }
    out += conv == 'r' ? py_repr(*v) : py_str(*v);
  }
  return out;
}

Value str_method(const std::string& name, const Value& self, CallArgs& a) {
  const std::string& s = self.s;
  const int line = a.line;
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    check_args(a, 1, {"chars"}, name + "()");
    const auto chars = opt_str(arg(a, 0, "chars"), "strip()'s argument", line);
    return Value::string(py_strip(s, chars, name != "rstrip", name != "lstrip"));
  }
  if (name == "split" || name == "rsplit") {
    check_args(a, 2, {"sep", "maxsplit"}, name + "()");
    const auto sep = opt_str(arg(a, 0, "sep"), "split()'s separator", line);
    const int64_t maxsplit = int_arg(arg(a, 1, "maxsplit"), -1, "maxsplit", line);
    return string_list(name == "split" ? py_split(s, sep, maxsplit, line)
                                       : py_rsplit(s, sep, maxsplit, line));
  }
  if (name == "startswith" || name == "endswith") {
    check_args(a, 1, {}, name + "()");
    if (a.pos.empty()) fail(name + "() takes a string", line);
    return Value::boolean(affix_match(s, a.pos[0], name == "startswith", line));
  }
  if (name == "replace") {
    check_args(a, 3, {"count"}, "replace()");
    if (a.pos.size() < 2 || !a.pos[0].is_string() || !a.pos[1].is_string()) {
      fail("replace() takes two strings", line);
    }
    const int64_t count = int_arg(arg(a, 2, "count"), -1, "replace()'s count", line);
    return Value::string(py_replace(s, a.pos[0].s, a.pos[1].s, count));
  }
  if (name == "upper") return Value::string(py_upper(s, line));
  if (name == "lower") return Value::string(py_lower(s, line));
  if (name == "title") return Value::string(py_str_title(s, line));
  if (name == "capitalize") return Value::string(py_capitalize(s, line));
  if (name == "find" || name == "rfind" || name == "count") {
    check_args(a, 1, {}, name + "()");
    if (a.pos.size() != 1 || !a.pos[0].is_string()) fail(name + "() takes one string", line);
    const std::string& sub = a.pos[0].s;
    if (name != "count") return Value::integer(find_cp(s, sub, name == "rfind"));
    if (sub.empty()) return Value::integer(static_cast<int64_t>(code_point_count(s)) + 1);
    int64_t n = 0;
    for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + sub.size())) ++n;
    return Value::integer(n);
  }
  if (name == "join") {
    check_args(a, 1, {}, "join()");
    if (a.pos.size() != 1) fail("join() takes one iterable", line);
    std::string out;
    const std::vector<Value> items = iterate(a.pos[0], line);
    for (size_t k = 0; k < items.size(); ++k) {
      if (!items[k].is_string()) fail("str.join() needs strings", line);
      if (k) out += s;
      out += items[k].s;
    }
    return Value::string(std::move(out));
  }
  if (name == "splitlines") return string_list(py_splitlines(s));
  if (name == "format") return Value::string(py_format(s, a));
  fail_unsupported("string method '" + name + "'", line);
}

bool is_python_str_method(const std::string& n) {
  static const char* const kNames[] = {
      "capitalize",   "casefold",    "center",    "count",      "encode",       "endswith",
      "expandtabs",   "find",        "format",    "format_map", "index",        "isalnum",
      "isalpha",      "isascii",     "isdecimal", "isdigit",    "isidentifier", "islower",
      "isnumeric",    "isprintable", "isspace",   "istitle",    "isupper",      "join",
      "ljust",        "lower",       "lstrip",    "maketrans",  "partition",    "removeprefix",
      "removesuffix", "replace",     "rfind",     "rindex",     "rjust",        "rpartition",
      "rsplit",       "rstrip",      "split",     "splitlines", "startswith",   "strip",
      "swapcase",     "title",       "translate", "upper",      "zfill"};
  return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
}

Value dict_method(const std::string& name, const Value& self, CallArgs& a) {
  const DictData& d = *self.dict;
  if (name == "get") {
    check_args(a, 2, {}, "get()");
    if (a.pos.empty()) fail("get() takes a key", a.line);
    const Value* v = a.pos[0].is_string() ? d.find(a.pos[0].s) : nullptr;
    if (v) return *v;
    return a.pos.size() > 1 ? a.pos[1] : Value::none();
  }
  check_args(a, 0, {}, name + "()");
  std::vector<Value> items;
  for (const auto& kv : d.items) {
    if (name == "keys") items.push_back(Value::string(kv.first));
    if (name == "values") items.push_back(kv.second);
    if (name == "items")
      items.push_back(Value::new_list({Value::string(kv.first), kv.second}, true));
  }
  return Value::new_view(std::move(items), "dict_" + name);
}

Value bound(const Value& self, const std::string& name,
            Value (*impl)(const std::string&, const Value&, CallArgs&)) {
  return Value::function(name,
                         [self, name, impl](Interp&, CallArgs& a) { return impl(name, self, a); });
}

}  // namespace

Value get_attr(const Value& obj, const std::string& name, int line) {
  switch (obj.kind) {
    case Value::Kind::Undefined:
      fail("'" + (obj.s.empty() ? std::string("value") : obj.s) + "' is undefined (reading ." +
               name + ")",
           line);
    case Value::Kind::String:
      if (obj.markup) fail_unsupported("string methods of a |safe or |escape string", line);
      if (is_python_str_method(name)) return bound(obj, name, str_method);
      return Value::undefined(name);
    case Value::Kind::Dict: {
      if (name == "items" || name == "keys" || name == "values" || name == "get") {
        return bound(obj, name, dict_method);
      }
      if (name == "copy" || name == "fromkeys")
        fail_unsupported("dict method '" + name + "'", line);
      if (name == "pop" || name == "popitem" || name == "clear" || name == "update" ||
          name == "setdefault") {
        return Value::undefined(name);  // the sandbox hides methods that modify
      }
      const Value* v = obj.dict->find(name);
      return v ? *v : Value::undefined(name);
    }
    case Value::Kind::Namespace: {
      const Value* v = obj.dict->find(name);
      return v ? *v : Value::undefined(name);
    }
    case Value::Kind::List:
      if (name == "count" || name == "index" || name == "copy") {
        fail_unsupported("list method '" + name + "'", line);
      }
      return Value::undefined(name);
    default:
      return Value::undefined(name);
  }
}

Value get_item(Interp& in, const Value& obj, const Value& key, int line) {
  if (obj.is_undefined()) {
    fail("'" + (obj.s.empty() ? std::string("value") : obj.s) + "' is undefined (indexed with [" +
             py_repr(key) + "])",
         line);
  }
  if (obj.is_list() && (obj.list->view == "generator" || obj.list->view.rfind("dict_", 0) == 0)) {
    return Value::undefined("[" + py_repr(key) + "]");  // not subscriptable: Jinja2 gives undefined
  }
  if (obj.markup) fail_unsupported("indexing a |safe or |escape string", line);
  if (key.is_int_like() && (obj.is_list() || obj.is_string())) {
    int64_t k = key.as_int();
    if (obj.is_list()) {
      const auto n = static_cast<int64_t>(obj.list->items.size());
      if (k < 0) k += n;
      if (k < 0 || k >= n) return Value::undefined("[" + std::to_string(key.as_int()) + "]");
      return obj.list->items[static_cast<size_t>(k)];
    }
    const std::vector<uint32_t> cps = to_code_points(obj.s);
    const auto n = static_cast<int64_t>(cps.size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) return Value::undefined("[" + std::to_string(key.as_int()) + "]");
    return Value::string(from_code_points(cps, static_cast<size_t>(k), static_cast<size_t>(k) + 1));
  }
  if (obj.is_dict() && key.is_string()) {
    if (const Value* v = obj.dict->find(key.s)) return *v;
  }
  (void)in;
  if (key.is_string()) return get_attr(obj, key.s, line);  // Jinja2 falls back to the attribute
  return Value::undefined("[" + py_repr(key) + "]");
}

Value get_slice(const Value& obj, const Value* start, const Value* stop, const Value* step,
                int line) {
  const auto bound_of = [&](const Value* v) -> std::optional<int64_t> {
    if (!v || v->is_none()) return std::nullopt;
    if (!v->is_int_like()) fail("slice bounds must be integers", line);
    return v->as_int();
  };
  if (obj.markup) fail_unsupported("slicing a |safe or |escape string", line);
  if (obj.is_string()) {
    const std::vector<uint32_t> cps = to_code_points(obj.s);
    std::string out;
    for (int64_t k : slice_indices(static_cast<int64_t>(cps.size()), bound_of(start),
                                   bound_of(stop), bound_of(step), line)) {
      out += from_code_points(cps, static_cast<size_t>(k), static_cast<size_t>(k) + 1);
    }
    return Value::string(std::move(out));
  }
  if (obj.is_list() && (obj.list->view.empty() || obj.list->view == "range")) {
    std::vector<Value> items;
    for (int64_t k : slice_indices(static_cast<int64_t>(obj.list->items.size()), bound_of(start),
                                   bound_of(stop), bound_of(step), line)) {
      items.push_back(obj.list->items[static_cast<size_t>(k)]);
    }
    Value r = Value::new_list(std::move(items), obj.list->tuple);
    r.list->view = obj.list->view;
    return r;
  }
  if (obj.is_undefined()) fail("'" + obj.s + "' is undefined (sliced)", line);
  // Jinja2 slices with Python's own [a:b] (not its forgiving item lookup): a TypeError.
  fail(std::string("'") + type_name(obj) + "' object cannot be sliced", line);
}

}  // namespace ts::chat
