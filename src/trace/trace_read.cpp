// JSON -> Trace (schema in docs/trace-schema.md): a checking reader visits the field lists of
// trace_fields.h. Every field is checked for presence and type; a syntax error reports its line
// and column, a schema error the path of the field ("lanes[0].steps[3].token: expected an
// integer"). Writing is in trace_write.cpp.
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>
#include <variant>

#include "base/read_file.h"
#include "base/utf8.h"
#include "trace/trace_fields.h"
#include "trace/trace_json.h"

namespace ts {

using nlohmann::json;

namespace {

struct FieldError {
  std::string path;
  std::string message;
};

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string idx(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const json& field(const json& obj, const std::string& path, const char* key) {
  if (!obj.is_object()) throw FieldError{path, "expected an object"};
  auto it = obj.find(key);
  if (it == obj.end()) throw FieldError{join(path, key), "missing"};
  return *it;
}

int64_t as_int(const json& j, const std::string& path, int64_t lo = INT32_MIN,
               int64_t hi = INT32_MAX) {
  if (!j.is_number_integer()) throw FieldError{path, "expected an integer"};
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    throw FieldError{path, "integer out of range"};
  }
  const int64_t v = j.get<int64_t>();
  if (v < lo || v > hi) {
    throw FieldError{path, "out of range " + std::to_string(lo) + ".." + std::to_string(hi)};
  }
  return v;
}
double as_num(const json& j, const std::string& path) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  throw FieldError{path, "expected a number"};
}
std::string as_string(const json& j, const std::string& path) {
  if (!j.is_string()) throw FieldError{path, "expected a string"};
  return j.get<std::string>();
}
std::string get_string(const json& o, const std::string& p, const char* k) {
  return as_string(field(o, p, k), join(p, k));
}

// A string, or {"hex": "..."} for bytes that are not valid UTF-8.
std::string as_bytes(const json& j, const std::string& path) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object() && j.contains("hex")) {
    const std::string hex = as_string(j["hex"], path + ".hex");
    if (hex.size() % 2) throw FieldError{path + ".hex", "odd number of hex digits"};
    std::string out;
    for (size_t i = 0; i < hex.size(); i += 2) {
      int v = 0;
      for (int d = 0; d < 2; ++d) {
        const char c = hex[i + d];
        int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (x < 0) throw FieldError{path + ".hex", "not a hex digit"};
        v = v * 16 + x;
      }
      out += static_cast<char>(v);
    }
    return out;
  }
  throw FieldError{path, "expected a string or {\"hex\": ...}"};
}
const json& get_array(const json& o, const std::string& p, const char* k) {
  const json& j = field(o, p, k);
  if (!j.is_array()) throw FieldError{join(p, k), "expected an array"};
  return j;
}

const json& tuple(const json& j, const std::string& path, size_t n) {
  if (!j.is_array() || j.size() != n) {
    throw FieldError{path, "expected an array of " + std::to_string(n) + " values"};
  }
  return j;
}

template <class E, class F>
E get_enum(const json& o, const std::string& p, const char* k, int n, F name_of) {
  const std::string s = get_string(o, p, k);
  std::string allowed;
  for (int i = 0; i < n; ++i) {
    if (s == name_of(static_cast<E>(i))) return static_cast<E>(i);
    allowed += (i ? ", " : "") + std::string(name_of(static_cast<E>(i)));
  }
  throw FieldError{join(p, k), "'" + s + "' is not one of: " + allowed};
}

// A value of a field at `path`: integers in their type's range (unsigned: >= 0), numbers (or
// "nan", "inf", "-inf"), booleans, text, arrays of those, and tuple records by position.
template <class T>
void decode(const json& j, const std::string& path, T& v);

struct TupleReader {
  const json& t;
  const std::string& path;
  template <class T>
  void at(size_t i, T& v) {
    decode(t[i], path + "[" + std::to_string(i) + "]", v);
  }
  void bit(size_t i, bool& b) { b = as_int(t[i], path + "[" + std::to_string(i) + "]", 0, 1) == 1; }
};

template <class T>
void decode(const json& j, const std::string& path, T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) throw FieldError{path, "expected true or false"};
    v = j.get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    v = static_cast<T>(as_num(j, path));
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    v = static_cast<uint16_t>(as_int(j, path, 0, 65535));
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) {  // sizes, the seed
    if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<int64_t>() >= 0)) {
      throw FieldError{path, "expected a non-negative integer"};
    }
    v = static_cast<T>(j.get<uint64_t>());
  } else if constexpr (std::is_same_v<T, int>) {
    v = static_cast<int>(as_int(j, path));
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = as_string(j, path);
  } else if constexpr (trace_fields::kArity<T> > 0) {
    TupleReader t{tuple(j, path, trace_fields::kArity<T>), path};
    trace_fields::fields(t, v);
  } else {
    static_assert(trace_fields::kIsVector<T>, "no JSON reading for this type");
    if (!j.is_array()) throw FieldError{path, "expected an array"};
    v.clear();
    v.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
      typename T::value_type x{};
      decode(j[i], idx(path, i), x);
      v.push_back(std::move(x));
    }
  }
}

// The reader side of trace_fields.h's Io protocol: one JSON object at `path`, every field
// checked for presence and type.
struct Reader {
  const json& o;
  std::string path;

  template <class T>
  void operator()(const char* key, T& v) {
    decode(field(o, path, key), join(path, key), v);
  }
  void bytes(const char* key, std::string& s) {
    s = as_bytes(field(o, path, key), join(path, key));
  }
  void bytes(const char* key, std::vector<std::string>& v) {
    const json& a = get_array(o, path, key);
    v.clear();
    for (size_t i = 0; i < a.size(); ++i) v.push_back(as_bytes(a[i], idx(join(path, key), i)));
  }
  template <class E, class F>
  void choice(const char* key, E& e, int n, F name_of) {
    e = get_enum<E>(o, path, key, n, name_of);
  }
  void stage_kinds(const char* key, std::vector<StageKind>& v) {
    const json& a = get_array(o, path, key);
    v.clear();
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string pi = idx(join(path, key), i);
      Result<StageKind> k = parse_stage_kind(as_string(a[i], pi));
      if (!k.ok()) throw FieldError{pi, k.error().message};
      v.push_back(k.value());
    }
  }
  // Optional: [{"kind": "top-k", "k": 40}, ...]
  void chain(const char* key, std::vector<Stage>& stages, bool& has) {
    has = o.contains(key);
    if (!has) return;
    const json& a = get_array(o, path, key);
    stages.clear();
    for (size_t i = 0; i < a.size(); ++i) {
      Reader sub{a[i], idx(join(path, key), i)};
      StageKind kind = StageKind::Temperature;
      sub.choice("kind", kind, kStageCount, stage_name);
      Stage st = default_stage(kind);
      std::visit([&](auto& v) { stage_fields(sub, v); }, st);
      stages.push_back(st);
    }
  }
  template <class R>
  void object(const char* key, R& r) {
    Reader sub{field(o, path, key), join(path, key)};
    trace_fields::fields(sub, r);
  }
  template <class R>
  void objects(const char* key, std::vector<R>& v) {
    const json& a = get_array(o, path, key);
    v.clear();
    for (size_t i = 0; i < a.size(); ++i) {
      Reader sub{a[i], idx(join(path, key), i)};
      R r;
      trace_fields::fields(sub, r);
      v.push_back(std::move(r));
    }
  }
  template <class R>
  void optional(const char* key, bool& has, R& r) {
    has = o.contains(key);
    if (has) object(key, r);
  }
  template <class F>
  void group(const char* key, F&& fill) {
    Reader sub{field(o, path, key), join(path, key)};
    fill(sub);
  }
  void constant(const char* key, const char* text) {
    if (get_string(o, path, key) != text) {
      throw FieldError{join(path, key), std::string("expected \"") + text + "\""};
    }
  }
  template <class T>
  void optional(const char* key, T& v) {  // absent: left as it is
    if (o.is_object() && o.contains(key)) decode(o.at(key), join(path, key), v);
  }
  template <class F>
  void check(const char* key, bool ok, F&& message) {
    if (!ok) throw FieldError{join(path, key), message()};
  }
  // Optional: [[id, bytes], ...], each id inside the vocabulary.
  void piece_table(const char* key, std::map<int, std::string>& m, int vocab_size) {
    if (!o.contains(key)) return;
    const json& ps = get_array(o, path, key);
    for (size_t i = 0; i < ps.size(); ++i) {
      const std::string pi = idx(join(path, key), i);
      if (!ps[i].is_array() || ps[i].size() != 2) throw FieldError{pi, "expected [id, bytes]"};
      const int64_t id = as_int(ps[i][0], pi + "[0]");
      if (id < 0 || id >= vocab_size)
        throw FieldError{pi + "[0]",
                         "token id " + std::to_string(id) + " is outside the vocabulary"};
      m[static_cast<int>(id)] = as_bytes(ps[i][1], pi + "[1]");
    }
  }
};

Trace read_trace(const json& j) {
  Trace t;
  Reader r{j, ""};
  trace_fields::fields(r, t);
  return t;
}

}  // namespace

Result<Trace> parse_trace_json(std::string_view text) {
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // Line and column of the byte where parsing failed.
    const size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    int line = 1, col = 1;
    for (size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    // "[json.exception.parse_error.101] parse error at line 1, column 2: <reason>; last read:
    // '<bytes>'": keep the reason and the bytes, which may be invalid UTF-8, sanitised.
    std::string what = e.what();
    if (const size_t c = what.find(": "); c != std::string::npos) what = what.substr(c + 2);
    what = utf8_sanitize(what);
    return make_error("trace JSON line " + std::to_string(line) + " column " +
                      std::to_string(col) + ": " + what);
  } catch (const json::exception& e) {  // e.g. out_of_range 406: a number like 1e999
    std::string what = e.what();
    if (const size_t c = what.find("] "); c != std::string::npos) what = what.substr(c + 2);
    return make_error("trace JSON: " + utf8_sanitize(what));
  }
  try {
    return read_trace(j);
  } catch (const FieldError& e) {
    return make_error("trace JSON field " + (e.path.empty() ? std::string("(top)") : e.path) +
                      ": " + e.message);
  } catch (const json::exception& e) {  // defensive: a type mismatch not caught above
    return make_error(std::string("trace JSON: ") + e.what());
  }
}

Result<Trace> read_trace_json(const std::string& path) {
  Result<std::string> text = read_regular_file(path, kMaxTraceFileBytes, "trace file");
  if (!text.ok()) return text.error();
  Result<Trace> t = parse_trace_json(text.value());
  if (!t.ok()) return make_error(path + ": " + t.error().message);
  return t;
}

}  // namespace ts
