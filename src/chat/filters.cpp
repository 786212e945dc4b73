// Jinja2's filters (`value|name(args)`), each as Jinja2 3.1 defines it with autoescape off, and
// `tojson` as Hugging Face redefines it (json.dumps, ensure_ascii off, keys kept in order). The
// ones that return Python generators (map, select, selectattr, reject, rejectattr, unique, items,
// reverse of a list) return one-pass "generator" lists, so `|length` of them fails as in Python.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "chat/builtins.h"
#include "chat/filter_helpers.h"
#include "chat/interp.h"
#include "chat/pystr.h"

namespace ts::chat {

using FilterFn = Value (*)(Interp&, Value&, CallArgs&);

// The value an attribute path ("a.b", "0") reaches from `item`, as Jinja2's make_attrgetter.
Value attr_path(Interp& in, Value item, const std::string& path, int line) {
  for (const std::string& part : py_split(path, std::string("."), -1, line)) {
    const bool digits = !part.empty() && std::all_of(part.begin(), part.end(), ::isdigit);
    item =
        get_item(in, item, digits ? Value::integer(std::stoll(part)) : Value::string(part), line);
  }
  return item;
}

// Lower-cases strings for the case-insensitive comparisons of sort, dictsort, unique, min, max.
Value ignore_case(const Value& v, int line) {
  return v.is_string() ? Value::string(py_lower(v.s, line)) : v;
}

int64_t len_of(const Value& v, int line) {
  switch (v.kind) {
    case Value::Kind::Undefined:
      return 0;
    case Value::Kind::String:
      return static_cast<int64_t>(code_point_count(v.s));
    case Value::Kind::List:
      if (v.list->view == "generator") fail("object of type 'generator' has no len()", line);
      return static_cast<int64_t>(v.list->items.size());
    case Value::Kind::Dict:
      return static_cast<int64_t>(v.dict->items.size());
    default:
      fail(std::string("object of type '") + type_name(v) + "' has no len()", line);
  }
}

namespace {

std::string opt_string(const CallArgs& a, size_t pos, const char* name) {
  const Value* v = arg(a, pos, name);
  return v && !v->is_undefined() ? py_str(*v) : "";
}

bool opt_bool(const CallArgs& a, size_t pos, const char* name, bool dflt) {
  const Value* v = arg(a, pos, name);
  return v ? truthy(*v) : dflt;
}

Value f_default(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"default_value", "boolean"}, "default");
  const Value* d = arg(a, 0, "default_value");
  const bool boolean = opt_bool(a, 1, "boolean", false);
  if (v.is_undefined() || (boolean && !truthy(v))) return d ? *d : Value::string("");
  return v;
}

Value f_length(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {}, "length");
  return Value::integer(len_of(v, a.line));
}

Value f_trim(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"chars"}, "trim");
  const Value* c = arg(a, 0, "chars");
  std::optional<std::string> chars;
  if (c && !c->is_none()) chars = py_str(*c);
  return Value::string(py_strip(py_str(v), chars, true, true));
}

Value f_string(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {}, "string");
  if (v.markup) return v;
  return Value::string(py_str(v));
}

Value f_upper(Interp&, Value& v, CallArgs& a) { return Value::string(py_upper(py_str(v), a.line)); }
Value f_lower(Interp&, Value& v, CallArgs& a) { return Value::string(py_lower(py_str(v), a.line)); }
Value f_capitalize(Interp&, Value& v, CallArgs& a) {
  return Value::string(py_capitalize(py_str(v), a.line));
}
Value f_title(Interp&, Value& v, CallArgs& a) {
  return Value::string(jinja_title(py_str(v), a.line));
}

Value f_replace(Interp&, Value& v, CallArgs& a) {
  check_args(a, 2, {"count"}, "replace");
  if (a.pos.size() < 2) fail("replace takes old and new", a.line);
  const Value* c = arg(a, 2, "count");
  int64_t count = -1;
  if (c && !c->is_none()) {
    if (!c->is_int_like()) fail("replace's count must be an integer", a.line);
    count = c->as_int();
  }
  return Value::string(py_replace(py_str(v), py_str(a.pos[0]), py_str(a.pos[1]), count));
}

Value f_list(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {}, "list");
  return Value::new_list(iterate(v, a.line));
}

Value f_join(Interp& in, Value& v, CallArgs& a) {
  check_args(a, 1, {"attribute"}, "join");
  const std::string sep = opt_string(a, 0, "d");
  const Value* attr = arg(a, 1, "attribute");
  std::string out;
  const std::vector<Value> items = iterate(v, a.line);
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) out += sep;
    out += py_str(attr ? attr_path(in, items[k], py_str(*attr), a.line) : items[k]);
    in.check_size(out.size(), a.line);
  }
  return Value::string(std::move(out));
}

Value f_first(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {}, "first");
  const std::vector<Value> items = iterate(v, a.line);
  return items.empty() ? Value::undefined("first item of an empty sequence") : items.front();
}

Value f_last(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {}, "last");
  if (v.is_undefined()) return Value::undefined("last item of an undefined value");
  if (v.is_view("generator")) fail("'generator' object is not reversible", a.line);
  const std::vector<Value> items = iterate(v, a.line);
  return items.empty() ? Value::undefined("last item of an empty sequence") : items.back();
}

Value f_items(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {}, "items");
  std::vector<Value> out;
  if (v.is_undefined()) return Value::new_view({}, "generator");
  if (!v.is_dict()) fail("|items needs a mapping", a.line);
  for (const auto& kv : v.dict->items)
    out.push_back(Value::new_list({Value::string(kv.first), kv.second}, true));
  return Value::new_view(std::move(out), "generator");
}

Value f_tojson(Interp& in, Value& v, CallArgs& a) {
  check_args(a, 0, {"ensure_ascii", "indent", "separators", "sort_keys"}, "tojson");
  JsonOptions o;
  o.ensure_ascii = opt_bool(a, 0, "ensure_ascii", false);
  if (const Value* ind = arg(a, 1, "indent"); ind && !ind->is_none()) {
    if (ind->is_string()) {
      o.indent = 0;
      o.indent_text = ind->s;
    } else if (ind->is_int_like()) {
      o.indent = static_cast<int>(std::clamp<int64_t>(ind->as_int(), 0, 64));
      o.indent_text = std::string(static_cast<size_t>(o.indent), ' ');
    } else {
      fail("tojson's indent must be an integer or a string", a.line);
    }
  }
  o.item_sep = o.indent >= 0 ? "," : ", ";
  if (const Value* sep = arg(a, 2, "separators"); sep && !sep->is_none()) {
    if (!sep->is_list() || sep->list->items.size() != 2 || !sep->list->items[0].is_string() ||
        !sep->list->items[1].is_string()) {
      fail("tojson's separators must be two strings", a.line);
    }
    o.item_sep = sep->list->items[0].s;
    o.key_sep = sep->list->items[1].s;
  }
  o.sort_keys = opt_bool(a, 3, "sort_keys", false);
  std::string out = to_json(v, o, a.line);
  in.check_size(out.size(), a.line);
  return Value::string(std::move(out));
}

Value f_int(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"default", "base"}, "int");
  const Value* d = arg(a, 0, "default");
  const Value dflt = d ? *d : Value::integer(0);
  if (const Value* b = arg(a, 1, "base"); b && !(b->is_int_like() && b->as_int() == 10)) {
    fail_unsupported("|int with a base other than 10", a.line);
  }
  if (v.is_int_like()) return Value::integer(v.as_int());
  if (v.kind == Value::Kind::Float) {
    if (std::isnan(v.f)) return dflt;
    if (std::fabs(v.f) >= 9.2e18)
      fail_unsupported("|int of a float beyond 64-bit integers", a.line);
    return Value::integer(static_cast<int64_t>(v.f));
  }
  if (!v.is_string()) return dflt;
  const std::string s = py_strip(v.s, std::nullopt, true, true);
  if (s.find('_') != std::string::npos) fail_unsupported("'_' in a number read by |int", a.line);
  const std::string& digits = s;
  char* end = nullptr;
  if (!digits.empty()) {
    errno = 0;
    const long long x = std::strtoll(digits.c_str(), &end, 10);
    if (*end == 0 && errno == 0 && std::isdigit(static_cast<unsigned char>(digits.back())))
      return Value::integer(x);
  }
  const double f = std::strtod(s.c_str(), &end);  // Jinja2 then tries int(float(s))
  if (s.empty() || *end != 0 || s.find_first_of("xXpP") != std::string::npos || std::isnan(f)) {
    return dflt;
  }
  if (std::fabs(f) >= 9.2e18) fail_unsupported("|int of a number beyond 64-bit integers", a.line);
  return Value::integer(static_cast<int64_t>(f));
}

Value f_float(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"default"}, "float");
  const Value* d = arg(a, 0, "default");
  const Value dflt = d ? *d : Value::number(0.0);
  if (v.is_number()) return Value::number(v.as_double());
  if (!v.is_string()) return dflt;
  const std::string s = py_strip(v.s, std::nullopt, true, true);
  char* end = nullptr;
  const double f = std::strtod(s.c_str(), &end);
  if (s.find('_') != std::string::npos) fail_unsupported("'_' in a number read by |float", a.line);
  if (s.empty() || *end != 0 || s.find_first_of("xXpP") != std::string::npos) return dflt;
  return Value::number(f);
}

Value f_abs(Interp&, Value& v, CallArgs& a) {
  if (v.kind == Value::Kind::Float) return Value::number(std::fabs(v.f));
  if (v.is_int_like()) {
    if (v.as_int() == INT64_MIN) fail_unsupported("integers beyond 64 bits", a.line);
    return Value::integer(std::llabs(v.as_int()));
  }
  fail(std::string("bad operand type for abs(): '") + type_name(v) + "'", a.line);
}

Value f_round(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"precision", "method"}, "round");
  const Value* p = arg(a, 0, "precision");
  const int64_t prec = p ? (p->is_int_like() ? p->as_int() : -1000) : 0;
  if (prec < 0 || prec > 15) fail_unsupported("|round with this precision", a.line);
  const Value* mv = arg(a, 1, "method");
  const std::string method = mv ? py_str(*mv) : "common";
  if (!v.is_number()) fail(std::string("|round needs a number, not ") + type_name(v), a.line);
  if (method == "common") {
    if (v.is_int_like()) return Value::integer(v.as_int());  // Python's round(int, n) is the int
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(prec), v.f);  // exact, ties to even
    return Value::number(std::strtod(buf, nullptr));
  }
  if (method != "ceil" && method != "floor")
    fail("|round's method must be common, ceil or floor", a.line);
  const double scale = std::pow(10.0, static_cast<double>(prec));
  const double x = v.as_double() * scale;
  return Value::number((method == "ceil" ? std::ceil(x) : std::floor(x)) / scale);
}

Value f_safe(Interp&, Value& v, CallArgs&) {
  Value r = Value::string(py_str(v));
  r.markup = true;
  return r;
}

}  // namespace

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&#34;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

Value f_escape(Interp&, Value& v, CallArgs&) {
  if (v.markup) return v;
  Value r = Value::string(html_escape(py_str(v)));
  r.markup = true;
  return r;
}

Value f_indent(Interp&, Value& v, CallArgs& a) {
  check_args(a, 0, {"width", "first", "blank"}, "indent");
  std::string ind = "    ";
  if (const Value* w = arg(a, 0, "width")) {
    if (w->is_string())
      ind = w->s;
    else if (w->is_int_like())
      ind = std::string(static_cast<size_t>(std::clamp<int64_t>(w->as_int(), 0, 256)), ' ');
    else
      fail("indent's width must be an integer or a string", a.line);
  }
  const bool first = opt_bool(a, 1, "first", false), blank = opt_bool(a, 2, "blank", false);
  // Jinja2 appends "\n" to the value itself: anything but a string fails there.
  if (!v.is_string()) fail(std::string("|indent needs a string, not ") + type_name(v), a.line);
  const std::vector<std::string> lines = py_splitlines(v.s + "\n");
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) {
    if (k) out += "\n";
    if (k && (blank || !lines[k].empty())) out += ind;
    out += lines[k];
  }
  return Value::string(first ? ind + out : out);
}

const std::map<std::string, FilterFn>& simple_filters() {
  static const std::map<std::string, FilterFn> m = {
      {"default", f_default}, {"d", f_default},       {"length", f_length},
      {"count", f_length},    {"trim", f_trim},       {"string", f_string},
      {"upper", f_upper},     {"lower", f_lower},     {"capitalize", f_capitalize},
      {"title", f_title},     {"replace", f_replace}, {"list", f_list},
      {"join", f_join},       {"first", f_first},     {"last", f_last},
      {"items", f_items},     {"tojson", f_tojson},   {"int", f_int},
      {"float", f_float},     {"abs", f_abs},         {"round", f_round},
      {"safe", f_safe},       {"escape", f_escape},   {"e", f_escape},
      {"indent", f_indent}};
  return m;
}

const char* const kSeqFilters[] = {"map",    "select", "reject",   "selectattr", "rejectattr",
                                   "unique", "sort",   "dictsort", "reverse",    "sum",
                                   "min",    "max",    "attr"};

const char* const kJinjaOnlyFilters[] = {"batch",  "center",    "filesizeformat", "forceescape",
                                         "format", "groupby",   "pprint",         "random",
                                         "slice",  "striptags", "truncate",       "urlencode",
                                         "urlize", "wordcount", "wordwrap",       "xmlattr"};

}  // namespace

Support filter_support(std::string_view name) {
  if (simple_filters().count(std::string(name))) return Support::Yes;
  for (const char* n : kSeqFilters)
    if (name == n) return Support::Yes;
  for (const char* n : kJinjaOnlyFilters)
    if (name == n) return Support::JinjaOnly;
  return Support::No;
}

Value apply_filter(Interp& in, const std::string& name, Value subject, CallArgs& args) {
  if (subject.markup && name != "safe" && name != "escape" && name != "e" && name != "string" &&
      name != "length" && name != "count" && name != "tojson" && name != "default" && name != "d") {
    fail_unsupported("filter '" + name + "' on a |safe or |escape string", args.line);
  }
  const auto& m = simple_filters();
  if (const auto it = m.find(name); it != m.end()) return it->second(in, subject, args);
  if (filter_support(name) == Support::No) fail("no filter named '" + name + "'", args.line);
  bool found = false;
  Value r = apply_seq_filter(in, name, subject, args, found);
  if (!found) fail_unsupported("filter '" + name + "'", args.line);
  return r;
}

}  // namespace ts::chat
