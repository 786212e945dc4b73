// The constraint stages: the generated text must stay on the way to a match. "one-of" allows
// exactly one of a few phrases ("yes|no|maybe"); "regex" a regular expression (text_regex.h).
// At each step every alive token whose bytes, appended to the text generated so far, could no
// longer become a match is cut, and so is the end of text until the text is a match; the
// probability mass that removed is recorded. Both read the vocabulary's bytes from the
// StageContext (TokenText); without them, or when no token fits, they change nothing and say so.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "sampling/stage_param.h"
#include "sampling/text_regex.h"

namespace ts {

// A stage's text parameter in a fixed array (Stage stays trivially copied): at most kMax bytes.
struct StageText {
  static constexpr int kMax = 95;
  std::array<char, kMax + 1> bytes{};
  int n = 0;
  std::string_view view() const;
  Status set(std::string_view text, const char* field);
  bool operator==(const StageText&) const = default;
};

struct OneOf {
  StageText phrases;  // "yes|no|maybe"; empty = off
  TS_STAGE_DESCRIPTOR(OneOf);
};

struct Regex {
  StageText pattern;  // empty = off
  TS_STAGE_DESCRIPTOR(Regex);
};

std::string one_of_text(const OneOf& s);
Status parse_one_of(OneOf& s, std::string_view text);
std::string regex_text(const Regex& s);
Status parse_regex(Regex& s, std::string_view text);

// What a constraint stage lets through, as the automaton it runs, for a search that applies
// the stage's rule itself (beam search: beam_search.h): none when the stage is off or its
// pattern does not compile.
std::optional<TextRegex> constraint_regex(const OneOf& s);
std::optional<TextRegex> constraint_regex(const Regex& s);

}  // namespace ts
