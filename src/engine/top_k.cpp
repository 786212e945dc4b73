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
  const ConstVecMap all(logits.data(), n);  // (vocab_size)
  // std heap with `better` as "less" keeps the worst kept entry at the front. Once the heap is
  // full, a block of 16 whose maximum does not beat the front is skipped whole (its ids are all
  // higher than any kept one, so an equal logit does not beat it either): one vectorised max per
  // block instead of 16 scalar comparisons, for nearly every block of a large vocabulary.
  namespace ei = Eigen::internal;
  using Packet = ei::packet_traits<float>::type;
  constexpr int kLanes = ei::packet_traits<float>::size;
  constexpr int kBlock = 16;
  static_assert(kBlock % kLanes == 0);
  auto block_max = [&](int i) {  // max of logits[i, i + kBlock), packet-wide
    Packet m = ei::ploadu<Packet>(logits.data() + i);
    for (int j = kLanes; j < kBlock; j += kLanes) m = ei::pmax(m, ei::ploadu<Packet>(logits.data() + i + j));
    return ei::predux_max(m);
  };
  auto offer = [&](int i) {
    const TokenScore cand{i, logits[i], 0.0f};
    if (static_cast<int>(out.size()) < k) {
      out.push_back(cand);
      std::push_heap(out.begin(), out.end(), better);
    } else if (better(cand, out.front())) {
      std::pop_heap(out.begin(), out.end(), better);
      out.back() = cand;
      std::push_heap(out.begin(), out.end(), better);
    }
  };
  int i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    if (static_cast<int>(out.size()) == k &&
        block_max(i) <= out.front().logit) {
      continue;
    }
    for (int j = i; j < i + kBlock; ++j) offer(j);
  }
  for (; i < n; ++i) offer(i);
  const float mx = all.maxCoeff();
  // Vectorised exp over the vocabulary (Eigen's packet exp); the sum's rounding is ~1e-7 relative.
  const double sum = (all.array() - mx).exp().sum();
  std::sort(out.begin(), out.end(), better);
  for (TokenScore& s : out) s.p = static_cast<float>(std::exp(static_cast<double>(s.logit) - mx) / sum);
}

}  // namespace ts
