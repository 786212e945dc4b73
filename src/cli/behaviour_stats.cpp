// The pure measurements of `tokenscope eval` (behaviour_stats.h): raw-distribution statistics,
// quantiles, the loop detector, word splitting and dictionary rates.
#include "cli/behaviour_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ts {

RawStepStats raw_step_stats(std::span<const float> logits, int chosen) {
  RawStepStats r;
  double max_logit = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < logits.size(); ++i) {
    if (std::isfinite(logits[i]) && logits[i] > max_logit) {
      max_logit = logits[i];
      r.top1_id = static_cast<int>(i);
    }
  }
  if (r.top1_id < 0) return r;
  double z = 0;
  for (float l : logits) {
    if (std::isfinite(l)) z += std::exp(static_cast<double>(l) - max_logit);
  }
  double h = 0;
  for (float l : logits) {
    if (!std::isfinite(l)) continue;
    const double p = std::exp(static_cast<double>(l) - max_logit) / z;
    if (p > 0) h -= p * std::log2(p);
  }
  r.top1_p = static_cast<float>(1.0 / z);
  r.entropy_bits = static_cast<float>(std::max(0.0, h));
  if (chosen >= 0 && chosen < static_cast<int>(logits.size()) && std::isfinite(logits[chosen])) {
    r.chosen_p = static_cast<float>(std::exp(static_cast<double>(logits[chosen]) - max_logit) / z);
  }
  return r;
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

StepSummary summarize_steps(std::span<const RawStepStats> steps) {
  StepSummary s;
  s.steps = static_cast<int>(steps.size());
  std::vector<double> h;
  int confident = 0;
  for (const RawStepStats& st : steps) {
    h.push_back(st.entropy_bits);
    confident += st.top1_p > kConfidentP;
  }
  s.confident_pct = s.steps > 0 ? 100.0 * confident / s.steps : 0.0;
  s.entropy_median = quantile(h, 0.5);
  s.entropy_p90 = quantile(h, 0.9);
  return s;
}

LoopMatch find_loop(std::span<const int> ids, int n, int repeats, int window) {
  LoopMatch m;
  if (n <= 0 || repeats <= 0) return m;
  std::map<std::vector<int>, std::vector<int>> starts;  // n-gram -> its start positions
  for (int s = 0; s + n <= static_cast<int>(ids.size()); ++s) {
    std::vector<int> gram(ids.begin() + s, ids.begin() + s + n);
    std::vector<int>& at = starts[gram];
    at.push_back(s);
    if (static_cast<int>(at.size()) < repeats) continue;
    const int first = at[at.size() - static_cast<size_t>(repeats)];
    if (s + n - first <= window) {  // tokens first .. s + n - 1
      m.found = true;
      m.first = first;
      m.completed_at = s + n - 1;
      m.ngram = std::move(gram);
      return m;
    }
  }
  return m;
}

namespace {

bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Length of an apostrophe at text[i] (1 for ', 3 for U+2019), else 0.
size_t apostrophe_at(std::string_view text, size_t i) {
  if (text[i] == '\'') return 1;
  if (text.substr(i, 3) == "\xE2\x80\x99") return 3;
  return 0;
}

std::string lower(std::string_view w) {
  std::string s(w);
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

bool in_dict(const WordSet& dict, std::string_view w) {
  return dict.count(std::string(w)) > 0 || dict.count(lower(w)) > 0;
}

bool is_clitic(std::string_view w) {
  const std::string l = lower(w);
  return l == "s" || l == "t" || l == "d" || l == "m" || l == "ll" || l == "re" || l == "ve";
}

}  // namespace

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (is_letter(c)) {
      cur += static_cast<char>(c);
      ++i;
      continue;
    }
    const size_t a = cur.empty() ? 0 : apostrophe_at(text, i);
    if (a > 0 && i + a < text.size() && is_letter(static_cast<unsigned char>(text[i + a]))) {
      cur += '\'';
      i += a;
      continue;
    }
    if (!cur.empty()) words.push_back(std::move(cur));
    cur.clear();
    ++i;
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

WordSet parse_word_list(std::string_view text) {
  WordSet set;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) set.emplace(line);
    start = end + 1;
  }
  return set;
}

bool is_dictionary_word(const WordSet& dict, std::string_view word) {
  if (word.empty()) return false;
  if (in_dict(dict, word)) return true;
  if (word.find('\'') == std::string_view::npos) return false;
  size_t start = 0;
  bool first = true;
  while (start <= word.size()) {
    size_t end = word.find('\'', start);
    if (end == std::string_view::npos) end = word.size();
    const std::string_view part = word.substr(start, end - start);
    if (part.empty()) return false;
    if (!in_dict(dict, part) && (first || !is_clitic(part))) return false;
    first = false;
    start = end + 1;
  }
  return true;
}

WordStats word_stats(const WordSet& dict, std::span<const std::string> texts, int top) {
  WordStats s;
  std::map<std::string, int> unknown;
  for (const std::string& t : texts) {
    for (const std::string& w : split_words(t)) {
      ++s.words;
      if (is_dictionary_word(dict, w)) {
        ++s.dictionary_words;
      } else {
        ++unknown[lower(w)];
      }
    }
  }
  s.dictionary_pct = s.words > 0 ? 100.0 * s.dictionary_words / s.words : 0.0;
  s.top_unknown.assign(unknown.begin(), unknown.end());  // alphabetical
  std::stable_sort(s.top_unknown.begin(), s.top_unknown.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (static_cast<int>(s.top_unknown.size()) > top) s.top_unknown.resize(std::max(0, top));
  return s;
}

std::string escape_control(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace ts
