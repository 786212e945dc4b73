// order_by_prob (prob_order.h): a positive double's bit pattern grows with its value, so the
// distance of its bits below the top one's, shifted to fit the span of the set into about as
// many buckets as entries, gives its bucket. The indices are scattered into the buckets in
// index order, then each bucket is sorted by (p desc, index). cross_strip keeps fixed buckets
// (1/256 of an octave, the last one open 16 octaves down): it sorts only the crossing one.
#include "sampling/prob_order.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>

#include "engine/thread_pool.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace ts {

namespace {
// A double's bits (std::bit_cast, which the web build's standard library lacks).
uint64_t bits_of(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
}  // namespace

std::vector<std::pair<double, int>> strip_pairs(std::span<const double> p) {
  // The positive entries' bit patterns span [lo, hi]; the buckets cut that span evenly, about
  // as many buckets as entries (a power of two, 2^10 .. 2^18), so a flat distribution puts a
  // few entries in a bucket and the sorts inside them are a few comparisons each.
  uint64_t hi = 0, lo = ~uint64_t{0};
  size_t n = 0;
  for (double x : p) {
    if (x > 0) {  // false for NaN
      const uint64_t b = bits_of(x);
      hi = std::max(hi, b);
      lo = std::min(lo, b);
      ++n;
    }
  }
  if (n == 0) return {};
  int log_buckets = 10;
  while (log_buckets < 18 && (size_t{1} << log_buckets) < n) ++log_buckets;
  int shift = 0;
  while (((hi - lo) >> shift) >= (uint64_t{1} << log_buckets)) ++shift;
  const size_t n_buckets = static_cast<size_t>((hi - lo) >> shift) + 1;
  auto bucket = [&](double x) {  // x > 0: 0 for the top's bucket, growing as x shrinks
    return static_cast<uint32_t>((hi - bits_of(x)) >> shift);
  };
  // end[b]: first the count of bucket b - 1, then (prefix sums) where bucket b starts; the
  // scatter moves each to where its bucket ends.
  std::vector<uint32_t> end(n_buckets + 1, 0);
  for (double x : p) {
    if (x > 0) ++end[bucket(x) + 1];
  }
  for (size_t b = 0; b < n_buckets; ++b) end[b + 1] += end[b];
  // (p, index) pairs, so that a bucket's sort compares contiguous entries; scattered in index
  // order, so equal probabilities already sit by index.
  std::vector<std::pair<double, int>> pairs(n);
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] > 0) pairs[end[bucket(p[i])]++] = {p[i], static_cast<int>(i)};
  }
  auto before = [](const std::pair<double, int>& a, const std::pair<double, int>& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  };
  uint32_t s = 0;
  for (size_t b = 0; b < n_buckets; s = end[b], ++b) {
    const uint32_t e = end[b];
    if (e - s == 2) {
      if (before(pairs[s + 1], pairs[s])) std::swap(pairs[s], pairs[s + 1]);
    } else if (e - s > 2) {
      std::sort(pairs.begin() + s, pairs.begin() + e, before);
    }
  }
  return pairs;
}

std::vector<int> order_by_prob(std::span<const double> p) {
  const std::vector<std::pair<double, int>> pairs = strip_pairs(p);
  std::vector<int> out(pairs.size());
  for (size_t r = 0; r < pairs.size(); ++r) out[r] = pairs[r].second;
  return out;
}

namespace {

constexpr int kShift = 44;           // 8 mantissa bits: 256 buckets per octave
constexpr uint64_t kBuckets = 4096;  // 16 octaves, the last bucket open

// The probabilities cut into kParts fixed slices (never the pool's size), each slice's pass on
// the pool when there is one, the slices' results combined in order.
constexpr int kParts = 2;

template <class F>
void for_parts(size_t n, ThreadPool* pool, F&& f) {  // f(part, begin, end)
  auto body = [&](int c, int) { f(c, n * c / kParts, n * (c + 1) / kParts); };
  if (pool && n >= 16384) {
    pool->run(kParts, body);
  } else {
    for (int c = 0; c < kParts; ++c) body(c, kParts);
  }
}

struct Histogram {
  std::vector<double> mass = std::vector<double>(kBuckets, 0.0);
  std::vector<uint32_t> count = std::vector<uint32_t>(kBuckets, 0);
};

}  // namespace

StripCrossing cross_strip(std::span<const double> p, double divisor, double target, bool strict,
                          ThreadPool* pool) {
  StripCrossing out;
  double part_top[kParts] = {};
  for_parts(p.size(), pool, [&](int c, size_t b, size_t e) {
    double t = 0;
    for (size_t i = b; i < e; ++i) t = std::max(t, p[i]);
    part_top[c] = t;
  });
  const double top = *std::max_element(part_top, part_top + kParts);
  if (!(top > 0)) return out;
  const uint64_t top_key = bits_of(top) >> kShift;
  auto bucket = [&](double x) {
    const uint64_t d = top_key - (bits_of(x) >> kShift);
    return static_cast<uint32_t>(std::min(d, kBuckets - 1));
  };
  Histogram parts[kParts];
  for_parts(p.size(), pool, [&](int c, size_t b, size_t e) {
    Histogram& h = parts[c];
    size_t i = b;
#if defined(__AVX512F__)
    // The buckets of 8 at a time, then each positive lane added in index order.
    const __m512i vtop = _mm512_set1_epi64(static_cast<long long>(top_key));
    const __m512i vcap = _mm512_set1_epi64(static_cast<long long>(kBuckets - 1));
    alignas(64) uint64_t k8[8];
    for (; i + 8 <= e; i += 8) {
      const __m512d x = _mm512_loadu_pd(p.data() + i);
      uint32_t pos = _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GT_OQ);
      const __m512i key = _mm512_srli_epi64(_mm512_castpd_si512(x), kShift);
      _mm512_store_si512(k8, _mm512_min_epu64(_mm512_sub_epi64(vtop, key), vcap));
      while (pos != 0) {
        const int l = std::countr_zero(pos);
        h.mass[k8[l]] += p[i + static_cast<size_t>(l)];
        ++h.count[k8[l]];
        pos &= pos - 1;
      }
    }
#endif
    for (; i < e; ++i) {
      const double x = p[i];
      if (x > 0) {
        const uint32_t k = bucket(x);
        h.mass[k] += x;
        ++h.count[k];
      }
    }
  });
  Histogram& all = parts[0];  // the slices' masses added in order
  for (int c = 1; c < kParts; ++c) {
    for (uint64_t k = 0; k < kBuckets; ++k) {
      all.mass[k] += parts[c].mass[k];
      all.count[k] += parts[c].count[k];
    }
  }
  const std::vector<double>& mass = all.mass;
  const std::vector<uint32_t>& count = all.count;
  uint32_t last_b = 0;
  for (uint32_t b = 0; b < kBuckets; ++b) {
    if (count[b] > 0) last_b = b;
  }
  auto crosses = [&](double cum) { return strict ? cum > target : cum >= target; };
  const double margin = 1e-9 * std::max(1.0, std::abs(target));  // a bucket this close: walk it
  double cum = 0;
  int rank = 0;
  for (uint32_t b = 0; b <= last_b; ++b) {
    if (count[b] == 0) continue;
    const double after = cum + mass[b] / divisor;
    if (b < last_b && !crosses(after + margin)) {
      cum = after;
      rank += static_cast<int>(count[b]);
      continue;
    }
    // This bucket, in the strip's order: each slice's members (ascending index), then sorted.
    std::vector<std::pair<double, int>> found[kParts];
    for_parts(p.size(), pool, [&](int c, size_t lo, size_t hi) {
      size_t i = lo;
#if defined(__AVX512F__)
      const __m512i vtop = _mm512_set1_epi64(static_cast<long long>(top_key));
      const __m512i vcap = _mm512_set1_epi64(static_cast<long long>(kBuckets - 1));
      const __m512i vb = _mm512_set1_epi64(static_cast<long long>(b));
      for (; i + 8 <= hi; i += 8) {
        const __m512d x = _mm512_loadu_pd(p.data() + i);
        const __m512i key = _mm512_srli_epi64(_mm512_castpd_si512(x), kShift);
        const __m512i k = _mm512_min_epu64(_mm512_sub_epi64(vtop, key), vcap);
        uint32_t hit =
            _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GT_OQ) & _mm512_cmpeq_epu64_mask(k, vb);
        while (hit != 0) {
          const size_t at = i + static_cast<size_t>(std::countr_zero(hit));
          found[c].push_back({p[at], static_cast<int>(at)});
          hit &= hit - 1;
        }
      }
#endif
      for (; i < hi; ++i) {
        if (p[i] > 0 && bucket(p[i]) == b) found[c].push_back({p[i], static_cast<int>(i)});
      }
    });
    std::vector<std::pair<double, int>> members;
    members.reserve(count[b]);
    for (const auto& f : found) members.insert(members.end(), f.begin(), f.end());
    std::sort(members.begin(), members.end(), [](const auto& x, const auto& y) {
      return x.first > y.first || (x.first == y.first && x.second < y.second);
    });
    for (size_t k = 0; k < members.size(); ++k) {
      const double lo = cum;
      cum += members[k].first / divisor;
      const bool last = b == last_b && k + 1 == members.size();
      if (crosses(cum) || last) {
        out.index = members[k].second;
        out.rank = rank + static_cast<int>(k);
        out.cum_lo = lo;
        out.cum_hi = cum;
        out.last = last;
        return out;
      }
    }
    rank += static_cast<int>(members.size());
  }
  return out;  // not reached: the last bucket always ends the walk
}

}  // namespace ts
