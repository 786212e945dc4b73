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

class FastState {
 public:
  // raw_max: the max raw logit (from all_finite's pass).
  FastState(std::span<const float> logits, double raw_max, ThreadPool* pool)
      : pool_(pool), raw_max_(raw_max) {
    d_.base = logits;
  }

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
  // Dense: max and softmax sums (with_x: also sum of e x, for the entropy).
  const DenseSums& sums(bool with_x);
  // Sparse: the probabilities, aligned with ids().
  const std::vector<double>& sparse_probs();

  // Only `keep` (alive ids, any order; ascending costs no sort) stay alive.
  void keep_only(std::vector<int> keep);
  // The same for ids already ascending with their current values alongside (`values[j]` is
  // value(keep[j])), read by the caller's own pass: no lookup per kept token.
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
  bool have_sums_ = false, sums_x_ = false;
  DenseSums sums_;
  std::vector<int> ranked_;
  bool have_prob_ = false;
  std::vector<double> prob_;
};

// A dense ranking is at least this long (top-k 40 and top-p's first try fit in it).
inline constexpr size_t kMinRanked = 64;

}  // namespace ts
