// The strip's order without a comparison sort of the whole set: indices of the probabilities
// that are > 0, by probability descending then index ascending (CumulativeStrip's order), by
// one counting pass over the high bits of each double and small sorts inside each bucket.
// O(n) plus the buckets' sorts (a few entries each on a flat distribution of 152k).
#pragma once
#include <span>
#include <utility>
#include <vector>

namespace ts {

class ThreadPool;

// Indices i with p[i] > 0 (NaN excluded), ordered by p[i] descending, ties by i ascending.
std::vector<int> order_by_prob(std::span<const double> p);
// The same order as (p[i], i) pairs, so a walk down the strip reads its probabilities in
// sequence instead of gathering them from p.
std::vector<std::pair<double, int>> strip_pairs(std::span<const double> p);

}  // namespace ts

namespace ts {

// Where a walk down the strip's order (p descending, ties by index) first reaches `target`:
// the first rank r whose cumulative sum of p / divisor (strict: > target; else >= target)
// crosses it, or the last entry with p > 0 if none does. Whole buckets of the probability bits
// are skipped by their mass (summed in index order), so only the crossing bucket is sorted:
// O(n), no order of the whole set. cum_lo / cum_hi then differ from a sum in strip order in
// the last bits only. index -1: no p > 0. The passes run in two fixed slices, on the pool when
// one is given (the same result without it).
struct StripCrossing {
  int index = -1;
  int rank = 0;
  double cum_lo = 0, cum_hi = 0;  // the cumulative sum before and after the entry
  bool last = false;              // the strip's last entry (no later entry has p > 0)
};
StripCrossing cross_strip(std::span<const double> p, double divisor, double target, bool strict,
                          ThreadPool* pool = nullptr);

}  // namespace ts
