// Logit bias: a fixed amount added to the logits of chosen token ids (-inf bans a token, but
// never the last possible one). Written "15:-5,16:2.5" in specs and files; at most 16 ids.
#pragma once
#include <array>
#include <utility>

#include "sampling/stage_param.h"

namespace ts {

struct LogitBias {
  static constexpr int kMax = 16;  // entries at most (a fixed array keeps Stage trivially copied)
  std::array<std::pair<int, float>, kMax> bias{};  // (token id, added to its logit); n used
  int n = 0;  // 0 = off
  TS_STAGE_DESCRIPTOR(LogitBias);
};

// "15:-5,16:2.5" <-> the pairs; an error names the bad entry.
std::string logit_bias_text(const LogitBias& s);
Status parse_logit_bias(LogitBias& s, std::string_view text);

}  // namespace ts
