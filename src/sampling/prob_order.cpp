// order_by_prob (prob_order.h): a positive double's bit pattern grows with its value, so the
// bits below the top one's, shifted to keep the exponent and 8 mantissa bits, give a bucket
// per 1/256 of an octave (the last bucket holds everything 32 octaves down). The indices are
// scattered into the buckets in index order, then each bucket is sorted by (p desc, index).
#include "sampling/prob_order.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace ts {

std::vector<int> order_by_prob(std::span<const double> p) {
  constexpr int kShift = 44;           // 52 mantissa bits, 8 kept
  constexpr uint64_t kBuckets = 8192;  // 32 octaves of 256 buckets, the last one open
  double top = 0;
  for (double x : p) top = std::max(top, x);  // NaN never wins the comparison
  std::vector<int> out;
  if (!(top > 0)) return out;
  const uint64_t top_key = std::bit_cast<uint64_t>(top) >> kShift;
  auto bucket = [&](double x) {  // x > 0: 0 for the top's bucket, growing as x shrinks
    const uint64_t d = top_key - (std::bit_cast<uint64_t>(x) >> kShift);
    return static_cast<uint32_t>(std::min(d, kBuckets - 1));
  };
  std::vector<uint32_t> start(kBuckets + 1, 0);
  size_t n = 0;
  for (double x : p) {
    if (x > 0) {
      ++start[bucket(x) + 1];
      ++n;
    }
  }
  for (uint64_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
  out.resize(n);
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] > 0) out[fill[bucket(p[i])]++] = static_cast<int>(i);
  }
  auto before = [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); };
  for (uint64_t b = 0; b < kBuckets; ++b) {
    if (start[b + 1] - start[b] > 1) {
      std::sort(out.begin() + start[b], out.begin() + start[b + 1], before);
    }
  }
  return out;
}

}  // namespace ts
