// Character classes the BPE pre-tokenizers work with: letter (\p{L}), number (\p{N}), white
// space (Unicode White_Space, what \s means here) or other, from utf8proc's categories; an
// invalid UTF-8 byte is one "other" character. Private to src/tokenizer/.
#pragma once
#include <utf8proc.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/utf8.h"

namespace ts::pretok {

enum class Cls { End, Letter, Number, Space, Other };

struct Unit {
  uint32_t cp = 0;  // code point (0xFFFFFFFF for an invalid byte or past the end)
  size_t len = 0;   // bytes
  Cls cls = Cls::End;
};

inline bool is_white_space(uint32_t cp, utf8proc_category_t cat) {
  // Unicode White_Space: U+0009..U+000D, U+0085, and the Zs / Zl / Zp categories.
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cat == UTF8PROC_CATEGORY_ZS ||
         cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

inline Unit unit_at(std::string_view s, size_t i) {
  Unit u;
  if (i >= s.size()) return u;
  const auto c0 = static_cast<uint8_t>(s[i]);
  if (c0 < 0x80) {  // ASCII fast path
    u.cp = c0;
    u.len = 1;
    if ((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z')) {
      u.cls = Cls::Letter;
    } else if (c0 >= '0' && c0 <= '9') {
      u.cls = Cls::Number;
    } else if (c0 == ' ' || (c0 >= 0x09 && c0 <= 0x0D)) {
      u.cls = Cls::Space;
    } else {
      u.cls = Cls::Other;
    }
    return u;
  }
  const int n = utf8_seq_len(s, i);
  if (n == 0) {  // invalid byte: one "other" character
    u.cp = 0xFFFFFFFFu;
    u.len = 1;
    u.cls = Cls::Other;
    return u;
  }
  u.cp = utf8_decode_at(s, i);
  u.len = static_cast<size_t>(n);
  const auto cat = utf8proc_category(static_cast<utf8proc_int32_t>(u.cp));
  switch (cat) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
      u.cls = Cls::Letter;
      break;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      u.cls = Cls::Number;
      break;
    default:
      u.cls = is_white_space(u.cp, cat) ? Cls::Space : Cls::Other;
  }
  return u;
}

// Extends a run of class `cls` starting at byte p; returns its end.
inline size_t run_end(std::string_view s, size_t p, Cls cls) {
  for (Unit u = unit_at(s, p); u.cls == cls; u = unit_at(s, p)) p += u.len;
  return p;
}

}  // namespace ts::pretok
