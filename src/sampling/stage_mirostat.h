// Mirostat v2: aims the surprise (-log2 p) of the drawn tokens at tau. Each step keeps the
// tokens whose surprise is at most mu, then, after the draw, moves mu by eta times the miss:
// mu' = mu - eta * (surprise of the drawn token - tau) (as llama.cpp defines it; mu starts at
// 2 tau). mu is carried from step to step in the step records (StageContext::previous), so a
// rewind or a branch continues from the mu its parent step left.
#pragma once
#include "sampling/stage_param.h"

namespace ts {

struct StageRecord;

struct Mirostat {
  float tau = 0.0f;  // target surprise in bits; 0 = off
  float eta = 0.1f;  // learning rate, > 0
  TS_STAGE_DESCRIPTOR(Mirostat);
  // After the draw: records (or replaces) "mu_next" from the taken token's final probability.
  void after_draw(StageRecord& rec, double chosen_p) const;
};

}  // namespace ts
