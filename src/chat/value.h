// The values a chat template computes with, as Python (and so Jinja2) sees them: undefined, none,
// bool, int, float, string, list (or tuple), dict (insertion-ordered, string keys), namespace and
// callables. Lists and dicts are shared (Python reference semantics), strings are UTF-8. Also the
// one error type the template engine throws inside itself (template.h turns it into an Error).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ts::chat {

// Thrown inside the engine, caught at its public entry points. `line` is the template line (0:
// not tied to one). `unsupported`: a construct the engine does not implement (as opposed to an
// error the template itself makes, which Jinja2 would make too).
struct TemplateError {
  std::string message;
  int line = 0;
  bool unsupported = false;
};
[[noreturn]] void fail(std::string message, int line = 0);
[[noreturn]] void fail_unsupported(std::string what, int line = 0);

struct Value;
struct CallArgs;
class Interp;

struct ListData {
  std::vector<Value> items;
  bool tuple = false;  // printed as (a, b); compared unequal to a list
  // What Python would hold instead of a list: "" (a list or tuple), "dict_items", "dict_keys",
  // "dict_values" (printed as such, not indexable), "generator" (what Jinja2's map, select,
  // selectattr, reject, unique, items and reverse give: always true, no length, one pass only),
  // "range".
  std::string view;
  bool consumed = false;  // a generator already iterated
  int depth = 1;          // nesting: 1 + the deepest list or dict inside
};
struct DictData {
  std::vector<std::pair<std::string, Value>> items;  // insertion order, keys unique
  int depth = 1;        // as ListData::depth (a namespace's values hold no namespace: no cycles)
  bool frozen = false;  // the `loop` object: read like a namespace, never assigned to
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  void set(const std::string& key, Value v);
};
struct FuncData {
  std::string name;
  std::function<Value(Interp&, CallArgs&)> call;
};

struct Value {
  enum class Kind : uint8_t {
    Undefined,
    None,
    Bool,
    Int,
    Float,
    String,
    List,
    Dict,
    Namespace,
    Func
  };

  Kind kind = Kind::Undefined;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;        // String; Undefined: the name that was not found
  bool markup = false;  // a String made by |safe or |escape (Jinja2's Markup): `+` escapes the
                        // other side; string operations on it are refused
  std::shared_ptr<ListData> list;  // List
  std::shared_ptr<DictData> dict;  // Dict, Namespace (its attributes)
  std::shared_ptr<FuncData> func;  // Func

  static Value undefined(std::string name = {});
  static Value none();
  static Value boolean(bool v);
  static Value integer(int64_t v);
  static Value number(double v);
  static Value string(std::string v);
  static Value new_list(std::vector<Value> items = {}, bool tuple = false);
  static Value new_view(std::vector<Value> items, std::string view);
  static Value new_dict();
  static Value new_namespace();
  static Value function(std::string name, std::function<Value(Interp&, CallArgs&)> fn);

  bool is_undefined() const { return kind == Kind::Undefined; }
  bool is_none() const { return kind == Kind::None; }
  bool is_string() const { return kind == Kind::String; }
  bool is_list() const { return kind == Kind::List; }
  bool is_plain_list() const { return kind == Kind::List && list->view.empty(); }
  bool is_view(const char* name) const { return kind == Kind::List && list->view == name; }
  bool is_dict() const { return kind == Kind::Dict; }
  bool is_number() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  bool is_int_like() const { return kind == Kind::Int || kind == Kind::Bool; }
  int64_t as_int() const { return kind == Kind::Bool ? (b ? 1 : 0) : i; }
  double as_double() const { return kind == Kind::Float ? f : static_cast<double>(as_int()); }
};

// How deeply lists and dicts nest in `v` (0 for anything else). Building a value deeper than
// kMaxNesting fails, so printing, comparing, serialising and freeing values never recurse deeper.
constexpr int kMaxNesting = 400;
int nest_depth(const Value& v);
// Fails when `v` is or holds a namespace: storing one in a namespace could make a cycle.
void check_no_namespace(const Value& v, int line);

// Positional and keyword arguments of a call.
struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
  int line = 0;
};

// Python's truth value.
bool truthy(const Value& v);
// Python's str() (what {{ x }} prints; undefined prints nothing) and repr().
std::string py_str(const Value& v);
std::string py_repr(const Value& v);
std::string py_float_repr(double d);
// Python's == (numbers across int/float/bool, deep for lists and dicts; undefined == undefined).
bool py_equal(const Value& a, const Value& b);
// Python's < for numbers, strings and lists; anything else is an error like Python's TypeError.
bool py_less(const Value& a, const Value& b, int line);
// The Python type name used in error messages ("str", "int", "list", "dict", ...).
const char* type_name(const Value& v);

}  // namespace ts::chat
