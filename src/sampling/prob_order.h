// The strip's order without a comparison sort of the whole set: indices of the probabilities
// that are > 0, by probability descending then index ascending (CumulativeStrip's order), by
// one counting pass over the high bits of each double and small sorts inside each bucket.
// O(n) plus the buckets' sorts (a few dozen entries each on a flat distribution of 152k).
#pragma once
#include <span>
#include <vector>

namespace ts {

// Indices i with p[i] > 0 (NaN excluded), ordered by p[i] descending, ties by i ascending.
std::vector<int> order_by_prob(std::span<const double> p);

}  // namespace ts
