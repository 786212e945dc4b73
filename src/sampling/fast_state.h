// The working state of the fast sampler chain (fast_chain.h): dense while every token is alive
// (a DenseLogits view of the raw floats, its sums and best-n ranking cached until a value
// changes), sparse after a cut (the alive ids ascending, their values in double). Probabilities,
// ranking and entropy use the reference's arithmetic on the sparse state (stages.cpp).
#pragma once
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "sampling/dense_scan.h"

namespace ts {

// A kept set up to this long is handled with the reference's arithmetic, bit for bit (top-k 40,
// min-p, top-p on a peaked distribution); past it as the whole vocabulary (large()).
inline constexpr size_t kExactKept = 4096;

class FastState {
 public:
  // raw_max: the max raw logit (from all_finite's pass).
  FastState(std::span<const float> logits, double raw_max, ThreadPool* pool);
  // Hands its buffers back to this thread's scratch (their capacity stays for the next step).
  ~FastState();
  FastState(const FastState&) = delete;
  FastState& operator=(const FastState&) = delete;

  bool dense() const { return dense_; }
  int vocab() const { return d_.size(); }
  const DenseLogits& dense_logits() const { return d_; }
  ThreadPool* pool() const { return pool_; }
  int n_alive() const { return dense_ ? d_.size() : static_cast<int>(ids_.size()); }
  bool alive(int id) const { return dense_ || index_of(id) >= 0; }
  // The value of an alive token.
  double value(int id) const { return dense_ ? d_.value(id) : v_[index_of(id)]; }
  // Sparse: the alive ids ascending.
  const std::vector<int>& ids() const { return ids_; }

  // The best min(n, alive) alive ids (at least that many) by value descending, ties by id.
  const std::vector<int>& ranked(size_t n);
  // Softmax over the alive tokens, as stages.cpp's softmax_alive: p of an alive token.
  double p(int id);
  // Entropy in bits of that softmax (dense: log2 S - sum(e x) / (S ln 2) from the sums' pass).
  double entropy();
  // Dense: max and softmax sums (and sum of e x, for the entropy).
  const DenseSums& sums();
  // Dense: exp(value - max) of every token, divided by sums().sum a probability (one pass with
  // the sums, kept until a value changes).
  const std::vector<double>& dense_terms();
  // Sparse: the probabilities, aligned with ids().
  const std::vector<double>& sparse_probs();
  // Sparse: their sum as the draw scales by (large sets: S x (1 / S), as the dense draw).
  double sparse_total();
  // A sparse set longer than kExactKept: its softmax, entropy and draw take the whole
  // vocabulary's arithmetic (packet exp, chunked sums, the crossing by bucket masses), within
  // 1 ulp of the reference instead of bit for bit.
  bool large() const { return !dense_ && ids_.size() > kExactKept; }

  // Dense: empty buffers for a cut to fill and hand to keep_sorted, with the capacity an earlier
  // step left in this thread's scratch (a step's few MB are not faulted in again every step:
  // the Session keeps each step's records, so freed memory is not where the next step lands).
  std::vector<int> take_ids();
  std::vector<double> take_values();

  // Only `keep` (alive ids, any order; ascending costs no sort) stay alive.
  void keep_only(std::vector<int> keep);
  // The same for ids already ascending with their current values alongside (`values[j]` is
  // value(keep[j])), read by the caller's own pass: no lookup per kept token. The ranking stays
  // when every ranked token is kept (a cut below it by value).
  void keep_sorted(std::vector<int> keep, std::vector<double> values);
  // Sets alive tokens' values (`nv` sorted by id). On the dense view the cached ranking and
  // sums are carried over where that stays exact (ranking) or within the last bits (sums),
  // instead of two more passes over the vocabulary.
  void set_values(const std::vector<std::pair<int, double>>& nv);
  // Every alive value divided by t (> 0).
  void divide(double t);

 private:
  int index_of(int id) const;
  void changed();

  ThreadPool* pool_;
  double raw_max_;
  bool dense_ = true;
  DenseLogits d_;
  std::vector<int> ids_;
  std::vector<double> v_;
  bool have_sums_ = false, sums_have_x_ = false, have_terms_ = false;
  DenseSums sums_;
  std::vector<double> terms_;  // dense: exp(value - sums_.max), when have_terms_
  std::vector<int> ranked_;
  bool have_prob_ = false;
  std::vector<double> prob_;
  DenseSums prob_sums_;  // large sets: the softmax's max and sums
};

// A dense ranking is at least this long (top-k 40 and top-p's first try fit in it).
inline constexpr size_t kMinRanked = 64;

}  // namespace ts
