// GgufValue constructors, conversions and the short printable form used by `tokenscope info`
// and the model picker.
#include "formats/gguf_value.h"

#include <cstdio>

#include "base/utf8.h"

namespace ts {

const char* gguf_value_type_name(GgufValueType t) {
  switch (t) {
    case GgufValueType::UInt8:
      return "uint8";
    case GgufValueType::Int8:
      return "int8";
    case GgufValueType::UInt16:
      return "uint16";
    case GgufValueType::Int16:
      return "int16";
    case GgufValueType::UInt32:
      return "uint32";
    case GgufValueType::Int32:
      return "int32";
    case GgufValueType::Float32:
      return "float32";
    case GgufValueType::Bool:
      return "bool";
    case GgufValueType::String:
      return "string";
    case GgufValueType::Array:
      return "array";
    case GgufValueType::UInt64:
      return "uint64";
    case GgufValueType::Int64:
      return "int64";
    case GgufValueType::Float64:
      return "float64";
  }
  return "unknown";
}

bool gguf_value_type_valid(uint32_t t) { return t <= 12; }

size_t gguf_scalar_size(GgufValueType t) {
  switch (t) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::Bool:
      return 1;
    case GgufValueType::UInt16:
    case GgufValueType::Int16:
      return 2;
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::Float32:
      return 4;
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
    case GgufValueType::Float64:
      return 8;
    case GgufValueType::String:
    case GgufValueType::Array:
      return 0;
  }
  return 0;
}

char gguf_value_kind(GgufValueType t) {
  switch (t) {
    case GgufValueType::UInt8:
    case GgufValueType::UInt16:
    case GgufValueType::UInt32:
    case GgufValueType::UInt64:
    case GgufValueType::Bool:
      return 'u';
    case GgufValueType::Int8:
    case GgufValueType::Int16:
    case GgufValueType::Int32:
    case GgufValueType::Int64:
      return 'i';
    case GgufValueType::Float32:
    case GgufValueType::Float64:
      return 'f';
    case GgufValueType::String:
      return 's';
    case GgufValueType::Array:
      return 'a';
  }
  return '?';
}

GgufValue GgufValue::unsigned_of(GgufValueType t, uint64_t v) {
  GgufValue g;
  g.type = t;
  g.u = v;
  return g;
}

GgufValue GgufValue::signed_of(GgufValueType t, int64_t v) {
  GgufValue g;
  g.type = t;
  g.i = v;
  return g;
}

GgufValue GgufValue::f32(float v) {
  GgufValue g;
  g.type = GgufValueType::Float32;
  g.f = v;
  return g;
}

GgufValue GgufValue::f64(double v) {
  GgufValue g;
  g.type = GgufValueType::Float64;
  g.f = v;
  return g;
}

GgufValue GgufValue::boolean(bool v) { return unsigned_of(GgufValueType::Bool, v ? 1 : 0); }

GgufValue GgufValue::str(std::string v) {
  GgufValue g;
  g.type = GgufValueType::String;
  g.s = std::move(v);
  return g;
}

GgufValue GgufValue::strings(std::vector<std::string> v) {
  GgufValue g;
  g.type = GgufValueType::Array;
  g.elem = GgufValueType::String;
  g.arr_s = std::move(v);
  return g;
}

GgufValue GgufValue::unsigned_array(GgufValueType elem, std::vector<uint64_t> v) {
  GgufValue g;
  g.type = GgufValueType::Array;
  g.elem = elem;
  g.arr_u = std::move(v);
  return g;
}

GgufValue GgufValue::signed_array(GgufValueType elem, std::vector<int64_t> v) {
  GgufValue g;
  g.type = GgufValueType::Array;
  g.elem = elem;
  g.arr_i = std::move(v);
  return g;
}

GgufValue GgufValue::float_array(GgufValueType elem, std::vector<double> v) {
  if (elem == GgufValueType::Float32) {
    for (double& x : v) x = static_cast<float>(x);  // what the file will hold
  }
  GgufValue g;
  g.type = GgufValueType::Array;
  g.elem = elem;
  g.arr_f = std::move(v);
  return g;
}

GgufValue GgufValue::bool_array(std::vector<bool> v) {
  return unsigned_array(GgufValueType::Bool, std::vector<uint64_t>(v.begin(), v.end()));
}

GgufValue GgufValue::array_of_arrays(std::vector<GgufValue> v) {
  GgufValue g;
  g.type = GgufValueType::Array;
  g.elem = GgufValueType::Array;
  g.arr_a = std::move(v);
  return g;
}

size_t GgufValue::array_size() const {
  if (!is_array()) return 0;
  switch (gguf_value_kind(elem)) {
    case 'u':
      return arr_u.size();
    case 'i':
      return arr_i.size();
    case 'f':
      return arr_f.size();
    case 's':
      return arr_s.size();
    default:
      return arr_a.size();
  }
}

std::optional<int64_t> GgufValue::as_int() const {
  const char k = gguf_value_kind(type);
  if (k == 'i') return i;
  if (k == 'u' && type != GgufValueType::Bool && u <= static_cast<uint64_t>(INT64_MAX)) {
    return static_cast<int64_t>(u);
  }
  return std::nullopt;
}

std::optional<double> GgufValue::as_float() const {
  switch (gguf_value_kind(type)) {
    case 'f':
      return f;
    case 'i':
      return static_cast<double>(i);
    case 'u':
      return type == GgufValueType::Bool ? std::nullopt
                                         : std::optional<double>(static_cast<double>(u));
    default:
      return std::nullopt;
  }
}

std::optional<bool> GgufValue::as_bool() const {
  if (type == GgufValueType::Bool) return u != 0;
  return std::nullopt;
}

const std::string* GgufValue::as_string() const {
  return type == GgufValueType::String ? &s : nullptr;
}

std::string gguf_printable(std::string_view s, size_t max_chars) {
  const bool cut = s.size() > max_chars;
  const std::string shown = utf8_sanitize(cut ? s.substr(0, max_chars) : s);
  std::string out;
  for (char c : shown) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return cut ? out + "..." : out;
}

bool gguf_name_ok(std::string_view s) {
  if (!utf8_valid(s)) return false;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7F) return false;
  }
  return true;
}

namespace {

std::string quoted(const std::string& s, size_t max_chars) {
  return "\"" + gguf_printable(s, max_chars) + "\"";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

}  // namespace

std::string GgufValue::describe(size_t max_chars) const {
  switch (gguf_value_kind(type)) {
    case 'u':
      return type == GgufValueType::Bool ? (u ? "true" : "false") : std::to_string(u);
    case 'i':
      return std::to_string(i);
    case 'f':
      return number(f);
    case 's':
      return quoted(s, max_chars);
    default:
      break;
  }
  std::string out =
      "[" + std::string(gguf_value_type_name(elem)) + " x " + std::to_string(array_size());
  const size_t n = array_size();
  for (size_t k = 0; k < n && out.size() < max_chars; ++k) {
    out += k == 0 ? ": " : ", ";
    switch (gguf_value_kind(elem)) {
      case 'u':
        out +=
            elem == GgufValueType::Bool ? (arr_u[k] ? "true" : "false") : std::to_string(arr_u[k]);
        break;
      case 'i':
        out += std::to_string(arr_i[k]);
        break;
      case 'f':
        out += number(arr_f[k]);
        break;
      case 's':
        out += quoted(arr_s[k], 16);
        break;
      default:
        out += arr_a[k].describe(max_chars / 2);
        break;
    }
    if (k + 1 < n && out.size() >= max_chars) out += ", ...";
  }
  return out + "]";
}

}  // namespace ts
