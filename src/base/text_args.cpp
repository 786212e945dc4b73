// Text helpers (see text_args.h).
#include "base/text_args.h"

#include <cctype>

namespace ts {

std::string_view trim_space(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Result<std::string> parse_quoted(std::string_view s, std::string_view& rest) {
  std::string out;
  for (size_t i = 1; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      rest = trim_space(s.substr(i + 1));
      return out;
    }
    if (c == '\\' && i + 1 < s.size()) {
      const char e = s[++i];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
    } else {
      out += c;
    }
  }
  return make_error("missing closing quote");
}

Result<std::string> text_argument(std::string_view rest, const char* what) {
  if (rest.empty()) return make_error(std::string("needs ") + what);
  if (rest.front() != '"') return std::string(rest);
  std::string_view after;
  Result<std::string> t = parse_quoted(rest, after);
  if (!t.ok()) return t;
  if (!after.empty()) return make_error("text after the closing quote");
  if (t->empty()) return make_error(std::string("needs ") + what);
  return t;
}

}  // namespace ts
