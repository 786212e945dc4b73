// What the engine knows beyond the grammar: Jinja2's filters (`x|trim`), tests (`x is string`),
// the methods of strings and dicts (`s.strip()`, `d.items()`), attribute and item lookup, the
// global functions (range, namespace, raise_exception, ...), the arithmetic and `in` operators,
// and Python's json.dumps for `tojson` (as Hugging Face defines it: ensure_ascii off, keys in
// their order). Names Jinja2 has but this engine does not implement are refused as unsupported.
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

#include "chat/value.h"

namespace ts::chat {

enum class Support { Yes, JinjaOnly, No };
Support filter_support(std::string_view name);
Support test_support(std::string_view name);

Value apply_filter(Interp& in, const std::string& name, Value subject, CallArgs& args);
bool apply_test(Interp& in, const std::string& name, const Value& subject, CallArgs& args);

// obj.name (Jinja2 tries the Python attribute first, then the item) and obj[key].
Value get_attr(const Value& obj, const std::string& name, int line);
Value get_item(Interp& in, const Value& obj, const Value& key, int line);
// obj[start:stop:step]; missing parts are absent.
Value get_slice(const Value& obj, const Value* start, const Value* stop, const Value* step,
                int line);

// The globals every template sees: range, namespace, dict, raise_exception, and the Jinja2
// helpers the engine refuses (cycler, joiner, lipsum).
struct Scope;
void add_builtin_globals(Scope& scope);

// Binary arithmetic (+ - * / // % **), unary minus, and `item in container`.
Value arith(Interp& in, const std::string& op, const Value& a, const Value& b, int line);
Value negate(const Value& v, int line);
bool contains(const Value& container, const Value& item, int line);

struct JsonOptions {
  bool ensure_ascii = false;
  int indent = -1;          // < 0: one line
  std::string indent_text;  // when given as a string
  std::string item_sep;     // defaults as Python: ", " (one line) or "," (indented)
  std::string key_sep = ": ";
  bool sort_keys = false;
};
std::string to_json(const Value& v, const JsonOptions& opt, int line);

// The keyword or positional argument `name` (position `pos`), or nullptr.
const Value* arg(const CallArgs& args, size_t pos, const char* name);
// Fails when a call has more positional arguments than `max_pos` or a keyword not in `names`.
void check_args(const CallArgs& args, size_t max_pos, std::initializer_list<const char*> names,
                const std::string& what);

}  // namespace ts::chat
