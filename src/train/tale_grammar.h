// A tiny text grammar for the tale generator (tale_gen.h): a template is plain text with
// `{key}` slots (a variable; `{Key}` capitalises its value), `[a|b|c]` choices (one picked
// uniformly; choices nest and may be empty, as in `[very |]`) and nothing else. After expansion,
// "a" before a vowel becomes "an". Deterministic for a given RNG state; no std distributions.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "base/rng.h"

namespace ts {

class TaleGrammar {
 public:
  explicit TaleGrammar(uint64_t seed) : rng_(seed) {}

  void set(const std::string& key, std::string value) { vars_[key] = std::move(value); }
  const std::string& get(const std::string& key) const;
  bool chance(double p) { return rng_.uniform() < p; }
  size_t below(size_t n) { return static_cast<size_t>(rng_.below(n)); }

  // Expands one template (choices, slots, articles); returns the text.
  std::string expand(std::string_view t);
  // Expands a template chosen uniformly from `n` and appends it to the story, then a space.
  template <size_t N>
  void say(const char* const (&n)[N]) { say_one(n[below(N)]); }
  void say_one(std::string_view t);
  void paragraph();
  std::string finish();

 private:
  std::string expand_raw(std::string_view t, int depth);
  SplitMix rng_;
  std::map<std::string, std::string> vars_;
  std::string out_;
};

// "a" / "A" before a word that starts with a vowel letter becomes "an" / "An".
std::string fix_articles(const std::string& s);

}  // namespace ts
