// Log-probabilities under the raw model: log softmax of the logits (natural log), before any
// sampler stage. What beam search ranks by and what `generate` sums over the chosen tokens.
// NaN and -inf logits are impossible tokens (log p = -inf). Doubles, so sums over long paths
// keep the order of their terms' differences.
#pragma once
#include <span>

namespace ts {

// log Σ exp(logit) over the finite logits (-inf when none is finite).
double log_sum_exp(std::span<const float> logits);
// log softmax(logits)[id] given lse = log_sum_exp(logits); -inf for an impossible token or an
// id outside the vector.
double log_prob(std::span<const float> logits, int id, double lse);
inline double log_prob(std::span<const float> logits, int id) {
  return log_prob(logits, id, log_sum_exp(logits));
}

}  // namespace ts
