// Dynamic temperature (llama.cpp's "temp_ext"): a temperature between t - range and t + range
// picked by the distribution's normalised entropy to the power `exponent`: a flat distribution
// gets the hot end, a peaked one the cold end.
#pragma once
#include "sampling/stage_param.h"

namespace ts {

struct DynTemp {
  float t = 1.0f;         // the middle of the range; > 0
  float range = 0.0f;     // 0 = off; >= 0
  float exponent = 1.0f;  // > 0
  TS_STAGE_DESCRIPTOR(DynTemp);
};

}  // namespace ts
