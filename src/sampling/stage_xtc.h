// XTC, "exclude top choices": with probability `probability` (a coin per step), cut every token
// at or above `threshold` except the least probable of them, so a less obvious but still
// likely token is drawn (as llama.cpp defines it). The coin is recorded with the stage.
#pragma once
#include "sampling/stage_param.h"

namespace ts {

struct Xtc {
  float probability = 0.0f;  // 0 = off; in [0, 1]
  float threshold = 0.1f;    // in [0, 1]; above 0.5 it can never act (two tokens cannot pass it)
  TS_STAGE_DESCRIPTOR(Xtc);
};

}  // namespace ts
