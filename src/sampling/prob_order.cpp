// order_by_prob (prob_order.h): a positive double's bit pattern grows with its value, so the
// distance of its bits below the top one's, shifted to fit the span of the set into about as
// many buckets as entries, gives its bucket. The indices are scattered into the buckets in
// index order, then each bucket is sorted by (p desc, index). cross_strip keeps fixed buckets
// (1/1024 of an octave, the last one open 16 octaves down): it sorts only the crossing one.
#include "sampling/prob_order.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

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

StripCrossing cross_strip(std::span<const double> p, double divisor, double target,
                          bool strict) {
  constexpr int kShift = 42;            // 10 mantissa bits: 1024 buckets per octave
  constexpr uint64_t kBuckets = 16384;  // 16 octaves, the last bucket open
  StripCrossing out;
  double top = 0;
  for (double x : p) top = std::max(top, x);
  if (!(top > 0)) return out;
  const uint64_t top_key = bits_of(top) >> kShift;
  auto bucket = [&](double x) {
    const uint64_t d = top_key - (bits_of(x) >> kShift);
    return static_cast<uint32_t>(std::min(d, kBuckets - 1));
  };
  std::vector<double> mass(kBuckets, 0.0);
  std::vector<uint32_t> count(kBuckets, 0);
  for (double x : p) {
    if (x > 0) {
      const uint32_t b = bucket(x);
      mass[b] += x;
      ++count[b];
    }
  }
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
    std::vector<std::pair<double, int>> members;  // this bucket, in the strip's order
    members.reserve(count[b]);
    for (size_t i = 0; i < p.size(); ++i) {
      if (p[i] > 0 && bucket(p[i]) == b) members.push_back({p[i], static_cast<int>(i)});
    }
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
