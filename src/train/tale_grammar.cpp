// The tale grammar's expansion: choices, slots, capitals and articles (see tale_grammar.h).
#include "train/tale_grammar.h"

#include <cctype>
#include <vector>

namespace ts {

namespace {

bool is_vowel(char c) {
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

// Index of the ']' or '|' that ends the choice starting at i (depth 0), or t.size().
size_t choice_end(std::string_view t, size_t i) {
  int depth = 0;
  for (; i < t.size(); ++i) {
    if (t[i] == '[') ++depth;
    else if (t[i] == ']') {
      if (depth == 0) return i;
      --depth;
    } else if (t[i] == '|' && depth == 0) return i;
  }
  return t.size();
}

}  // namespace

const std::string& TaleGrammar::get(const std::string& key) const {
  static const std::string kEmpty;
  auto it = vars_.find(key);
  return it == vars_.end() ? kEmpty : it->second;
}

std::string TaleGrammar::expand(std::string_view t) { return fix_articles(expand_raw(t, 0)); }

std::string TaleGrammar::expand_raw(std::string_view t, int depth) {
  std::string s;
  if (depth > 8) return s;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '[') {
      // Collect the alternatives at this level, pick one, expand it.
      std::vector<std::string_view> alts;
      size_t j = i + 1;
      while (true) {
        const size_t e = choice_end(t, j);
        alts.push_back(t.substr(j, e - j));
        if (e >= t.size() || t[e] == ']') {
          i = e;
          break;
        }
        j = e + 1;
      }
      s += expand_raw(alts[below(alts.size())], depth + 1);
    } else if (c == '{') {
      const size_t end = t.find('}', i);
      if (end == std::string_view::npos) break;
      std::string key(t.substr(i + 1, end - i - 1));
      const bool cap = !key.empty() && std::isupper(static_cast<unsigned char>(key[0]));
      if (cap) key[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(key[0])));
      std::string v = expand_raw(get(key), depth + 1);
      if (cap && !v.empty()) v[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(v[0])));
      s += v;
      i = end;
    } else {
      s += c;
    }
  }
  return s;
}

void TaleGrammar::say_one(std::string_view t) {
  out_ += expand(t);
  out_ += ' ';
}

void TaleGrammar::paragraph() {
  while (!out_.empty() && out_.back() == ' ') out_.pop_back();
  out_ += "\n\n";
}

std::string TaleGrammar::finish() {
  while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\n')) out_.pop_back();
  // Empty choices can leave double spaces or a space before punctuation.
  std::string s;
  for (size_t i = 0; i < out_.size(); ++i) {
    const char c = out_[i];
    if (c == ' ' && !s.empty() && s.back() == ' ') continue;
    if ((c == ',' || c == '.' || c == '!' || c == '?') && !s.empty() && s.back() == ' ') s.pop_back();
    s += c;
  }
  return s;
}

std::string fix_articles(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool word_start = i == 0 || !std::isalpha(static_cast<unsigned char>(s[i - 1]));
    if ((c == 'a' || c == 'A') && word_start && i + 2 < s.size() && s[i + 1] == ' ' &&
        is_vowel(s[i + 2])) {
      out += c;
      out += 'n';
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace ts
