// The cumulative strip the random draw walks: tokens with p > 0 in a stable order (probability
// descending, ties by id ascending), each owning the interval [cum_lo, cum_hi) of [0, 1).
// Built once, then pick(u) is a binary search. It does not produce u (that is base/rng.h).
#pragma once
#include <span>
#include <vector>

namespace ts {

struct StripPick {
  int id = -1;       // -1 only for an empty strip
  int rank = 0;      // 0 = most probable
  double p = 0;      // the token's probability
  double cum_lo = 0; // its interval on the strip [cum_lo, cum_hi)
  double cum_hi = 0;
};

class CumulativeStrip {
 public:
  // probs: (vocab_size), need not sum exactly to 1 (the strip is scaled by its sum).
  explicit CumulativeStrip(std::span<const float> probs);
  explicit CumulativeStrip(std::span<const double> probs);
  // The token whose interval contains u in [0, 1). The last interval ends at exactly 1, so
  // rounding can never leave u past the end.
  StripPick pick(double u) const;
  // The rank-0 token (what greedy takes), with its interval.
  StripPick top() const { return at(0); }
  // Token `id`'s interval; id -1 (and p 0) when the token is not on the strip (p == 0).
  StripPick find(int id) const;
  int size() const { return static_cast<int>(ids_.size()); }

 private:
  StripPick at(int rank) const;
  std::vector<int> ids_;        // tokens with p > 0, in strip order
  std::vector<double> p_;       // their probabilities (normalised)
  std::vector<double> cum_hi_;  // upper ends; cum_hi_.back() == 1
};

}  // namespace ts
