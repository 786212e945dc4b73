// The accept test and the residual of speculative sampling (spec_verify.h).
#include "decode/spec_verify.h"

#include <algorithm>

namespace ts {

int spec_draw(std::span<const float> probs, double u) {
  double total = 0;
  for (float x : probs) total += x > 0 ? x : 0.0f;
  if (!(total > 0)) return -1;
  const double at = u * total;
  double cum = 0;
  int last = -1;
  for (size_t i = 0; i < probs.size(); ++i) {
    if (!(probs[i] > 0)) continue;
    cum += probs[i];
    last = static_cast<int>(i);
    if (at < cum) return last;
  }
  return last;  // u * total rounded past the last interval
}

bool spec_accept(float p_x, float q_x, double u) {
  if (!(q_x > 0)) return false;
  return u < std::min(1.0, static_cast<double>(p_x) / static_cast<double>(q_x));
}

double spec_residual(std::span<const float> p, std::span<const float> q, SpecResidual rule,
                     std::vector<float>& out) {
  out.assign(p.size(), 0.0f);
  double mass = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    const double d = static_cast<double>(p[i]) - (i < q.size() ? q[i] : 0.0f);
    if (d > 0) mass += d;
  }
  if (rule == SpecResidual::Target || !(mass > 0)) {
    std::copy(p.begin(), p.end(), out.begin());
    return mass;
  }
  for (size_t i = 0; i < p.size(); ++i) {
    const double d = static_cast<double>(p[i]) - (i < q.size() ? q[i] : 0.0f);
    out[i] = d > 0 ? static_cast<float>(d / mass) : 0.0f;
  }
  return mass;
}

}  // namespace ts
