// GPT-2 pre-tokenizer over code points. Mirrors the alternation order of the regex: contractions,
// optional-space letter run, optional-space number run, optional-space "other" run, then
// whitespace (a run followed by more text gives back its last character: \s+(?!\S)).
#include "tokenizer/pretokenize.h"

#include <utf8proc.h>

#include "base/utf8.h"

namespace ts {
namespace {

enum class Cls { End, Letter, Number, Space, Other };

struct Unit {
  uint32_t cp = 0;  // code point (0xFFFFFFFF for an invalid byte or past the end)
  size_t len = 0;   // bytes
  Cls cls = Cls::End;
};

bool is_white_space(uint32_t cp, utf8proc_category_t cat) {
  // Unicode White_Space: U+0009..U+000D, U+0085, and the Zs / Zl / Zp categories.
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cat == UTF8PROC_CATEGORY_ZS ||
         cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

Unit unit_at(std::string_view s, size_t i) {
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
size_t run_end(std::string_view s, size_t p, Cls cls) {
  for (Unit u = unit_at(s, p); u.cls == cls; u = unit_at(s, p)) p += u.len;
  return p;
}

}  // namespace

size_t gpt2_pretoken_end(std::string_view s, size_t pos) {
  const Unit u = unit_at(s, pos);
  if (u.cls == Cls::End) return s.size();

  // 's|'t|'re|'ve|'m|'ll|'d  (ASCII bytes never occur inside multi-byte sequences)
  if (u.cp == '\'' && pos + 1 < s.size()) {
    const char a = s[pos + 1];
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return pos + 2;
    if (pos + 2 < s.size()) {
      const char b = s[pos + 2];
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return pos + 3;
    }
  }

  // " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional single space, then a run.
  const bool lead_space = u.cp == ' ';
  const Cls cls = lead_space ? unit_at(s, pos + 1).cls : u.cls;
  if (cls == Cls::Letter || cls == Cls::Number || cls == Cls::Other) {
    return run_end(s, pos + (lead_space ? 1 : 0), cls);
  }

  // \s+(?!\S) | \s+ : a whitespace run; if text follows, its last character is left for the
  // next pre-token (so " word" keeps its space).
  size_t end = pos, last = pos;
  int count = 0;
  for (Unit w = unit_at(s, end); w.cls == Cls::Space; w = unit_at(s, end)) {
    last = end;
    end += w.len;
    ++count;
  }
  if (count > 1 && end < s.size()) return last;
  if (count > 0) return end;
  return pos + u.len;  // not reached: every character has a class
}

std::vector<std::string_view> gpt2_pretokenize(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = gpt2_pretoken_end(text, pos);
    out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

}  // namespace ts
