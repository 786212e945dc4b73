// DRY, "don't repeat yourself": when the text so far ends with a sequence that occurred before,
// the token that followed it then is pushed down by multiplier * base^(length - allowed), for a
// repeat of at least `allowed` tokens; breaker tokens end a match (as llama.cpp defines it, with
// breakers given as token ids since the sampler has no tokenizer).
#pragma once
#include <array>

#include "sampling/stage_param.h"

namespace ts {

struct Dry {
  static constexpr int kMaxBreakers = 8;
  float multiplier = 0.0f;  // 0 = off; >= 0
  float base = 1.75f;       // > 1 grows the penalty with the repeat's length
  int allowed = 2;          // repeats shorter than this are free; >= 1
  int last_n = -1;          // how far back to look: -1 = the whole history, 0 = off
  std::array<int, kMaxBreakers> breakers{};  // token ids that end a match; n_breakers used
  int n_breakers = 0;
  TS_STAGE_DESCRIPTOR(Dry);
};

// "13,29" <-> the breakers; an error names the bad entry.
std::string dry_breakers_text(const Dry& s);
Status parse_dry_breakers(Dry& s, std::string_view text);

}  // namespace ts
