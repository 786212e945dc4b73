// Shared helpers for the sampling tests: logits from hand-written probabilities and a chain
// with a single stage. Test-only; not part of the library.
#pragma once
#include <cmath>
#include <vector>

#include "sampling/sampler.h"

namespace ts::test {

inline std::vector<float> logits_of(const std::vector<double>& probs) {
  std::vector<float> out;
  for (double p : probs) out.push_back(static_cast<float>(std::log(p)));
  return out;
}

// Settings whose chain is the one stage `kind`, at its "off" values unless changed.
inline SamplerSettings only(StageKind kind) {
  SamplerSettings s;
  s.chain = {default_stage(kind)};
  return s;
}

}  // namespace ts::test
