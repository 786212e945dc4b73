// The LLaMA-3 / Qwen2 pre-tokenizer over code points, alternative by alternative in the regex's
// order: case-insensitive contractions; one optional non-letter/digit/newline before a letter
// run; 1..max_digits digits; optional space + "other" run + trailing newlines; whitespace ending
// in the last newline of its run; then whitespace as in GPT-2.
#include "tokenizer/char_class.h"
#include "tokenizer/pretokenize.h"

namespace ts {

using pretok::Cls;
using pretok::run_end;
using pretok::Unit;
using pretok::unit_at;

namespace {

bool is_newline(uint32_t cp) { return cp == '\r' || cp == '\n'; }
char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

size_t llama3_pretoken_end(std::string_view s, size_t pos, int max_digits) {
  const Unit u = unit_at(s, pos);
  if (u.cls == Cls::End) return s.size();

  // (?i:'s|'t|'re|'ve|'m|'ll|'d)
  if (u.cp == '\'' && pos + 1 < s.size()) {
    const char a = lower_ascii(s[pos + 1]);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return pos + 2;
    if (pos + 2 < s.size()) {
      const char b = lower_ascii(s[pos + 2]);
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return pos + 3;
    }
  }

  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (u.cls == Cls::Letter) return run_end(s, pos, Cls::Letter);
  if (u.cls != Cls::Number && !is_newline(u.cp) && unit_at(s, pos + u.len).cls == Cls::Letter) {
    return run_end(s, pos + u.len, Cls::Letter);
  }

  // \p{N}{1,max_digits}
  if (u.cls == Cls::Number) {
    size_t end = pos;
    int n = 0;
    for (Unit d = u; d.cls == Cls::Number && n < max_digits; d = unit_at(s, end), ++n) end += d.len;
    return end;
  }

  // " ?[^\s\p{L}\p{N}]+[\r\n]*"
  const bool lead_space = u.cp == ' ';
  const size_t run_from = pos + (lead_space ? 1 : 0);
  if (unit_at(s, run_from).cls == Cls::Other) {
    size_t end = run_end(s, run_from, Cls::Other);
    while (end < s.size() && (s[end] == '\r' || s[end] == '\n')) ++end;
    return end;
  }

  // Whitespace: \s*[\r\n]+ ends after the run's last newline; else \s+(?!\S) | \s+ as in GPT-2.
  size_t end = pos, last = pos, after_newline = 0;
  int count = 0;
  for (Unit w = unit_at(s, end); w.cls == Cls::Space; w = unit_at(s, end)) {
    last = end;
    end += w.len;
    ++count;
    if (is_newline(w.cp)) after_newline = end;
  }
  if (after_newline > 0) return after_newline;
  if (count > 1 && end < s.size()) return last;
  if (count > 0) return end;
  return pos + u.len;  // not reached: every character has a class
}

}  // namespace ts
