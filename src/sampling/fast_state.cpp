// FastState (fast_state.h): ranking, softmax and entropy of the dense view or the sparse set,
// cutting to a sparse set, penalised values (carrying the dense caches over) and temperature.
#include "sampling/fast_state.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/thread_pool.h"

namespace ts {

namespace {
constexpr double kStateInf = std::numeric_limits<double>::infinity();

// f(j) for every j in [0, n), in fixed chunks on the pool (null: this thread). Each f(j) writes
// only its own slot, so the result never depends on the pool.
template <class F>
void for_each_index(size_t n, ThreadPool* pool, F&& f) {
  constexpr size_t kChunk = 8192;
  const int nc = static_cast<int>((n + kChunk - 1) / kChunk);
  auto body = [&](int c, int) {
    const size_t end = std::min(n, (static_cast<size_t>(c) + 1) * kChunk);
    for (size_t j = static_cast<size_t>(c) * kChunk; j < end; ++j) f(j);
  };
  if (pool && nc > 1) {
    pool->run(nc, body);
  } else {
    for (int c = 0; c < nc; ++c) body(c, nc);
  }
}
}  // namespace

const std::vector<int>& FastState::ranked(size_t n) {
  n = std::min(n, static_cast<size_t>(n_alive()));
  if (ranked_.size() >= n) return ranked_;
  if (dense_) {
    ranked_ = dense_top(d_, std::max({n, kMinRanked, 2 * ranked_.size()}), pool_);
  } else {
    std::vector<int> idx(ids_.size());
    for (size_t j = 0; j < idx.size(); ++j) idx[j] = static_cast<int>(j);
    const size_t m = std::min(idx.size(), std::max({n, kMinRanked, 2 * ranked_.size()}));
    std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(m), idx.end(),
                      [&](int a, int b) { return v_[a] > v_[b] || (v_[a] == v_[b] && a < b); });
    ranked_.resize(m);
    for (size_t r = 0; r < m; ++r) ranked_[r] = ids_[idx[r]];
  }
  return ranked_;
}

double FastState::p(int id) {
  if (dense_) {
    const DenseSums& s = sums(false);
    return std::exp(d_.value(id) - s.max) * (1.0 / s.sum);
  }
  sparse_probs();
  return prob_[index_of(id)];
}

double FastState::entropy() {
  if (dense_) {  // H = log2 S - (sum e x) / (S ln 2), from the same pass as S
    const DenseSums& s = sums(true);
    return std::log2(s.sum) - s.xsum / (s.sum * std::numbers::ln2);
  }
  sparse_probs();
  // As entropy_bits: the logarithms on the pool, then the same expression in index order (the
  // same contraction into a fused multiply-add, if any), zeros skipped.
  std::vector<double> lg(prob_.size());
  for_each_index(prob_.size(), pool_,
                 [&](size_t j) { lg[j] = prob_[j] > 0 ? std::log2(prob_[j]) : 0.0; });
  double h = 0;
  for (size_t j = 0; j < lg.size(); ++j) {
    const double x = prob_[j];
    if (x > 0) h -= x * lg[j];
  }
  return h;
}

const DenseSums& FastState::sums(bool with_x) {
  if (!have_sums_ || (with_x && !sums_x_)) {
    // The raw max holds until a stage changes a value.
    const bool raw = d_.over.empty() && !d_.divided;
    sums_ =
        dense_sums(d_, with_x, pool_, raw ? raw_max_ : std::numeric_limits<double>::quiet_NaN());
    have_sums_ = true;
    sums_x_ = with_x;
  }
  return sums_;
}

const std::vector<double>& FastState::sparse_probs() {
  if (!have_prob_) {
    double m = -kStateInf;
    for (double x : v_) m = std::max(m, x);
    prob_.resize(v_.size());
    for_each_index(v_.size(), pool_, [&](size_t j) { prob_[j] = std::exp(v_[j] - m); });
    double sum = 0;  // in index order, as softmax_alive
    for (double e : prob_) sum += e;
    const double inv = 1.0 / sum;
    for (double& x : prob_) x *= inv;
    have_prob_ = true;
  }
  return prob_;
}

void FastState::keep_only(std::vector<int> keep) {
  if (!std::is_sorted(keep.begin(), keep.end())) std::sort(keep.begin(), keep.end());
  std::vector<double> v(keep.size());
  for (size_t j = 0; j < keep.size(); ++j) v[j] = value(keep[j]);
  ids_ = std::move(keep);
  v_ = std::move(v);
  dense_ = false;
  changed();
}

void FastState::keep_sorted(std::vector<int> keep, std::vector<double> values) {
  ids_ = std::move(keep);
  v_ = std::move(values);
  dense_ = false;
  changed();
}

void FastState::set_values(const std::vector<std::pair<int, double>>& nv) {
  if (nv.empty()) return;
  if (!dense_) {
    for (const auto& [id, x] : nv) v_[index_of(id)] = x;
    changed();
    return;
  }
  auto in_batch = [&](int id) {
    const auto it = std::lower_bound(nv.begin(), nv.end(), std::pair<int, double>(id, -kStateInf));
    return it != nv.end() && it->first == id;
  };
  // Ranking: the old entries that keep their value, merged with the new values. A token not in
  // the old ranking ranks below its last unchanged entry, so the merge is exact down to it.
  std::vector<int> rank;
  bool rank_ok = false;
  const bool complete = ranked_.size() == static_cast<size_t>(d_.size());
  int last_kept = -1, first_kept = -1;  // positions in ranked_ of unchanged tokens
  for (size_t r = 0; r < ranked_.size(); ++r) {
    if (in_batch(ranked_[r])) continue;
    if (first_kept < 0) first_kept = static_cast<int>(r);
    last_kept = static_cast<int>(r);
  }
  if (last_kept >= 0 || (complete && !ranked_.empty())) {
    std::vector<std::pair<double, int>> m;
    for (int id : ranked_) {
      if (!in_batch(id)) m.push_back({d_.value(id), id});
    }
    for (const auto& [id, x] : nv) m.push_back({x, id});
    std::sort(m.begin(), m.end(), [](const auto& a, const auto& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    for (const auto& [x, id] : m) {
      rank.push_back(id);
      if (!complete && id == ranked_[last_kept]) break;
    }
    rank_ok = true;
  }
  // Sums: S' = (S - old terms) e^(m - m') + new terms, unless the changed tokens held half the
  // mass or more (the subtraction would lose bits); m' from the ranking and the new values.
  DenseSums ns;
  bool sums_ok = false;
  if (have_sums_ && first_kept >= 0) {
    double old_terms = 0;
    for (const auto& [id, x] : nv) old_terms += std::exp(d_.value(id) - sums_.max);
    if (old_terms <= 0.5 * sums_.sum) {
      ns.max = d_.value(ranked_[first_kept]);
      for (const auto& [id, x] : nv) ns.max = std::max(ns.max, x);
      ns.sum = (sums_.sum - old_terms) * std::exp(sums_.max - ns.max);
      for (const auto& [id, x] : nv) ns.sum += std::exp(x - ns.max);
      sums_ok = true;
    }
  }
  for (const auto& [id, x] : nv) {
    auto it =
        std::lower_bound(d_.over.begin(), d_.over.end(), std::pair<int, double>(id, -kStateInf));
    if (it != d_.over.end() && it->first == id) {
      it->second = x;
    } else {
      d_.over.insert(it, {id, x});
    }
  }
  changed();
  if (rank_ok) ranked_ = std::move(rank);
  if (sums_ok) {
    sums_ = ns;
    have_sums_ = true;
    sums_x_ = false;
  }
}

void FastState::divide(double t) {
  if (dense_ && d_.divided) {  // not reachable through one chain: hold every token instead
    std::vector<int> all(static_cast<size_t>(d_.size()));
    for (int i = 0; i < d_.size(); ++i) all[i] = i;
    keep_only(std::move(all));
  }
  if (dense_) {
    for (auto& [id, x] : d_.over) x /= t;
    d_.divided = true;
    d_.divisor = t;
  } else {
    for (double& x : v_) x /= t;
  }
  changed();
}

int FastState::index_of(int id) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return it != ids_.end() && *it == id ? static_cast<int>(it - ids_.begin()) : -1;
}

void FastState::changed() {
  have_sums_ = false;
  have_prob_ = false;
  ranked_.clear();
}

}  // namespace ts
