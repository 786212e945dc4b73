// The numbers of one distribution view (see dist_stats.h).
#include "app/panels/dist_stats.h"

#include <cmath>
#include <vector>

#include "session/step.h"

namespace ts {
namespace {

// p and rank of `token` in `list` (kept candidates, sorted by p descending as recorded).
ViewStats find_in(const std::vector<Candidate>& list, int token) {
  ViewStats v;
  int rank = 0;
  float lowest = 1;
  for (const Candidate& c : list) {
    if (!c.kept) continue;
    ++rank;
    lowest = c.p;
    if (c.id == token) {
      v.p = c.p;
      v.p_known = true;
      v.rank = rank;
      return v;
    }
  }
  v.p = list.empty() ? 0.0f : lowest;  // below every recorded candidate: at most the lowest
  return v;
}

}  // namespace

ViewStats raw_stats(const SamplingRecord& rec, int token) {
  ViewStats v = find_in(rec.raw, token);
  v.entropy = rec.draw.raw_entropy;
  v.entropy_known = true;
  return v;
}

ViewStats stage_stats(const SamplingRecord& rec, int index, int token) {
  if (index < 0 || index >= static_cast<int>(rec.stages.size())) return {};
  const StageRecord& sr = rec.stages[index];
  ViewStats v = find_in(sr.top, token);
  int kept = 0;
  double h = 0;
  for (const Candidate& c : sr.top)
    if (c.kept) {
      ++kept;
      if (c.p > 0) h -= c.p * std::log2(static_cast<double>(c.p));
    }
  if (kept >= sr.n_kept && kept > 0) {
    v.entropy = static_cast<float>(h);
    v.entropy_known = true;
  }
  return v;
}

ViewStats final_stats(const Step& st) {
  ViewStats v;
  v.p = st.chosen_p;
  v.p_known = st.chosen_rank >= 0 || st.chosen_p > 0;  // a forced token's p comes from the dense distribution
  v.rank = st.chosen_rank >= 0 ? st.chosen_rank + 1 : 0;
  v.entropy = st.sampling.draw.entropy;
  v.entropy_known = true;
  return v;
}

}  // namespace ts
