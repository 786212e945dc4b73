// The rules for a student's text, by code point, with utf8proc's Unicode categories.
#include "poll/student_text.h"

#include <utf8proc.h>

#include <cstdlib>

#include "base/utf8.h"

namespace ts {
namespace {

// Characters that draw nothing or move other text around: never accepted from a student.
bool refused_char(uint32_t cp) {
  if (cp == 0x200C || cp == 0x200D) return false;  // ZWNJ, ZWJ (emoji, Indic)
  if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF)) return true;  // noncharacters
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_CC:  // C0, DEL, C1 (newlines and tabs too)
    case UTF8PROC_CATEGORY_CF:  // bidi overrides and isolates, zero-width space, BOM, ...
    case UTF8PROC_CATEGORY_ZL:  // U+2028
    case UTF8PROC_CATEGORY_ZP:  // U+2029
    case UTF8PROC_CATEGORY_CS:  // surrogates (cannot pass utf8_valid; kept for clarity)
      return true;
    default:
      return false;
  }
}

}  // namespace

TextProblem check_student_text(std::string_view s, size_t max_chars) {
  if (!utf8_valid(s)) return TextProblem::InvalidUtf8;
  size_t chars = 0;
  bool any_visible = false;
  for (size_t i = 0; i < s.size();) {
    const int n = utf8_seq_len(s, i);
    const uint32_t cp = utf8_decode_at(s, i);
    if (refused_char(cp)) return TextProblem::ControlChar;
    if (cp != ' ') any_visible = true;
    ++chars;
    i += static_cast<size_t>(n);
  }
  if (!any_visible) return TextProblem::Empty;
  if (chars > max_chars) return TextProblem::TooLong;
  return TextProblem::None;
}

const char* text_problem_name(TextProblem p) {
  switch (p) {
    case TextProblem::None:
      return "fine";
    case TextProblem::Empty:
      return "empty";
    case TextProblem::TooLong:
      return "too long";
    case TextProblem::InvalidUtf8:
      return "not valid UTF-8";
    case TextProblem::ControlChar:
      return "contains a control or invisible character";
  }
  return "?";
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::string name_key(std::string_view name) {
  std::string folded(name);
  utf8proc_uint8_t* out = nullptr;
  const utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(name.data()),
                   static_cast<utf8proc_ssize_t>(name.size()), &out,
                   static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE |
                                                  UTF8PROC_COMPAT | UTF8PROC_CASEFOLD));
  if (n >= 0 && out) folded.assign(reinterpret_cast<const char*>(out), static_cast<size_t>(n));
  std::free(out);
  std::string key;
  for (const char c : trim_spaces(folded)) {
    if (c == ' ' && !key.empty() && key.back() == ' ') continue;
    key += c;
  }
  return key;
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  for (const char c : s) {
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
        out += "&quot;";
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

}  // namespace ts
