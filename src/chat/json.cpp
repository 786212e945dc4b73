// JSON both ways: values as Python's json.dumps writes them (what `tojson` prints: ", " and ": "
// on one line, "," and newlines when indented, floats as repr(), NaN/Infinity spelled as Python
// spells them), and a parsed JSON document (a conversation file) as template values, key order
// kept.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/utf8.h"
#include "chat/builtins.h"
#include "chat/json_value.h"
#include "chat/pystr.h"

namespace ts::chat {

namespace {

void json_string(std::string& out, const std::string& s, bool ensure_ascii) {
  out += '"';
  for (uint32_t cp : to_code_points(s)) {
    char buf[16];
    switch (cp) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (cp < 0x20 || (ensure_ascii && cp > 0x7F)) {
      if (cp >= 0x10000) {
        const uint32_t v = cp - 0x10000;
        std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
      } else {
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      }
      out += buf;
    } else {
      utf8_append(out, cp);
    }
  }
  out += '"';
}

void newline(std::string& out, const JsonOptions& o, int level) {
  out += '\n';
  for (int k = 0; k < level; ++k) out += o.indent_text;
}

void dump(std::string& out, const Value& v, const JsonOptions& o, int level, int line) {
  switch (v.kind) {
    case Value::Kind::None:
      out += "null";
      return;
    case Value::Kind::Bool:
      out += v.b ? "true" : "false";
      return;
    case Value::Kind::Int:
      out += std::to_string(v.i);
      return;
    case Value::Kind::Float:
      if (std::isnan(v.f))
        out += "NaN";
      else if (std::isinf(v.f))
        out += v.f > 0 ? "Infinity" : "-Infinity";
      else
        out += py_float_repr(v.f);
      return;
    case Value::Kind::String:
      json_string(out, v.s, o.ensure_ascii);
      return;
    default:
      break;
  }
  const bool is_seq = v.kind == Value::Kind::List && v.list->view.empty();
  if (!is_seq && v.kind != Value::Kind::Dict) {
    fail(std::string("Object of type ") + type_name(v) + " is not JSON serializable", line);
  }
  const bool indented = o.indent >= 0;
  const size_t n = is_seq ? v.list->items.size() : v.dict->items.size();
  if (n == 0) {
    out += is_seq ? "[]" : "{}";
    return;
  }
  out += is_seq ? '[' : '{';
  std::vector<size_t> order(n);
  for (size_t k = 0; k < n; ++k) order[k] = k;
  if (!is_seq && o.sort_keys) {
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return v.dict->items[a].first < v.dict->items[b].first;
    });
  }
  for (size_t k = 0; k < n; ++k) {
    if (k) out += o.item_sep;
    if (indented) newline(out, o, level + 1);
    if (is_seq) {
      dump(out, v.list->items[order[k]], o, level + 1, line);
    } else {
      const auto& kv = v.dict->items[order[k]];
      json_string(out, kv.first, o.ensure_ascii);
      out += o.key_sep;
      dump(out, kv.second, o, level + 1, line);
    }
  }
  if (indented) newline(out, o, level);
  out += is_seq ? ']' : '}';
}

}  // namespace

std::string to_json(const Value& v, const JsonOptions& opt, int line) {
  std::string out;
  dump(out, v, opt, 0, line);
  return out;
}

Result<Value> value_from_json(const nlohmann::ordered_json& j, int depth) {
  if (depth > 64) return make_error("the JSON nests deeper than 64 levels");
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
      return Value::none();
    case nlohmann::ordered_json::value_t::boolean:
      return Value::boolean(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return Value::integer(j.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned: {
      const uint64_t u = j.get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX)) return make_error("an integer beyond 64 bits");
      return Value::integer(static_cast<int64_t>(u));
    }
    case nlohmann::ordered_json::value_t::number_float:
      return Value::number(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return Value::string(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      std::vector<Value> items;
      for (const auto& x : j) {
        Result<Value> v = value_from_json(x, depth + 1);
        if (!v.ok()) return v.error();
        items.push_back(std::move(v).value());
      }
      return Value::new_list(std::move(items));
    }
    case nlohmann::ordered_json::value_t::object: {
      Value d = Value::new_dict();
      for (const auto& kv : j.items()) {
        Result<Value> v = value_from_json(kv.value(), depth + 1);
        if (!v.ok()) return v.error();
        d.dict->set(kv.key(), std::move(v).value());
      }
      return d;
    }
    default:
      return make_error("binary data in the JSON");
  }
}

}  // namespace ts::chat
