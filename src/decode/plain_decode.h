// The plain loop speculative decoding is measured against: one model, one decode pass per token,
// each token chosen by the sampler (sampler.h's sample(), as the session chooses: step n draws
// u = uniform01(seed, n); mirostat's mu carried from step to step). No records but the tokens,
// their raw log-probabilities and the time.
#pragma once
#include <span>
#include <vector>

#include "base/error.h"
#include "decode/decode_limits.h"
#include "engine/forward.h"
#include "sampling/sampler.h"

namespace ts {

struct PlainResult {
  std::vector<int> tokens;
  std::vector<double> raw_log_p;  // per token: log p under the raw model (natural log)
  StopReason stop = StopReason::None;
  int passes = 0;      // the prefill included
  double seconds = 0;  // the prefill included
};

// `text`: the vocabulary's bytes for the chain's constraint stages (start: set here to the
// prompt's end); empty: those stages cut nothing.
Result<PlainResult> plain_decode(Forward& fwd, std::span<const int> prompt,
                                 const SamplerSettings& s, const DecodeLimits& lim,
                                 const TokenText& text = {});

}  // namespace ts
