// Raw-model log-probabilities (log_prob.h). The usual case (every logit finite) takes the max
// and the sum of exponentials with packet maths, a fixed tile at a time in index order (no
// dependence on threads): a 152k vocabulary costs a fraction of a millisecond instead of the
// several a scalar std::exp per logit cost on every step. Non-finite logits take the plain loop.
#include "decode/log_prob.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "base/tensor.h"

namespace ts {

namespace {

// The plain loop: non-finite logits (impossible tokens) are skipped.
double log_sum_exp_plain(std::span<const float> logits) {
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

}  // namespace

double log_sum_exp(std::span<const float> logits) {
  using FloatArray = Eigen::Map<const Eigen::ArrayXf>;
  const Eigen::Index n = static_cast<Eigen::Index>(logits.size());
  if (n == 0) return -std::numeric_limits<double>::infinity();
  const FloatArray all(logits.data(), n);  // (vocab_size)
  // x - x is 0 for a finite x and NaN for NaN or an infinity; NaN survives the sum.
  if (!((all - all).sum() == 0.0f)) return log_sum_exp_plain(logits);
  const double m = all.maxCoeff();
  constexpr Eigen::Index kTile = 1024;  // doubles kept in L1 between the exp and the sum
  Eigen::ArrayXd xs(kTile);
  double s = 0;
  for (Eigen::Index i = 0; i < n; i += kTile) {
    const Eigen::Index len = std::min(kTile, n - i);
    xs.head(len) = all.segment(i, len).cast<double>() - m;
    s += xs.head(len).exp().sum();
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
