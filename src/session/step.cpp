// Step helpers: copying K/V rows out of / back into a KvCache; what an intervention says and
// what a child inherits.
#include "session/step.h"

namespace ts {

size_t KvRows::memory_bytes() const {
  size_t n = sizeof(*this);
  for (const Mat& m : k) n += sizeof(m) + static_cast<size_t>(m.size()) * sizeof(float);
  for (const Mat& m : v) n += sizeof(m) + static_cast<size_t>(m.size()) * sizeof(float);
  return n;
}

KvRows KvRows::capture(const KvCache& kv, int first_pos, int n_rows) {
  KvRows r;
  r.first_pos = first_pos;
  r.n_rows = n_rows;
  r.k.reserve(kv.n_layers());
  r.v.reserve(kv.n_layers());
  for (int l = 0; l < kv.n_layers(); ++l) {
    r.k.emplace_back(kv.keys(l).middleRows(first_pos, n_rows));
    r.v.emplace_back(kv.values(l).middleRows(first_pos, n_rows));
  }
  return r;
}

void KvRows::restore_row(KvCache& kv, int pos) const {
  const int r = pos - first_pos;
  for (int l = 0; l < kv.n_layers() && l < static_cast<int>(k.size()); ++l) {
    kv.keys(l).row(pos) = k[l].row(r);
    kv.values(l).row(pos) = v[l].row(r);
  }
}

std::string describe(const Ablation& a) {
  if (a.empty()) return "none";
  return describe(a.set) + (a.from_here_on ? " from" : " at");
}

Ablation inherited_ablation(const StepChoice& parent) {
  if (parent.ablation.from_here_on && !parent.ablation.empty()) return parent.ablation;
  return Ablation{};
}

}  // namespace ts
