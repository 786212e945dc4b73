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
  double xsum = 0;  // sum of exp(value - max) * (value - max)
};

// exp(value - max) for every token (out: vocab_size), the dense softmax's numerators, with the
// sums from the same pass: one pass for the max (skipped when the caller knows it), one for the
// terms, each chunk's sums in index order, chunks added in order. AVX-512: every term through
// one packet exp (within 2 ulp of std::exp; tails and overrides too, so equal values keep equal
// terms), else std::exp. Differs from the reference's index-order sum of std::exp in the last
// bits only (see tests/sampling/test_agreement.cpp).
DenseSums dense_exps(const DenseLogits& d, std::vector<double>& out, ThreadPool* pool,
                     double known_max = std::numeric_limits<double>::quiet_NaN());
// The n best tokens by value descending, ties by id ascending (all of them if n >= size).
std::vector<int> dense_top(const DenseLogits& d, size_t n, ThreadPool* pool);
// Ids (ascending) whose value is >= lo; may include a few below lo (within 1e-6 relative), the
// caller checks its exact condition on these.
std::vector<int> dense_at_least(const DenseLogits& d, double lo, ThreadPool* pool);
// What a cut by probability keeps on the dense state: the ids (ascending) with prob[i] > at, or
// prob[i] == at and i <= last, and their values; the chunks on the pool.
void dense_kept(const DenseLogits& d, std::span<const double> prob, double at, int last,
                std::vector<int>& ids, std::vector<double>& values, ThreadPool* pool);
// The softmax of a large kept set (the sparse state's values, ascending ids): max, then
// prob[j] = exp(v[j] - max) through the same packet exp as dense_probs with sums per fixed chunk
// added in order (xsum for the entropy), then prob *= 1 / sum. Within 2 ulp of std::exp, so
// such a set's records keep the whole vocabulary's tolerance; the chunks never depend on the
// pool. Returns the max and the sums.
DenseSums sparse_softmax(std::span<const double> v, std::vector<double>& prob, ThreadPool* pool);
// v[j] /= t for every j (the IEEE quotient, so the same bits as one at a time), chunks on the
// pool.
void divide_values(std::span<double> v, double t, ThreadPool* pool);
// True when no logit is NaN or infinite (the fast path's precondition); the same pass gives the
// max logit (max may be null).
bool all_finite(std::span<const float> logits, ThreadPool* pool, float* max = nullptr);

}  // namespace ts
