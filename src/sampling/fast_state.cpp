// FastState (fast_state.h): ranking, softmax and entropy of the dense view or the sparse set,
// cutting to a sparse set, penalised values (carrying the dense caches over) and temperature.
#include "sampling/fast_state.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "engine/thread_pool.h"
#include "sampling/prob_order.h"

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
// The vocabulary-sized buffers of the FastStates on this thread, between steps.
struct Scratch {
  std::vector<double> terms, prob, values;
  std::vector<int> ids;
};
thread_local Scratch t_scratch;

template <class V>
V borrowed(V& from) {
  V out;
  out.swap(from);
  out.clear();
  return out;
}
}  // namespace

FastState::FastState(std::span<const float> logits, double raw_max, ThreadPool* pool)
    : pool_(pool), raw_max_(raw_max) {
  d_.base = logits;
  terms_ = borrowed(t_scratch.terms);
  prob_ = borrowed(t_scratch.prob);
  ids_ = borrowed(t_scratch.ids);
  v_ = borrowed(t_scratch.values);
}

FastState::~FastState() {
  // Keep the larger of each pair (a cut moves a filled buffer in, the empty one out).
  auto give_back = [](auto& mine, auto& theirs) {
    if (mine.capacity() > theirs.capacity()) mine.swap(theirs);
  };
  give_back(terms_, t_scratch.terms);
  give_back(prob_, t_scratch.prob);
  give_back(ids_, t_scratch.ids);
  give_back(v_, t_scratch.values);
}

std::vector<int> FastState::take_ids() { return borrowed(ids_); }
std::vector<double> FastState::take_values() { return borrowed(v_); }

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
    const DenseSums& s = sums();
    return std::exp(d_.value(id) - s.max) * (1.0 / s.sum);
  }
  sparse_probs();
  return prob_[index_of(id)];
}

double FastState::entropy() {
  if (dense_) {  // H = log2 S - (sum e x) / (S ln 2), from the same pass as S
    if (!sums_have_x_) dense_terms();
    const DenseSums& s = sums();
    return std::log2(s.sum) - s.xsum / (s.sum * std::numbers::ln2);
  }
  sparse_probs();
  if (large()) {  // as the dense state, from the softmax's own pass
    const DenseSums& q = prob_sums_;
    return std::log2(q.sum) - q.xsum / (q.sum * std::numbers::ln2);
  }
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

const DenseSums& FastState::sums() {
  if (!have_sums_) dense_terms();
  return sums_;
}

const std::vector<double>& FastState::dense_terms() {
  if (!have_terms_) {
    // The raw max holds until a stage changes a value; sums carried over by set_values keep
    // their max, so the terms and the records share it.
    const bool raw = d_.over.empty() && !d_.divided;
    const double known = have_sums_ ? sums_.max
                         : raw      ? raw_max_
                                    : std::numeric_limits<double>::quiet_NaN();
    const DenseSums fresh = dense_exps(d_, terms_, pool_, known);
    if (!have_sums_) sums_ = fresh;
    if (!sums_have_x_) sums_.xsum = fresh.xsum;  // carried sums lack it
    have_sums_ = true;
    sums_have_x_ = true;
    have_terms_ = true;
  }
  return terms_;
}

const std::vector<double>& FastState::sparse_probs() {
  if (!have_prob_ && large()) {
    prob_sums_ = sparse_softmax(v_, prob_, pool_);
    have_prob_ = true;
  } else if (!have_prob_) {
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

double FastState::sparse_total() {
  const std::vector<double>& prob = sparse_probs();
  if (large()) return prob_sums_.sum * (1.0 / prob_sums_.sum);
  double total = 0;  // in the strip's order, as CumulativeStrip
  for (const auto& e : strip_pairs(prob)) total += e.first;
  return total;
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
  // A set that keeps every ranked token keeps the ranking: the same values, and every other
  // kept token was below them.
  std::vector<int> rank = std::move(ranked_);
  for (int id : rank) {
    if (!std::binary_search(keep.begin(), keep.end(), id)) {
      rank.clear();
      break;
    }
  }
  ids_ = std::move(keep);
  v_ = std::move(values);
  dense_ = false;
  changed();
  ranked_ = std::move(rank);  // the same tokens with the same values: the same order
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
    sums_have_x_ = false;
  }
}

void FastState::divide(double t) {
  if (dense_ && d_.divided) {  // not reachable through one chain: hold every token instead
    std::vector<int> all(static_cast<size_t>(d_.size()));
    for (int i = 0; i < d_.size(); ++i) all[i] = i;
    keep_only(std::move(all));
  }
  // x / t keeps the order of the values, but two that differ in the last bits may become equal
  // (then the lower id goes first). So the ranking is kept without its last entry and any entry
  // that ties with it after the division (an unranked token can tie only with those), and the
  // rest re-sorted by (value, id).
  std::vector<int> rank = std::move(ranked_);
  if (dense_) {
    for (auto& [id, x] : d_.over) x /= t;
    d_.divided = true;
    d_.divisor = t;
  } else {
    divide_values(v_, t, pool_);
  }
  changed();
  if (!rank.empty()) {
    const double floor = value(rank.back());
    std::erase_if(rank, [&](int id) { return value(id) == floor; });
    std::vector<std::pair<double, int>> m;
    m.reserve(rank.size());
    for (int id : rank) m.push_back({value(id), id});
    std::sort(m.begin(), m.end(), [](const auto& a, const auto& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    for (size_t r = 0; r < m.size(); ++r) rank[r] = m[r].second;
    rank.resize(m.size());
    ranked_ = std::move(rank);
  }
}

int FastState::index_of(int id) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return it != ids_.end() && *it == id ? static_cast<int>(it - ids_.begin()) : -1;
}

void FastState::changed() {
  have_sums_ = false;
  sums_have_x_ = false;
  have_terms_ = false;
  have_prob_ = false;
  ranked_.clear();
}

}  // namespace ts
