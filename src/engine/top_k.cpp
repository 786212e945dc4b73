// Top-k selection (see top_k.h): a min-heap of the best k seen so far, then the log-sum-exp of
// the whole vector for the probabilities.
#include "engine/top_k.h"

#include <algorithm>
#include <cmath>

#include "base/tensor.h"

namespace ts {

namespace {

// "a ranks above b": higher logit, then lower id.
bool better(const TokenScore& a, const TokenScore& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

}  // namespace

void top_k_scores(std::span<const float> logits, int k, std::vector<TokenScore>& out) {
  out.clear();
  const int n = static_cast<int>(logits.size());
  k = std::clamp(k, 0, n);
  if (k == 0) return;
  out.reserve(k);
  // std heap with `better` as "less" keeps the worst kept entry at the front.
  float mx = logits[0];
  for (int i = 0; i < n; ++i) {
    const TokenScore cand{i, logits[i], 0.0f};
    mx = std::max(mx, logits[i]);
    if (static_cast<int>(out.size()) < k) {
      out.push_back(cand);
      std::push_heap(out.begin(), out.end(), better);
    } else if (better(cand, out.front())) {
      std::pop_heap(out.begin(), out.end(), better);
      out.back() = cand;
      std::push_heap(out.begin(), out.end(), better);
    }
  }
  // Vectorised exp over the vocabulary (Eigen's packet exp); the sum's rounding is ~1e-7 relative.
  const ConstVecMap all(logits.data(), n);  // (vocab_size)
  const double sum = (all.array() - mx).exp().sum();
  std::sort(out.begin(), out.end(), better);
  for (TokenScore& s : out) s.p = static_cast<float>(std::exp(static_cast<double>(s.logit) - mx) / sum);
}

}  // namespace ts
