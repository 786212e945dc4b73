// GPT-2 pre-tokenizer over code points. Mirrors the alternation order of the regex: contractions,
// optional-space letter run, optional-space number run, optional-space "other" run, then
// whitespace (a run followed by more text gives back its last character: \s+(?!\S)). SmolLM's
// splitter isolates digits first, then runs GPT-2's over what lies between.
#include "tokenizer/pretokenize.h"

#include <algorithm>

#include "tokenizer/char_class.h"

namespace ts {

using pretok::Cls;
using pretok::run_end;
using pretok::Unit;
using pretok::unit_at;

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

size_t smollm_pretoken_end(std::string_view s, size_t pos) {
  const Unit u = unit_at(s, pos);
  if (u.cls == Cls::End) return s.size();
  if (u.cls == Cls::Number) return pos + u.len;
  // GPT-2 over the stretch up to the next digit. The GPT-2 rule looks at most one character
  // (<= 4 bytes) past the end it returns, so a digit further on cannot change the answer: search
  // for one only that far.
  const size_t full = gpt2_pretoken_end(s, pos);
  const size_t look = std::min(s.size(), full + 8);
  for (size_t at = pos; at < look;) {
    const Unit w = unit_at(s, at);
    if (w.cls == Cls::Number) return gpt2_pretoken_end(s.substr(0, at), pos);
    at += w.len;
  }
  return full;
}

std::vector<std::string_view> gpt2_pretokenize(std::string_view text) {
  return pretokenize(PreTokenizer::Gpt2, text);
}

bool pre_tokenizer_from_name(std::string_view name, PreTokenizer& out) {
  if (name.empty() || name == "gpt2" || name == "gpt-2" || name == "default") {
    out = PreTokenizer::Gpt2;  // llama.cpp splits "default" like GPT-2
  } else if (name == "llama3" || name == "llama-v3" || name == "llama-bpe") {
    out = PreTokenizer::Llama3;
  } else if (name == "qwen2") {
    out = PreTokenizer::Qwen2;
  } else if (name == "smollm") {
    out = PreTokenizer::Smollm;
  } else {
    return false;
  }
  return true;
}

size_t pretoken_end(PreTokenizer p, std::string_view text, size_t pos) {
  switch (p) {
    case PreTokenizer::Llama3: return llama3_pretoken_end(text, pos, 3);
    case PreTokenizer::Qwen2: return llama3_pretoken_end(text, pos, 1);
    case PreTokenizer::Smollm: return smollm_pretoken_end(text, pos);
    default: return gpt2_pretoken_end(text, pos);
  }
}

std::vector<std::string_view> pretokenize(PreTokenizer p, std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = pretoken_end(p, text, pos);
    out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

}  // namespace ts
