// Top-nσ: keep the tokens whose logit is within n standard deviations of the best logit (the
// mean and deviation over the alive tokens' logits, as llama.cpp defines it).
#pragma once
#include "sampling/stage_param.h"

namespace ts {

struct TopNSigma {
  float n = 0.0f;  // 0 = off; >= 0
  TS_STAGE_DESCRIPTOR(TopNSigma);
};

}  // namespace ts
