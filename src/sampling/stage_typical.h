// Locally typical sampling (typical-p): keep the tokens whose surprise -ln p is closest to the
// distribution's entropy, in that order, until their mass passes p (as llama.cpp defines it).
#pragma once
#include "sampling/stage_param.h"

namespace ts {

struct TypicalP {
  float p = 1.0f;  // 1 = off; in (0, 1]
  TS_STAGE_DESCRIPTOR(TypicalP);
};

}  // namespace ts
