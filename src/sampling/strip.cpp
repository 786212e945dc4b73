// The cumulative strip (strip.h): sorting the non-zero probabilities into the documented order
// and finding the interval that contains u. Nothing here samples u or applies a stage.
#include "sampling/strip.h"

#include <algorithm>

namespace ts {

namespace {
template <class T>
void build(std::span<const T> probs, std::vector<int>& ids, std::vector<double>& p,
           std::vector<double>& cum_hi) {
  for (size_t i = 0; i < probs.size(); ++i) {
    if (probs[i] > 0) ids.push_back(static_cast<int>(i));  // false for NaN too
  }
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    if (probs[a] != probs[b]) return probs[a] > probs[b];
    return a < b;
  });
  double total = 0;
  for (int id : ids) total += static_cast<double>(probs[id]);
  double cum = 0;
  for (int id : ids) {
    const double q = static_cast<double>(probs[id]) / total;
    p.push_back(q);
    cum += q;
    cum_hi.push_back(cum);
  }
  if (!cum_hi.empty()) cum_hi.back() = 1.0;
}
}  // namespace

CumulativeStrip::CumulativeStrip(std::span<const float> probs) { build(probs, ids_, p_, cum_hi_); }
CumulativeStrip::CumulativeStrip(std::span<const double> probs) { build(probs, ids_, p_, cum_hi_); }

StripPick CumulativeStrip::at(int rank) const {
  if (ids_.empty()) return {};
  StripPick r;
  r.id = ids_[rank];
  r.rank = rank;
  r.p = p_[rank];
  r.cum_lo = rank == 0 ? 0.0 : cum_hi_[rank - 1];
  r.cum_hi = cum_hi_[rank];
  return r;
}

StripPick CumulativeStrip::find(int id) const {
  for (int rank = 0; rank < size(); ++rank) {
    if (ids_[rank] == id) return at(rank);
  }
  return {};
}

StripPick CumulativeStrip::pick(double u) const {
  if (ids_.empty()) return {};
  // First interval whose upper end is > u, i.e. cum_lo <= u < cum_hi.
  const auto it = std::upper_bound(cum_hi_.begin(), cum_hi_.end(), u);
  const int rank = it == cum_hi_.end() ? size() - 1 : static_cast<int>(it - cum_hi_.begin());
  return at(rank);
}

}  // namespace ts
