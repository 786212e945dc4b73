// The passes of the fast sampler over the whole vocabulary while every token is still alive:
// max and softmax sums with a vectorised double exp, the best n tokens by a bounded heap, and
// the tokens at or above a value. The vocabulary is cut into chunks fixed by its size alone and
// run on the pool when one is given, so the results never depend on the thread count.
#pragma once
#include <cstddef>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace ts {

class ThreadPool;

// The logits while every token is alive (all finite): value(i) = the override for i if any,
// else double(base[i]) / divisor (divided only after a temperature stage), which is exactly what
// the reference's double state holds for i.
struct DenseLogits {
  std::span<const float> base;               // (vocab_size) the raw logits
  std::vector<std::pair<int, double>> over;  // penalised tokens' values, sorted by id
  double divisor = 1;
  bool divided = false;
  int size() const { return static_cast<int>(base.size()); }
  double value(int i) const;
  double base_value(int i) const {  // ignoring overrides
    return divided ? static_cast<double>(base[i]) / divisor : static_cast<double>(base[i]);
  }
};

struct DenseSums {
  double max = 0;   // max value
  double sum = 0;   // sum of exp(value - max): >= 1
  double xsum = 0;  // sum of exp(value - max) * (value - max) (with_x only)
};

// One pass for the max, one for the sums (a packet exp in double, per chunk in index order,
// chunks added in order). Differs from the reference's index-order sum of std::exp in the last
// bits only (see tests/sampling/test_agreement.cpp).
// known_max: the max value when the caller has it (skips the first pass).
DenseSums dense_sums(const DenseLogits& d, bool with_x, ThreadPool* pool,
                     double known_max = std::numeric_limits<double>::quiet_NaN());
// exp(value - max) * inv for every token (vocab_size), chunks on the pool: the dense softmax
// for walks that reach deep into a flat distribution (top-p past the ranked head, the uncut
// draw). AVX-512: every token, tails and overrides included, through one packet exp (within
// 2 ulp of std::exp, so within the dense records' tolerance), so equal values keep equal
// probabilities; otherwise std::exp.
std::vector<double> dense_probs(const DenseLogits& d, double max, double inv, ThreadPool* pool);
// The n best tokens by value descending, ties by id ascending (all of them if n >= size).
std::vector<int> dense_top(const DenseLogits& d, size_t n, ThreadPool* pool);
// Ids (ascending) whose value is >= lo; may include a few below lo (within 1e-6 relative), the
// caller checks its exact condition on these.
std::vector<int> dense_at_least(const DenseLogits& d, double lo, ThreadPool* pool);
// True when no logit is NaN or infinite (the fast path's precondition); the same pass gives the
// max logit (max may be null).
bool all_finite(std::span<const float> logits, ThreadPool* pool, float* max = nullptr);

}  // namespace ts
