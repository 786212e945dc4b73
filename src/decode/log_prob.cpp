// Raw-model log-probabilities (log_prob.h).
#include "decode/log_prob.h"

#include <cmath>
#include <limits>

namespace ts {

double log_sum_exp(std::span<const float> logits) {
  double m = -std::numeric_limits<double>::infinity();
  for (float x : logits) {
    if (std::isfinite(x) && x > m) m = x;
  }
  if (!std::isfinite(m)) return m;
  double s = 0;
  for (float x : logits) {
    if (std::isfinite(x)) s += std::exp(static_cast<double>(x) - m);
  }
  return m + std::log(s);
}

double log_prob(std::span<const float> logits, int id, double lse) {
  if (id < 0 || static_cast<size_t>(id) >= logits.size() || !std::isfinite(logits[id]) ||
      !std::isfinite(lse)) {
    return -std::numeric_limits<double>::infinity();
  }
  return static_cast<double>(logits[id]) - lse;
}

}  // namespace ts
