// "Sample this step n times": the step at the cursor drawn n times from its final distribution
// with RNG stream 1, so the generation's own draws are never disturbed.
#pragma once
#include <vector>

#include "base/error.h"
#include "session/session.h"

namespace ts {

// How often each id was drawn, sorted by count, then id.
struct Histogram {
  int n_samples = 0;
  int step = -1;
  std::vector<int> ids;
  std::vector<int> counts;
  std::vector<float> p;  // the final distribution's probability of each id
};

// Needs record level summary/full (the logits are read from the step's record); uses the
// sampler settings that chose the step.
Result<Histogram> histogram(const Session& s, int n, int lane = 0);

}  // namespace ts
