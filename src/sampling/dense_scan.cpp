// The vocabulary-wide passes of the fast sampler (dense_scan.h): chunked over a ThreadPool, each
// chunk walking runs of tokens without an override with Eigen packet maths (float max, double
// exp) and the few penalised tokens one by one, in index order.
#include "sampling/dense_scan.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/tensor.h"  // Eigen, with GCC 12's false AVX-512 warnings silenced
#include "engine/thread_pool.h"

namespace ts {

namespace {

constexpr double kScanInf = std::numeric_limits<double>::infinity();
using FloatArray = Eigen::Map<const Eigen::ArrayXf>;

// Chunks depend only on the vocabulary size, so a pool (or none) never changes a result.
int chunk_count(int n) { return n < 16384 ? 1 : 2 * ((n + 16383) / 16384); }

template <class F>
void for_chunks(int n, ThreadPool* pool, F&& f) {  // f(chunk, begin, end)
  const int nc = chunk_count(n);
  auto body = [&](int c, int) {
    const Range r = split_range(n, c, nc, 16);
    f(c, r.begin, r.end);
  };
  if (pool) {
    pool->run(nc, body);
  } else {
    for (int c = 0; c < nc; ++c) body(c, nc);
  }
}

// Walks [begin, end): run(a, b) for the stretches without an override, one(id, value) for each
// overridden token, in index order.
template <class Run, class One>
void for_runs(const DenseLogits& d, int begin, int end, Run&& run, One&& one) {
  auto it = std::lower_bound(d.over.begin(), d.over.end(), std::pair<int, double>(begin, -kScanInf));
  int i = begin;
  for (; it != d.over.end() && it->first < end; ++it) {
    if (it->first > i) run(i, it->first);
    one(it->first, it->second);
    i = it->first + 1;
  }
  if (i < end) run(i, end);
}

// "a ranks above b" for raw floats: higher, then lower id.
struct Scored {
  float x;
  int id;
};
bool better(const Scored& a, const Scored& b) { return a.x > b.x || (a.x == b.x && a.id < b.id); }

// The best `cap` tokens of [begin, end) by base float (overrides not excluded): a k-entry heap,
// skipping a 16-token block whose maximum cannot enter it (its ids are higher than any kept).
void chunk_top(std::span<const float> x, int begin, int end, size_t cap, std::vector<Scored>& h) {
  h.clear();
  if (cap == 0) return;
  auto offer = [&](int i) {
    const Scored c{x[i], i};
    if (h.size() < cap) {
      h.push_back(c);
      std::push_heap(h.begin(), h.end(), better);
    } else if (better(c, h.front())) {
      std::pop_heap(h.begin(), h.end(), better);
      h.back() = c;
      std::push_heap(h.begin(), h.end(), better);
    }
  };
  constexpr int kBlock = 16;
  int i = begin;
  for (; i + kBlock <= end; i += kBlock) {
    if (h.size() == cap && FloatArray(x.data() + i, kBlock).maxCoeff() <= h.front().x) continue;
    for (int j = i; j < i + kBlock; ++j) offer(j);
  }
  for (; i < end; ++i) offer(i);
}

}  // namespace

double DenseLogits::value(int i) const {
  const auto it = std::lower_bound(over.begin(), over.end(), std::pair<int, double>(i, -kScanInf));
  if (it != over.end() && it->first == i) return it->second;
  return base_value(i);
}

DenseSums dense_sums(const DenseLogits& d, bool with_x, ThreadPool* pool) {
  const int n = d.size();
  const int nc = chunk_count(n);
  std::vector<double> part(static_cast<size_t>(nc) * 2, 0.0);
  // Max: division by a positive divisor is monotone, so the max of a run is its float max's.
  for_chunks(n, pool, [&](int c, int b, int e) {
    double m = -kScanInf;
    for_runs(
        d, b, e,
        [&](int i, int j) {
          const double fm = FloatArray(d.base.data() + i, j - i).maxCoeff();
          m = std::max(m, d.divided ? fm / d.divisor : fm);
        },
        [&](int, double v) { m = std::max(m, v); });
    part[c] = m;
  });
  DenseSums s;
  s.max = *std::max_element(part.begin(), part.begin() + nc);
  const double m = s.max;
  for_chunks(n, pool, [&](int c, int b, int e) {
    double sum = 0, xsum = 0;
    constexpr int kTile = 512;  // doubles kept in L1 between the exp and the sums
    Eigen::Array<double, Eigen::Dynamic, 1> x(kTile), ex(kTile);
    for_runs(
        d, b, e,
        [&](int i, int j) {
          for (int t = i; t < j; t += kTile) {
            const int len = std::min(kTile, j - t);
            auto xs = x.head(len);
            auto es = ex.head(len);
            if (d.divided) {
              xs = FloatArray(d.base.data() + t, len).cast<double>() / d.divisor - m;
            } else {
              xs = FloatArray(d.base.data() + t, len).cast<double>() - m;
            }
            es = xs.exp();
            sum += es.sum();
            if (with_x) xsum += (es * xs).sum();
          }
        },
        [&](int, double v) {
          const double e1 = std::exp(v - m);
          sum += e1;
          if (with_x) xsum += e1 * (v - m);
        });
    part[2 * c] = sum;
    part[2 * c + 1] = xsum;
  });
  for (int c = 0; c < nc; ++c) {
    s.sum += part[2 * c];
    s.xsum += part[2 * c + 1];
  }
  return s;
}

std::vector<int> dense_top(const DenseLogits& d, size_t n, ThreadPool* pool) {
  const int size = d.size();
  n = std::min(n, static_cast<size_t>(size));
  std::vector<std::pair<double, int>> cand;  // (value, id)
  if (n == static_cast<size_t>(size)) {
    cand.reserve(n);
    for (int i = 0; i < size; ++i) cand.push_back({d.value(i), i});
  } else {
    // Each chunk's best n + overrides by raw float (the same order as by value for tokens
    // without an override: distinct floats stay distinct after the division); then the
    // overrides take their own values.
    const size_t cap = n + d.over.size();
    const int nc = chunk_count(size);
    std::vector<std::vector<Scored>> heaps(static_cast<size_t>(nc));
    for_chunks(size, pool, [&](int c, int b, int e) { chunk_top(d.base, b, e, cap, heaps[c]); });
    for (const std::vector<Scored>& h : heaps) {
      for (const Scored& x : h) {
        const auto it = std::lower_bound(d.over.begin(), d.over.end(),
                                         std::pair<int, double>(x.id, -kScanInf));
        if (it != d.over.end() && it->first == x.id) continue;
        cand.push_back({d.base_value(x.id), x.id});
      }
    }
    for (const auto& [id, v] : d.over) cand.push_back({v, id});
  }
  auto before = [](const std::pair<double, int>& a, const std::pair<double, int>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  const size_t keep = std::min(n, cand.size());
  std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(keep), cand.end(),
                    before);
  std::vector<int> out(keep);
  for (size_t r = 0; r < keep; ++r) out[r] = cand[r].second;
  return out;
}

std::vector<int> dense_at_least(const DenseLogits& d, double lo, ThreadPool* pool) {
  const int size = d.size();
  const double loose = lo - 1e-6 * std::max(1.0, std::abs(lo));
  // The float bound below which base_value(i) < loose for sure.
  const double fb = d.divided ? loose * d.divisor : loose;
  const float f_lo = std::nextafter(static_cast<float>(fb), -std::numeric_limits<float>::infinity());
  const int nc = chunk_count(size);
  std::vector<std::vector<int>> parts(static_cast<size_t>(nc));
  for_chunks(size, pool, [&](int c, int b, int e) {
    std::vector<int>& out = parts[c];
    for_runs(
        d, b, e,
        [&](int i, int j) {
          constexpr int kBlock = 16;
          int t = i;
          for (; t + kBlock <= j; t += kBlock) {
            if (FloatArray(d.base.data() + t, kBlock).maxCoeff() < f_lo) continue;
            for (int q = t; q < t + kBlock; ++q) {
              if (d.base[q] >= f_lo && d.base_value(q) >= loose) out.push_back(q);
            }
          }
          for (; t < j; ++t) {
            if (d.base[t] >= f_lo && d.base_value(t) >= loose) out.push_back(t);
          }
        },
        [&](int id, double v) {
          if (v >= loose) out.push_back(id);
        });
  });
  std::vector<int> out;
  for (const std::vector<int>& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bool all_finite(std::span<const float> logits, ThreadPool* pool) {
  const int n = static_cast<int>(logits.size());
  std::vector<uint8_t> ok(static_cast<size_t>(chunk_count(n)), 1);
  for_chunks(n, pool, [&](int c, int b, int e) {
    ok[c] = FloatArray(logits.data() + b, e - b).isFinite().all() ? 1 : 0;
  });
  return std::all_of(ok.begin(), ok.end(), [](uint8_t x) { return x != 0; });
}

}  // namespace ts
